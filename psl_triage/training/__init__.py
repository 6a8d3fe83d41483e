"""Training a list from prepared data, as the Train page offers it, and reading the result.

One module per job:

- :mod:`~psl_triage.training.options`: the learner's options (:class:`TrainingOptions`), the
  two named setups (:data:`SETUPS`) and the score set a user types (:func:`parse_score_set`);
  :mod:`~psl_triage.training.choices`: the values, ranges and starting values the Train page's
  widgets offer for them, derived from the estimator's declared parameters.
- :mod:`~psl_triage.training.fit`: :func:`train_list` splits the data into stratified train
  and test rows (:func:`split_rows`), fits the list and describes it for the model file.
- :mod:`~psl_triage.training.tables`: the list as the paper's Table 1 (:func:`list_table`)
  and the stagewise measures on train and test rows (:func:`performance_long`,
  :func:`performance_table`).
- :mod:`~psl_triage.training.runs`: one run at a time and how long an evaluation takes;
  :mod:`~psl_triage.training.knowledge` and :mod:`~psl_triage.training.costs`: what the
  researcher knows about the questions (costs, what is known at triage:
  :mod:`~psl_triage.training.known_at_triage`); :mod:`~psl_triage.training.too_good`: the stop
  for a list too good to be true; :mod:`~psl_triage.training.held_out`: the rows a list is
  judged on; :mod:`~psl_triage.training.session`: the Train page's state.

The Train page's sentences about a list are in :mod:`psl_triage.words.train`, its figure in
:mod:`psl_triage.plots`, its state machine in :mod:`psl_triage.training.session`.

The package re-exports nothing: import each name from its module, so that importing a light
module (the options' costs, "known at triage?") does not load the learner and its compiled
kernels.
"""
