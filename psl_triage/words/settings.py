"""The words of the training settings (:mod:`psl_triage.training.options`,
:mod:`psl_triage.training.fit`): what is wrong with a custom score set, a number of stages, a
test fraction or a seed, a split that leaves too few rows, and a training the server would
not start because it would run too long.
"""

EMPTY_SCORE_SET = "The custom score set is empty: type whole numbers separated by commas, e.g. -2, -1, 1, 2."
SCORE_NOT_WHOLE = "The custom score set has {token!r}, which is not a whole number: type whole numbers separated by commas, e.g. -2, -1, 1, 2."
SCORE_TOO_LARGE = "The custom score set has a score beyond ±{max_abs_score}: points that large make the list hard to read. Use smaller whole numbers."
SCORE_ZERO = "The custom score set has 0: a feature worth 0 points adds nothing. Leave it out."
BAD_MAX_STAGES = "The maximum number of stages must be at least 1 (or all), got {max_stages}."
BAD_TEST_FRACTION = "The test fraction must lie in [0, 1) (0: no test set), got {fraction!r}."
BAD_SEED = "The seed must be a whole number >= 0, got {seed!r}."
REPEATED_SCORES = "The custom score set repeats {repeated}: give each score once."
NO_STRATIFIED_SPLIT = "The rows cannot be split into stratified train and test parts with a test fraction of {test_fraction:.2f}: {exc}. Choose a fraction nearer 1/3, or 0 for no test set."
TOO_FEW_TRAINING_ROWS = "A test fraction of {test_fraction:.2f} of {n_rows} rows leaves {n_train} training rows, {rarest} of them in the rarer outcome class: too few to learn from (at least {min_rows_per_class} of each class are needed). Choose a smaller test fraction (the paper holds out 1/3), or 0 to train on every row."
TOO_FEW_TRAINING_ROWS_AT_HORIZON = "A test fraction of {test_fraction:.2f} leaves {n_train} training rows, {rarest} of them in the rarer class at the horizon {horizon:g} (the event by it, or followed beyond it): too few to learn from (at least {min_rows_per_class} of each class are needed). Choose a smaller test fraction, or a horizon nearer the middle of the follow-up."
TOO_FEW_FOR_BOTH_CLASSES = "A test fraction of {test_fraction:.2f} of {n_rows} rows leaves {n_test} test and {n_train} training rows, too few to hold both outcome classes. Choose a fraction nearer 1/3, or 0 for no test set."


NOT_STARTED = "PSL Triage did not start: {problem}"


def bad_frame_ancestor(env_var, origin):
    """A value of the setting of the sites that may frame the app that is not an origin."""
    return (f"{env_var} names {origin!r}, which is not an origin such as https://portal.example.org "
            "(a scheme, a host name and, if needed, a port from 1 to 65535; no path, no wildcard): correct "
            f"{env_var}, or leave it empty to let no other site show the app in a frame.")


BAD_MAX_TRAINING = "{env_var} must be a positive number of minutes, got {value!r}."

