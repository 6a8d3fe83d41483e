"""The estimator: :class:`ProbabilisticScoringList` (paper, Def. 3)."""


import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import train_test_split
from sklearn.utils import _safe_indexing
from sklearn.utils.validation import (
    _num_samples,
    validate_data,
)

from . import serialization
from .binarization import (
    candidate_features,
    may_ask,
    read_columns,
    subset_feature,
    with_missing_direction,
)
from .calibration import CALIBRATION_CODES, base_rate, calibrate_stage, reachable_totals, stage_counts
from .chance import kept_stages, stage_evidence
from .constraints import check_constraints
from .costs import check_cost_groups, check_question_costs, search_penalties
from .errors import DataError, RequiredColumnError
from .inputs import read_labels, read_sample_weight
from .parameters import PARAMETER_CONSTRAINTS, check_params
from .prediction import StagewisePredictionMixin
from .recommend import (
    folds_possible,
    held_out_scores,
    interval_inflation,
    n_draws,
    recommended_stage,
    shrinkage_factors,
    shrunk_probabilities,
    stratified_folds,
)
from .search import (
    CRITERION_CODES,
    CROSS_VALIDATED,
    LabelEvaluator,
    PairEvaluator,
    greedy_search,
    preprocess_cuts,
    prior_value,
)
from .stopping import reference_stages, transition_counts
from .survival import horizon_summary, read_survival, training_weights

__all__ = ["ProbabilisticScoringList"]


class ProbabilisticScoringList(StagewisePredictionMixin, ClassifierMixin, BaseEstimator):
    """A probabilistic scoring list: features in order, integer points, and calibrated
    probabilities with confidence intervals at every stage (Hanselle et al., Def. 3).

    At stage k the first k features are known; a case's total is the sum of the points
    of its satisfied features, and q(k, T) is the calibrated probability of the positive
    class for total T, non-decreasing in T. Stage 0 is the prior.

    The defaults are chosen by evidence, not the paper's: on the four shared clinical
    datasets the sigmoid link, two pseudo-counts, the cross-validated Brier criterion, a
    second threshold per numeric feature and at least 10 training rows per answer gave
    the lowest test Brier scores, or came within noise of them (the measurements, with
    their commands, are in ``bench/README.md``); Šidák intervals are never wider than
    Bonferroni's.
    ``ProbabilisticScoringList(**PAPER_SETUP)`` is the paper's learner (Hanselle et al.):
    isotonic calibration, expected entropy, no pseudo-counts, every feature once, any
    threshold, Bonferroni intervals.

    Parameters
    ----------
    score_set : collection of int, default=(-3, -2, -1, 1, 2, 3)
        Points a feature may get (the paper's set). Non-zero, distinct integers.
    calibration : {"isotonic", "beta", "sigmoid"}, default="sigmoid"
        Pool adjacent violators (the paper's default), beta calibration (eq. 9) of the
        totals, or a logistic link in the total (slope >= 0), the link of risk scores
        such as FasterRisk's: two parameters per stage, so it overfits least.
    binarization : {"in-search", "preprocess"}, default="in-search"
        Choose a numeric feature's threshold during the search given the features
        already chosen, or once per feature beforehand.
    threshold_search : {"bisect", "brute"}, default="bisect"
        Hierarchical search assuming a quasi-convex criterion, or every mid-point.
    loss : {"entropy", "soft_rank", "cv_brier", "cv_log_loss", "nested_cv_brier", \
            "nested_cv_log_loss"}, default="cv_brier"
        Selection criterion: expected entropy (eq. 7, the paper's) or soft rank loss
        (eq. 14) of the calibrated estimates on the training data, or the Brier score /
        log-loss of estimates calibrated on ``cv_folds - 1`` folds and scored on the
        held-out fold, summed over the folds (a criterion that judges candidates on
        unseen cases). The ``nested_`` variants validate the choice of the threshold as
        well: within each fold the threshold is chosen on the other folds (by the
        score of their calibrated estimates on their own rows) before the held-out fold
        is scored, so a feature whose best threshold isolates a few extreme training
        cases scores as badly as it predicts; slower, and on the shared datasets better
        on some and worse on others than ``cv_brier`` (``bench/README.md``): not the
        default. With any cross-validated criterion the list ends at the stage where no
        candidate improves the held-out score.
    interval_correction : {"bonferroni", "sidak"}, default="sidak"
        How a stage's intervals share their level among its totals: the paper's
        Bonferroni over every reachable total, or Šidák over the totals with training
        cases (never wider). The interval promises its level per total (see
        :mod:`psl_core.intervals`); the share is the margin that keeps that promise.
    recommend_folds : int >= 2 or None, default=None
        If set, an internal stratified cross-validation with this many folds (seeded
        by ``random_state``) refits the list on each training part and scores every
        stage on the held-out part by the Brier score. ``recommended_stages_`` is then,
        among the stages every fold's list reached, the one with the lowest mean
        held-out Brier score (the shortest of near ties): where to stop the list (a
        stage only some folds reached is scored by their luck; chosen over the
        one-standard-error rule by
        ``bench/stopping.py``; figures in ``bench/README.md``).
    recommend_repeats : int >= 1 or "auto", default="auto"
        How many times the folds of ``recommend_folds`` are drawn (draw r seeded
        ``random_state + r``); the held-out scores of all draws are averaged. ``"auto"``:
        enough draws that the held-out rows hold about 100 rows of the rarer class in all,
        at most 5 (:func:`psl_core.recommend.n_draws`): one draw on 11 events is a lottery
        (MGUS in ``bench/README.md``, section 14); from 100 rows of the rarer class on, one.
    shrinkage : {"cv", None}, default="cv"
        With ``recommend_folds``: pull each stage's probabilities toward the base rate by
        the factor the internal cross-validation finds, q'(k, T) = q(0) + s_k (q(k, T) -
        q(0)) with s_k in [0, 1] the least-squares calibration slope of the fold lists'
        held-out estimates at stage k around their base rates (a uniform shrinkage factor,
        as for clinical prediction models fitted on few patients; ``shrinkage_``); at the
        recommended stage, chosen on those same held-out rows, the mean of that slope and
        the cross-fitted one (:func:`psl_core.recommend.shrinkage_factors`). A list
        learned from few rows promises more than it keeps: shrunk by the slope, its
        held-out calibration slopes centre on 1 (``bench/README.md``). With many rows s_k
        is near 1 and the list stays as it was. The intervals stay those of the patients'
        risk (:mod:`psl_core.intervals`). None, or without ``recommend_folds``: no
        shrinkage.
    cv_folds : int >= 2, default=5
        Folds of the cross-validated criteria (stratified, shuffled with
        ``random_state``).
    max_stages : int or None, default=None
        Maximal number of stages; None allows as many stages as there are candidate
        features (one per binary or numeric column, one per category). The list ends
        earlier when no candidate improves the criterion: its best option would then be a
        constant condition, a question that cannot change any probability.
    lookahead : int, default=1
        1 is plain greedy; L > 1 rates each option by the criterion after L - 1 more
        greedy stages (never beyond ``max_stages``).
    beam_width : int, default=1
        1 is the paper's greedy search; W > 1 keeps the W best partial lists at each
        stage (ranked by the sum of their stagewise criteria) and returns the best
        complete one (see :func:`psl_core.search.greedy_search`).
    calibration_size : float in (0, 1) or None, default=None
        If set, this share of the training rows (stratified) is held out from the
        search and used alone to calibrate the probabilities and count the intervals.
    random_state : int or None, default=0
        Seed of the folds of the cross-validated criteria, of ``recommend_folds`` and of
        the calibration split; the fixed default makes a fit reproducible.
    prior_strength : float >= 0, default=2.0
        Regularization of the probabilities: before calibrating, every total with cases
        gets this many pseudo-cases at the training rate of the positive class, which
        pulls rare totals toward it (0 = the paper's unregularized estimates). The
        search judges candidates with the same shrunk estimates.
    max_feature_uses : int >= 1, default=2
        Stages a numeric feature may fill, each time with a new threshold (for example
        "Glucose > 127" early and "Glucose > 165" later: a finer step in the risk of one
        measurement, asked once at the bedside). 1 is the paper's list, every feature
        once. Binary and categorical indicators are used once.
    min_support : int >= 1, default=10
        Training rows each answer must hold: a threshold is only chosen where at least
        this many training rows fall on each side of it and between it and the
        feature's earlier thresholds (the search runs as without the rule and only
        skips such thresholds, :func:`psl_core.candidates.candidate_cuts`); a binary or
        categorical indicator only when at least this many rows have it and as many
        do not. It keeps the search from cutting off a few extreme cases by chance
        ("BMI > 45.3" for 6 patients). 1 is the paper's search (any threshold). With
        fewer than 2 x ``min_support`` rows no numeric feature qualifies, and the list
        may end early or stay at the prior.
    question_costs : mapping of column to number >= 0, or None, default=None
        What asking each input column costs at the bedside (time, money, harm; one unit
        of the user's choice), keyed by column name (DataFrame) or position (array); a
        column left out costs 0. Saved with the list; the bedside stop rule can weigh
        them (:mod:`psl_core.decision`), and with ``cost_weight`` > 0 the search does.
    cost_groups : mapping of column to str, or None, default=None
        Columns measured together (one blood draw, one exercise test) under one group
        name: a group is paid once, by the first of its columns asked, at the largest
        cost given to its columns (:mod:`psl_core.costs`).
    cost_weight : float >= 0, default=0.0
        How much the search trades criterion for cost: a candidate is ranked by its
        criterion plus ``cost_weight x cost / largest cost x |stage-0 criterion|``
        (:func:`psl_core.costs.search_penalties`), among the candidates that improve the
        criterion at all, so cheaper questions come first; the list's end and its
        probabilities follow the plain criterion. 0 is the search without costs.
    missing : {"learn", "error"}, default="learn"
        What a missing value (NaN, None) in X means. "learn": the search learns, for
        each question on a column with missing training values, whether a missing answer
        counts as yes or as no, and may ask "is the value missing?" itself
        (:mod:`psl_core.binarization`); every row is kept, and the predict methods send a
        missing answer where the list learned. A question on a column without missing
        training values sends one to its more common training answer, as scikit-learn's
        HistGradientBoosting does (``Literal.missing_learned`` is then False: nothing was
        learned, and the bedside treats "not measured" as unknown). On complete data the
        list asks the same questions as without it. "error": missing values raise a
        DataError, as before.
    monotone : mapping of column to {"increasing", "decreasing"}, or None, default=None
        Columns whose points must never fall (or rise) with their value, at every
        stage; the search only tries literals that point that way
        (:mod:`psl_core.constraints`). Numeric and binary columns only.
    required : sequence of columns or None, default=None
        Columns the list must ask first, in this order (each its best question given the
        ones before); the search continues after them.
    forbidden : sequence of columns or None, default=None
        Columns the list never asks (e.g. not available at triage).
    horizon : float > 0 or None, default=None
        With a horizon tau the outcome is time to event: ``fit`` takes ``y`` as a
        structured array of (event, time) as scikit-survival's
        (:func:`psl_core.survival.survival_outcome`), and the list predicts the risk of
        the event within tau (in the unit of the times), censoring respected by
        inverse-probability-of-censoring weights (:mod:`psl_core.survival`): patients
        censored before tau drop out, the others are weighted (stabilised weights, mean
        1: :func:`psl_core.survival.training_weights`), and the search, the calibration
        and the internal cross-validation use those weights. The classes
        are then 0 (no event by tau) and 1 (event by tau). None: a yes/no outcome.
    group_categories : bool, default=True
        Let the search also ask a categorical column with more than two levels as one
        grouping ``x in {a, b}`` (its levels ordered by an ordered categorical's order, else
        by event rate, and cut; :mod:`psl_core.binarization`), besides one question per
        level. False is the paper's search (one-vs-rest only).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels, negative first (sorted; the second is the positive class).
    n_stages_ : int
        K + 1: the number of stages including stage 0.
    features_ : list
        Feature of stages 1..K: column names for a DataFrame, positions for an array.
    scores_ : list of int
        Points of stages 1..K.
    thresholds_ : list of float or None
        Threshold of stages 1..K (``x > t``); None for a binary or categorical feature.
    literals_ : list of Literal
        The full condition of each stage (threshold, category, polarity).
    stage_totals_ : list of ndarray of int
        Sigma_k, the reachable totals of stages 0..K.
    stage_probabilities_ : list of ndarray
        q(k, T) for T in Sigma_k.
    stage_positives_, stage_negatives_ : list of ndarray of int
        Training counts per (k, T), used by the intervals.
    stage_weighted_positives_, stage_weighted_negatives_ : list of ndarray or None
        With weights (sample or censoring weights): the weighted counts per (k, T) the
        probabilities were calibrated on (the intervals count the effective ones above).
    stage_prior_probabilities_ : list of ndarray or None
        A list recalibrated at a site (:func:`psl_core.validation.recalibrate`): the earlier
        list's q(k, T), where its ``prior_strength`` pseudo-cases went. None for a fit.
    probabilities_checked_ : bool
        False for a list read from a model file of version 1, whose probabilities could not
        be recomputed from its counts (:mod:`psl_core.recomputed`); True otherwise.
    stage_criterion_ : ndarray of shape (n_stages_,)
        Training value of the selection criterion at each stage.
    stage_costs_ : ndarray of shape (n_stages_ - 1,)
        The cost of asking the question of stages 1..K after the ones before it: its
        column's (or its group's) cost, 0 when an earlier stage asked that column or a
        column of its group (all 0 without costs).
    end_reason_ : str or None
        Why the list ends where it does (:data:`psl_core.search.END_REASONS`):
        ``"length"`` (``max_stages``, one stage per feature, or every feature's uses
        spent), ``"no_gain"`` (no candidate improves the criterion), ``"support"``
        (no question with ``min_support`` rows per answer left) or, with
        ``recommend_folds`` and a cross-validated loss, ``"chance"`` (no question past
        the recommended length lowers the held-out score by more than chance:
        :mod:`psl_core.chance`). None for a list read from a file saved before it was
        recorded.
    recommended_stages_ : int or None
        With ``recommend_folds``: the number of stages the internal cross-validation
        recommends (lowest mean held-out Brier score among the stages every fold's
        list reached); None without it.
    stop_statistics_ : dict or None
        How often the training patients' outcome changes between stages: counts of
        (total at stage k, total at the recommended length / the whole list) pairs, which
        the bedside stop rule reads (:mod:`psl_core.stopping`). None for a list without
        stages, one learned from pairs, or one read from a file saved before they existed.
    shrinkage_ : ndarray of shape (n_stages_,) or None
        With ``recommend_folds`` and ``shrinkage="cv"``: the factor s_k each stage's
        probabilities were pulled toward the base rate by (1 at stage 0: unchanged); a
        stage no fold's list reached takes the factor of the stage before it. None otherwise.
    interval_inflation_ : ndarray of shape (n_stages_,) or None
        With ``recommend_folds``: the factor phi_k >= 1 by which the internal folds found
        each stage's training rates per total straying from new patients' rates more than
        their counts say (the search chose the questions on those rows); each stage's
        interval is counted from its counts divided by phi_k (:mod:`psl_core.intervals`,
        :func:`psl_core.recommend.interval_inflation`). None otherwise, and for a list read
        from a file saved before it existed (its intervals are then the counts' own).
    validation_brier_, validation_brier_se_ : ndarray of shape (n_stages_,) or None
        With ``recommend_folds``: mean held-out Brier score of each stage over the folds
        (of every draw) whose list reached it, and its standard error (the fold lists' own
        estimates, before any shrinkage; that of one draw's folds). NaN at a stage that no
        fold's list reached (no standard error with fewer than two); None without
        ``recommend_folds``.
    recommend_draws_ : int or None
        With ``recommend_folds``: how many times its folds were drawn
        (``recommend_repeats``); None otherwise, and for a list read from a file.
    horizon_summary_ : dict or None
        With ``horizon``: the training patients (``n``), events by the horizon
        (``events``), censored before it (``censored``, not used) and followed beyond it
        (``beyond``). None otherwise.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only for DataFrame input with string column names.

    Notes
    -----
    Missing values are not guessed: with ``missing="learn"`` their direction is learned
    from the training rows, with ``missing="error"`` they raise a
    :class:`~psl_core.errors.DataError` naming the column. At the bedside an answer that
    exists but is not at hand ("unknown") is handled by :mod:`psl_core.decision` as the
    range over both possible answers; one that was not measured takes the learned direction.
    """

    _parameter_constraints: dict = PARAMETER_CONSTRAINTS

    def __init__(
        self,
        score_set=(-3, -2, -1, 1, 2, 3), calibration="sigmoid", binarization="in-search", threshold_search="bisect",
        loss="cv_brier", max_stages=None, lookahead=1, beam_width=1, calibration_size=None, random_state=0,
        prior_strength=2.0, cv_folds=5, interval_correction="sidak", recommend_folds=None, recommend_repeats="auto",
        max_feature_uses=2,
        min_support=10, question_costs=None, cost_weight=0.0, shrinkage="cv", cost_groups=None, missing="learn",
        monotone=None, required=None, forbidden=None, horizon=None, group_categories=True,
    ):
        self.score_set = score_set
        self.calibration = calibration
        self.binarization = binarization
        self.threshold_search = threshold_search
        self.loss = loss
        self.max_stages = max_stages
        self.lookahead = lookahead
        self.beam_width = beam_width
        self.calibration_size = calibration_size
        self.random_state = random_state
        self.prior_strength = prior_strength
        self.cv_folds = cv_folds
        self.interval_correction = interval_correction
        self.recommend_folds = recommend_folds
        self.recommend_repeats = recommend_repeats
        self.max_feature_uses = max_feature_uses
        self.min_support = min_support
        self.question_costs = question_costs
        self.cost_weight = cost_weight
        self.shrinkage = shrinkage
        self.cost_groups = cost_groups
        self.missing = missing
        self.monotone = monotone
        self.required = required
        self.forbidden = forbidden
        self.horizon = horizon
        self.group_categories = group_categories

    # ------------------------------------------------------------------ validation
    def _check_params(self):
        """Validate the parameters against :attr:`_parameter_constraints`; returns the sorted
        score set."""
        return check_params(self.get_params(deep=False), type(self).__name__)

    def _read_X(self, X, reset):
        if hasattr(X, "toarray") or hasattr(X, "tocsr"):
            raise DataError("sparse input is not supported: convert X with X.toarray() first")
        columns = read_columns(X, fitting=reset, allow_missing=self.missing == "learn")
        try:
            validate_data(self, X, reset=reset, skip_check_array=True)
        except ValueError as exc:  # feature names or count differ from the fitted ones
            raise DataError(
                f"{exc} Pass X with the same columns, in the same order, as the data the list "
                "was fitted on."
            ) from None
        return columns

    def _read_y(self, y, n_rows):
        return read_labels(y, n_rows, type(self).__name__)

    # ------------------------------------------------------------------ learning
    def fit(self, X, y, progress=None, sample_weight=None):
        """Learn the list from labelled data.

        Parameters
        ----------
        X : pandas.DataFrame or array-like of shape (n_samples, n_features)
            Numeric, 0/1, boolean, text or categorical columns (text and categorical
            only in a DataFrame). No infinite values; missing values (NaN, None) only
            with ``missing="learn"``.
        y : array-like of shape (n_samples,)
            Exactly two distinct labels; the larger (sorted) one is the positive class.
        progress : callable or None
            ``progress(stage, n_stages)`` after each learned stage (for progress bars).
        sample_weight : array-like of shape (n_samples,) or None
            Finite weights >= 0, one per row (None: 1 each). Every class count of the
            search, the calibration and the internal cross-validation is a sum of
            weights; the intervals count each total's effective rows
            (:func:`psl_core.calibration.effective_counts`). ``min_support`` still
            counts rows. Rows of weight 0 take no part.

        Returns
        -------
        self
        """
        score_set = self._check_params()
        self.horizon_summary_ = None
        weight = read_sample_weight(sample_weight, X)
        if self.horizon is not None:
            y, weight = self._horizon_problem(X, y, weight)
        X, y, weight = _rows_that_take_part(X, y, weight)
        columns = self._read_X(X, reset=True)
        self.classes_, y01 = self._read_y(y, len(columns[0].values))
        search_rows, calibration_rows = self._calibration_split(y01)
        monotone, required, forbidden = self._checked_constraints(columns)
        folds_work = folds_possible(
            [c.values for c in columns], y01, self._internal_folds(), lambda c: np.asarray(self.classes_)[c].item(),
        )
        evaluator = self._evaluator(columns, y01, search_rows, weight, score_set, (monotone, forbidden), folds_work)
        evidence = None
        if self.loss in CROSS_VALIDATED and not folds_work:
            self._no_question(evaluator)
        else:
            evidence = self._search(evaluator, score_set, progress, monotone, required)
        # The candidates' sort orders and cuts (two to three arrays of n_samples per feature)
        # are not needed past the search: free them before calibration reads X again.
        del evaluator
        self._calibrate(columns, calibration_rows, y01, weight)
        self.validation_brier_ = self.validation_brier_se_ = self.recommended_stages_ = self.shrinkage_ = None
        self.recommend_draws_ = self.interval_inflation_ = None
        if self.recommend_folds is not None and folds_work:
            self._recommend_stages(X, y01, columns, weight)
            self._end_on_evidence(evidence, len(required))
        self.stop_statistics_ = transition_counts(
            self.stagewise_totals(X), reference_stages(len(self.literals_), self.recommended_stages_),
        ) if self.literals_ else None
        return self

    def _checked_constraints(self, columns):
        """(monotone, required, forbidden) of :func:`psl_core.constraints.check_constraints`, after
        the question costs and cost groups are checked against the columns."""
        names = [c.name for c in columns]
        check_question_costs(self.question_costs, names)
        check_cost_groups(self.cost_groups, names)
        return check_constraints(
            self.monotone, self.required, self.forbidden, names,
            {c.name: "ordered" if c.levels is not None else c.kind for c in columns},
        )

    def _evaluator(self, columns, y01, search_rows, weight, score_set, constraints, folds_work):
        """The search's LabelEvaluator over the candidate features of the search rows (none of a
        forbidden column, only the directions ``monotone`` allows), with the criterion's folds."""
        monotone, forbidden = constraints
        features = [
            subset_feature(f, search_rows)
            for f in candidate_features(columns, _y_on(y01, search_rows), self.group_categories, set(monotone or ()))
            if f.column not in forbidden and may_ask(f, monotone)
        ]
        folds = None
        if self.loss in CROSS_VALIDATED and folds_work:
            folds = stratified_folds(
                _take(y01, search_rows), self.cv_folds, self.random_state,
                [_take(c.values, search_rows) for c in columns],
            )
        return LabelEvaluator(
            features, _take(y01, search_rows), score_set,
            CALIBRATION_CODES[self.calibration], CRITERION_CODES[self.loss], self.prior_strength, folds,
            None if weight is None else weight[search_rows],
        )

    def _calibration_split(self, y01):
        """Rows of the search and rows of the calibration: all rows for both, or with
        ``calibration_size`` a stratified share held out for calibration alone."""
        rows = np.arange(len(y01))
        if self.calibration_size is None:
            return rows, rows
        try:
            return train_test_split(
                rows, test_size=self.calibration_size, stratify=y01, random_state=self.random_state,
            )
        except ValueError as exc:  # too few rows of a class to hold some out for calibration
            raise DataError(
                f"calibration_size={self.calibration_size!r} cannot hold out a share of each class "
                f"from {len(y01)} rows ({exc}). Add rows, or set calibration_size=None"
            ) from None

    def _horizon_problem(self, X, y, weight):
        """The weighted yes/no problem of "event within ``horizon``" (:mod:`psl_core.survival`):
        every row's outcome and its stabilised censoring weight (times ``weight``, the rows'
        weights or None); a patient censored before the horizon weighs 0."""
        y = read_survival(y)
        n_rows = _num_samples(X)
        if len(y) != n_rows:
            raise DataError(f"X and y have different lengths: {n_rows} rows in X, {len(y)} outcomes in y")
        outcome, censoring_weight = training_weights(y, self.horizon)
        self.horizon_summary_ = horizon_summary(y, self.horizon)
        return outcome, censoring_weight if weight is None else censoring_weight * weight

    def _internal_folds(self):
        """The internal cross-validations of a fit: (setting, folds) of each."""
        return [
            (name, value) for name, value in (
                ("cv_folds", self.cv_folds if self.loss in CROSS_VALIDATED else None),
                ("recommend_folds", self.recommend_folds),
            ) if value is not None
        ]

    def _no_question(self, evaluator):
        """The list of a cross-validated loss whose folds cannot hold out a class
        (:func:`psl_core.recommend.folds_possible`): no question, and as stage 0's criterion
        the base rate's loss on the training rows (no held-out rows to score)."""
        rate = float(evaluator.shrink[1])
        log_loss = -sum(p * np.log(p) for p in (rate, 1.0 - rate) if p > 0)
        loss = rate * (1.0 - rate) if "brier" in self.loss else log_loss
        self.literals_, self.scores_, self.end_reason_ = [], [], "no_gain"
        self.stage_criterion_ = np.array([loss])

    def _recommend_stages(self, X, y01, columns, weight=None):
        """Held-out Brier score per stage by internal cross-validation (:mod:`psl_core.recommend`);
        the recommended stage has the lowest. With ``shrinkage="cv"`` the probabilities are
        pulled toward the base rate by each stage's held-out calibration slope."""
        self.recommend_draws_ = n_draws(y01, self.recommend_repeats)
        scores, slope, spread = held_out_scores(self, X, y01, columns, weight, self.recommend_draws_)
        self.validation_brier_, self.validation_brier_se_, self.recommended_stages_ = recommended_stage(
            scores, self.recommend_draws_
        )
        self.interval_inflation_ = interval_inflation(*spread)
        if self.shrinkage == "cv":
            factors = shrinkage_factors(slope, scores, self.recommend_draws_)
            self.stage_probabilities_ = shrunk_probabilities(self.stage_probabilities_, factors)
            self.shrinkage_ = factors

    def fit_pairs(self, X, pairs, progress=None):
        """Learn the list from pairwise comparisons alone (Sec. 4.5, soft rank loss).

        The list then ranks cases by their total score (:meth:`total_scores`); with no
        labels there are no probabilities, so ``predict_proba``, ``predict_interval``
        and ``to_json`` raise. The ``loss`` parameter is not used: pairs are always
        judged by the soft rank loss (eq. 14).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
        pairs : array-like of int, shape (n_pairs, 2)
            Rows of (preferred row index, other row index): the first case should
            rank above the second.
        progress : callable or None

        Returns
        -------
        self
        """
        score_set = self._check_params()
        columns = self._read_X(X, reset=True)
        n_rows = len(columns[0].values)
        pairs = np.asarray(pairs)
        if pairs.ndim != 2 or pairs.shape[1] != 2 or len(pairs) == 0:
            raise DataError(f"pairs must have shape (n_pairs, 2) with n_pairs >= 1, got shape {pairs.shape}")
        if not np.issubdtype(pairs.dtype, np.integer):
            raise DataError("pairs must hold integer row indices")
        if pairs.min() < 0 or pairs.max() >= n_rows:
            raise DataError(f"pairs refer to rows outside 0..{n_rows - 1}")
        if np.any(pairs[:, 0] == pairs[:, 1]):
            raise DataError("pairs compare a row with itself; each pair needs two different rows")
        evaluator = PairEvaluator(candidate_features(columns), pairs)
        self._search(evaluator, score_set, progress)
        self.stage_totals_ = [reachable_totals(self.scores_[:k]) for k in range(len(self.scores_) + 1)]
        self.stage_probabilities_ = self.stage_weighted_positives_ = self.stage_weighted_negatives_ = None
        self.stage_prior_probabilities_ = None
        self.validation_brier_ = self.validation_brier_se_ = self.recommended_stages_ = self.shrinkage_ = None
        self.recommend_draws_ = self.stop_statistics_ = self.interval_inflation_ = None
        return self

    def _search(self, evaluator, score_set, progress, monotone=None, required=()):
        """Run the greedy search and keep the chosen literals, scores and criteria; returns each
        stage's held-out evidence (:func:`psl_core.chance.stage_evidence`) when the list may be
        cut on it (a cross-validated loss with ``recommend_folds``), else None."""
        def directions():
            return None if not monotone else [monotone.get(f.column, 0) for f in evaluator.features]

        if self.binarization == "preprocess":
            evaluator.features = preprocess_cuts(
                evaluator, score_set, self.threshold_search, self.min_support, directions(),
            )
        required_features = [
            {i for i, f in enumerate(evaluator.features) if f.column == column} for column in required
        ]
        for column, found in zip(required, required_features):
            if not found:  # every question on it left out: all missing, or none its direction allows
                raise RequiredColumnError(
                    f"the required column {column!r} has no question the search may ask (it is empty, or "
                    "its monotone direction allows none): leave it out of required", column, self.min_support,
                )
        prior = prior_value(evaluator)
        penalties = search_penalties(
            [f.column for f in evaluator.features], check_question_costs(self.question_costs), self.cost_weight, prior,
            check_cost_groups(self.cost_groups),
        )
        options, self.end_reason_ = greedy_search(
            evaluator, score_set, self.max_stages, self.threshold_search, self.lookahead, progress,
            self.beam_width, self.max_feature_uses, self.min_support, penalties, directions(), required_features,
        )
        self.literals_ = [
            with_missing_direction(evaluator.features[o.feature], o, self.missing == "learn") for o in options
        ]
        self.scores_ = [o.score for o in options]
        self.stage_criterion_ = np.array([prior] + [o.value for o in options])
        if evaluator.validated and self.recommend_folds is not None:
            return stage_evidence(evaluator, options)
        return None

    def _end_on_evidence(self, evidence, n_required):
        """Cut the list after the last stage past the recommended (and the required) ones whose
        question gains more than chance on held-out rows (:mod:`psl_core.chance`)."""
        keep = len(self.literals_) if evidence is None else kept_stages(
            evidence, max(self.recommended_stages_, n_required),
        )
        if keep >= len(self.literals_):
            return
        self.literals_, self.scores_ = self.literals_[:keep], self.scores_[:keep]
        for name in ("stage_criterion_", "stage_totals_", "stage_probabilities_", "stage_positives_",
                     "stage_negatives_", "stage_weighted_positives_", "stage_weighted_negatives_",
                     "validation_brier_", "validation_brier_se_", "shrinkage_", "interval_inflation_"):
            if getattr(self, name) is not None:
                setattr(self, name, getattr(self, name)[: keep + 1])
        self.end_reason_ = "chance"

    def _calibrate(self, columns, rows, y01, weight=None):
        by_name = {c.name: c for c in columns}
        totals = np.zeros(len(rows), dtype=np.int64)
        self.stage_totals_, self.stage_probabilities_ = [], []
        self.stage_positives_, self.stage_negatives_ = [], []
        self.stage_weighted_positives_, self.stage_weighted_negatives_ = (None, None) if weight is None else ([], [])
        self.stage_prior_probabilities_, self.probabilities_checked_ = None, True
        w = None if weight is None else _take(weight, rows)
        # The pseudo-cases' rate as a model file recomputes it from stage 0's counts (psl_core.recomputed).
        shrink = np.array([float(self.prior_strength), base_rate(*stage_counts(totals, _take(y01, rows), [0], w))])
        for k in range(len(self.literals_) + 1):
            if k > 0:
                literal = self.literals_[k - 1]
                column = by_name[literal.column]
                missing = None if column.missing is None else _take(column.missing, rows)
                totals = totals + self.scores_[k - 1] * literal.evaluate(_take(column.values, rows), missing)
            reachable = reachable_totals(self.scores_[:k])
            q, pos, neg, weighted = calibrate_stage(totals, _take(y01, rows), reachable, self.calibration, shrink, w)
            if weighted is not None:
                self.stage_weighted_positives_.append(weighted[0])
                self.stage_weighted_negatives_.append(weighted[1])
            self.stage_totals_.append(reachable)
            self.stage_probabilities_.append(q)
            self.stage_positives_.append(pos)
            self.stage_negatives_.append(neg)

    # ------------------------------------------------------------------ persistence
    def to_json(self, metadata=None):
        """The fitted list as versioned, human-readable JSON text (see serialization).

        ``metadata`` (a JSON-ready dict: name, column labels, ...) is stored with it;
        by default the ``metadata_`` a loaded model came with.
        """
        self._check_probabilities()
        return serialization.dumps(self, metadata)

    @classmethod
    def from_json(cls, text):
        """Load a list written by :meth:`to_json`; raises ModelFileError if invalid."""
        return serialization.loads(text, cls)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.allow_nan = self.missing == "learn"
        tags.input_tags.categorical = True
        tags.input_tags.string = False
        return tags


def _rows_that_take_part(X, y, weight):
    """X, y and weight without the rows of weight 0, which take no part in a fit."""
    if weight is None or np.all(weight > 0):
        return X, y, weight
    kept = np.flatnonzero(weight > 0)
    if not len(kept):
        raise DataError(
            "no row has a weight > 0: every row with a weight > 0 in sample_weight is censored before "
            "the horizon; give weight to patients followed to the horizon or with the event before it"
        )
    return _safe_indexing(X, kept), _safe_indexing(y, kept), weight[kept]


def _take(values, rows):
    """``values[rows]``; the array itself (no copy) when ``rows`` are all its rows in order,
    as they are without ``calibration_size``: a large table is not copied per stage."""
    if len(rows) == len(values):
        return values
    return values[rows]


def _y_on(y01, rows):
    """Labels of the search rows, NaN elsewhere (so a grouping's event rates come from them)."""
    if len(rows) == len(y01):
        return y01
    out = np.full(len(y01), np.nan)
    out[rows] = y01[rows]
    return out
