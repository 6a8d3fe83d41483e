"""Can this list be trusted? Calibration, ROC and Monte Carlo evaluation (paper, Sec. 5).

Numbers only: the measures, tables and per-split results, no figures.

- Calibration of any probabilities p on labelled data: a reliability table with the expected
  calibration error, and the exact split of the Brier score into calibration loss and
  refinement loss over the segments of the ROC curve (Flach & Matsubara).
- The ROC curve and its convex hull; the hull's segments carry the isotonic (pool adjacent
  violators) calibration of p (Fawcett & Niculescu-Mizil).
- :func:`monte_carlo_cv`: the paper's evaluation. Repeated stratified train/test splits;
  per split and stage the test expected entropy, Brier score, AUC and expected loss of the
  list and of two logistic-regression baselines on the same features, and the three-way
  view (decide or abstain) over a range of confidence levels; the splits run in parallel
  through joblib (worker processes, or a Dask cluster). :func:`band_summary` turns the
  per-split values into stagewise means with 95 % confidence bands.

All tables are pandas DataFrames; the per-split results are tidy (one value per row), ready
for plots and CSV downloads.
"""

import numbers
import threading
from dataclasses import dataclass

import joblib
import numpy as np
import pandas as pd
from scipy.special import expit
from sklearn.model_selection import StratifiedShuffleSplit

from .calibration import isotonic_probabilities
from .cost_ratio import DEFAULT_COST_RATIO, check_cost_ratio, decision_threshold
from .costs import check_change_value
from .decision import StageBands, outcome_codes, stop_stages
from .errors import DataError, PSLError
from .intervals import check_confidence
from .metrics import binary_entropy
from .stopping import DEFAULT_TOLERANCE, check_tolerance, reference_stages, transition_counts

MEASURES = ("expected_entropy", "brier", "auc", "expected_loss")
MEASURE_LABELS = {
    "expected_entropy": "Expected entropy (bits)",
    "brier": "Brier score",
    "auc": "AUC",
    "expected_loss": "Expected loss (M per missed case, 1 per false alarm)",
}
PSL = "PSL"
LR_REGULARIZED = "LR (C = 1)"
LR_UNREGULARIZED = "LR (unregularized)"
METHODS = (PSL, LR_REGULARIZED, LR_UNREGULARIZED)
# Inverse L2 strengths of the two baselines (np.inf: no penalty).
_BASELINES = ((LR_REGULARIZED, 1.0), (LR_UNREGULARIZED, np.inf))

FIXED_STAGE = "fixed stage"
STEPWISE = "bedside stop rule"
STEPWISE_COSTED = "bedside stop rule, question costs counted"
THREE_WAY_LEVELS = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99)
THREE_WAY_MEASURES = ("coverage", "accuracy", "expected_loss", "questions")
Z_95 = 1.96
_ONE_RUN_AT_A_TIME = threading.Lock()


# ---------------------------------------------------------------------------- scores and counts
def labels01(y):
    """0/1 labels as int64, checked.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Labels 0/1 (1 = positive).

    Returns
    -------
    ndarray of int64, shape (n_samples,)
    """
    y = np.asarray(y)
    if y.ndim != 1 or len(y) == 0:
        raise DataError(f"y must be a non-empty 1-d array of 0/1 labels, got shape {y.shape}")
    if not np.isin(y, (0, 1)).all():
        raise DataError("y must hold 0/1 labels (1 = positive)")
    return y.astype(np.int64)


def _probabilities(p, n):
    p = np.asarray(p, dtype=float)
    if p.shape != (n,):
        raise DataError(f"p must have one probability per label: shape ({n},), got {p.shape}")
    if not np.all((p >= 0) & (p <= 1)):
        raise DataError("p must hold probabilities in [0, 1] (no missing values)")
    return p


def score_counts(y, p):
    """Positive and negative counts per distinct score.

    Parameters
    ----------
    y : array-like of 0/1, shape (n,)
    p : array-like of float in [0, 1], shape (n,)

    Returns
    -------
    scores : ndarray of shape (d,)
        The distinct values of p, increasing.
    positives, negatives : ndarrays of int, shape (d,)
    index : ndarray of int, shape (n,)
        Position of each row's score in ``scores``.
    """
    y = labels01(y)
    return _score_counts(y, _probabilities(p, len(y)))


def _score_counts(y, p):
    """:func:`score_counts` without checking its input (the Monte Carlo inner loop)."""
    scores, index = np.unique(p, return_inverse=True)
    positives = np.bincount(index, weights=y, minlength=len(scores)).astype(np.int64)
    negatives = np.bincount(index, minlength=len(scores)) - positives
    return scores, positives, negatives, index


def _auc_from_counts(positives, negatives):
    """Mann–Whitney AUC from counts per increasing score, ties counted one half."""
    n_pos, n_neg = positives.sum(), negatives.sum()
    if n_pos == 0 or n_neg == 0:
        return 0.5
    negatives_below = np.cumsum(negatives) - negatives
    return float(np.sum(positives * (negatives_below + 0.5 * negatives)) / (n_pos * n_neg))


def isotonic_recalibration(y, p):
    """The isotonic calibration of p on (y, p): the rate of each score's pooled block.

    Pool adjacent violators over the distinct scores, weighted by their counts; equal to the
    empirical positive rate on the segment of the ROC convex hull the score lies on.

    Returns
    -------
    ndarray of shape (n,)
    """
    _, positives, negatives, index = score_counts(y, p)
    return _pooled_rates(positives, negatives)[index]


def _pooled_rates(positives, negatives):
    """Pool adjacent violators over counts per distinct score (every score has cases)."""
    # Only the order of the scores matters, so their ranks stand in for the integer totals.
    return isotonic_probabilities(np.arange(len(positives)), positives, negatives)


# ---------------------------------------------------------------------------- calibration
def reliability_table(y, p, n_bins=10):
    """Reliability diagram data: equal-width bins of p on [0, 1].

    Parameters
    ----------
    y : array-like of 0/1, shape (n,)
    p : array-like of float in [0, 1], shape (n,)
    n_bins : int >= 1
        Bin b holds b / n_bins <= p < (b + 1) / n_bins; p = 1 goes to the last bin.

    Returns
    -------
    pandas.DataFrame with one row per non-empty bin: bin_lower, bin_upper, n,
    mean_predicted, observed_rate.
    """
    if isinstance(n_bins, bool) or not isinstance(n_bins, numbers.Integral) or n_bins < 1:
        raise PSLError(f"n_bins must be an integer >= 1, got {n_bins!r}")
    y = labels01(y)
    p = _probabilities(p, len(y))
    bins = np.minimum((p * n_bins).astype(np.int64), n_bins - 1)
    n = np.bincount(bins, minlength=n_bins)
    used = n > 0
    edges = np.arange(n_bins + 1) / n_bins
    return pd.DataFrame(
        {
            "bin_lower": edges[:-1][used],
            "bin_upper": edges[1:][used],
            "n": n[used],
            "mean_predicted": np.bincount(bins, weights=p, minlength=n_bins)[used] / n[used],
            "observed_rate": np.bincount(bins, weights=y, minlength=n_bins)[used] / n[used],
        }
    )


def expected_calibration_error(table):
    """ECE of a :func:`reliability_table`: sum over bins of (n_b / n) |rate_b - mean p_b|."""
    weights = table["n"] / table["n"].sum()
    return float(np.sum(weights * (table["observed_rate"] - table["mean_predicted"]).abs()))


def brier_decomposition(y, p):
    """The Brier score split into calibration loss and refinement loss (exact).

    The decomposition over the segments of the ROC curve (Flach & Matsubara 2007): one
    segment per distinct score s_j, holding n_j cases with empirical positive rate r_j.
    Then, exactly,

        Brier = (1/n) sum_j n_j (s_j - r_j)^2  +  (1/n) sum_j n_j r_j (1 - r_j)
              = calibration loss               +  refinement loss,

    because within a segment the score is constant and the cross term
    sum_i (s_j - r_j)(r_j - y_i) vanishes. When the ROC curve is convex (the rates r_j
    are non-decreasing in s_j) the segments are those of the convex hull and r_j is the
    isotonic calibration of the scores.

    When the curve is not convex, isotonic calibration pools segments into hull segments
    and the same two terms computed with the pooled rates no longer add up to the Brier
    score (the cross term is then >= 0, not 0). That version is reported separately as
    ``hull_refinement_loss``: (1/n) sum_i h_i (1 - h_i) with h the isotonic calibration,
    the Brier score the scores would reach after the best monotone recalibration. It is at
    least ``refinement_loss``; the difference is what the non-convexity costs.

    Parameters
    ----------
    y : array-like of 0/1, shape (n,)
    p : array-like of float in [0, 1], shape (n,)

    Returns
    -------
    dict with brier, calibration_loss, refinement_loss, hull_refinement_loss (floats).
    """
    scores, positives, negatives, index = score_counts(y, p)
    counts = positives + negatives
    rates = positives / counts
    n = counts.sum()
    y = np.asarray(y, dtype=float)
    p = np.asarray(p, dtype=float)
    hull = _pooled_rates(positives, negatives)
    return {
        "brier": float(np.mean((p - y) ** 2)),
        "calibration_loss": float(np.sum(counts * (scores - rates) ** 2) / n),
        "refinement_loss": float(np.sum(counts * rates * (1 - rates)) / n),
        "hull_refinement_loss": float(np.sum(counts * hull * (1 - hull)) / n),
    }


def stagewise_brier_decomposition(model, X, y):
    """:func:`brier_decomposition` of every stage of a fitted list on labelled data.

    Returns
    -------
    pandas.DataFrame indexed by stage with columns brier, calibration_loss,
    refinement_loss, hull_refinement_loss.
    """
    y01 = (np.asarray(y) == model.classes_[1]).astype(np.int64)
    rows = [
        {"stage": k, **brier_decomposition(y01, model.predict_proba(X, stage=k)[:, 1])}
        for k in range(model.n_stages_)
    ]
    return pd.DataFrame(rows).set_index("stage")


# ---------------------------------------------------------------------------- ROC
def roc_table(y, p):
    """The ROC curve, one point per threshold between distinct scores, and its hull.

    Point j says "positive when p >= threshold_j", going from the highest score down:
    the first row is (0, 0) with threshold inf, the last (1, 1).

    Returns
    -------
    pandas.DataFrame with columns threshold, fpr, tpr, on_hull (whether the point is a
    vertex of the upper convex hull, which runs from (0, 0) to (1, 1)).
    """
    scores, positives, negatives, _ = score_counts(y, p)
    n_pos, n_neg = positives.sum(), negatives.sum()
    if n_pos == 0 or n_neg == 0:
        raise DataError("the ROC curve needs positive and negative cases")
    tp = np.concatenate([[0], np.cumsum(positives[::-1])])
    fp = np.concatenate([[0], np.cumsum(negatives[::-1])])
    fpr, tpr = fp / n_neg, tp / n_pos
    on_hull = np.zeros(len(fpr), dtype=bool)
    on_hull[_upper_hull(fp, tp)] = True
    return pd.DataFrame(
        {
            "threshold": np.concatenate([[np.inf], scores[::-1]]),
            "fpr": fpr,
            "tpr": tpr,
            "on_hull": on_hull,
        }
    )


def _upper_hull(x, y):
    """Indices of the upper convex hull of points sorted by x (then y), monotone chain.

    Collinear points are dropped, so consecutive hull segments have strictly decreasing
    slopes. Integer counts keep the cross products exact.
    """
    hull = []
    for i in range(len(x)):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            cross = (x[b] - x[a]) * (y[i] - y[a]) - (y[b] - y[a]) * (x[i] - x[a])
            if cross < 0:
                break
            hull.pop()
        hull.append(i)
    return hull


def hull_segments(y, p):
    """Segments of the ROC convex hull with the cases they hold.

    Returns
    -------
    pandas.DataFrame, one row per segment from (0, 0) on: score_high, score_low (the
    scores it spans), positives, negatives, rate (positives / cases: the isotonic
    calibration of those scores) and slope (d tpr / d fpr, inf for a vertical segment).
    """
    table = roc_table(y, p)
    y = np.asarray(y)
    n_pos, n_neg = int(np.sum(y == 1)), int(np.sum(y == 0))
    vertices = np.flatnonzero(table["on_hull"].to_numpy())
    tp = np.rint(table["tpr"].to_numpy() * n_pos)
    fp = np.rint(table["fpr"].to_numpy() * n_neg)
    thresholds = table["threshold"].to_numpy()
    start, end = vertices[:-1], vertices[1:]
    d_pos, d_neg = tp[end] - tp[start], fp[end] - fp[start]
    with np.errstate(divide="ignore"):
        slope = (d_pos / n_pos) / (d_neg / n_neg)
    return pd.DataFrame(
        {
            "score_high": thresholds[start + 1],
            "score_low": thresholds[end],
            "positives": d_pos.astype(np.int64),
            "negatives": d_neg.astype(np.int64),
            "rate": d_pos / (d_pos + d_neg),
            "slope": slope,
        }
    )


# ---------------------------------------------------------------------------- Monte Carlo CV
@dataclass(frozen=True)
class CVResult:
    """Per-split results of :func:`monte_carlo_cv`.

    Attributes
    ----------
    measures : pandas.DataFrame
        Tidy: split, stage, method (:data:`METHODS`), measure (:data:`MEASURES`), value.
    three_way : pandas.DataFrame
        Tidy: split, rule, stage, confidence, measure (:data:`THREE_WAY_MEASURES`), value.
        See :func:`monte_carlo_cv`.
    settings : dict
        The arguments of the run (n_splits, test_size, seed, cost_ratio, confidence).
    net_benefit : pandas.DataFrame
        Tidy: split, stage, method, threshold, value. The held-out net benefit
        (:mod:`psl_core.decision_curve`) of every stage of the list and of both baselines
        (acting where p > t) at :data:`psl_core.decision_curve.THRESHOLD_GRID` and at
        1 / (1 + M); ``"Treat all"`` (stage NA); the bedside stop rule's point (method
        :data:`STEPWISE`, stage NA, only at 1 / (1 + M): ruled in, or uncertain on the
        risk-averse basis, is acted on) and, for a list with question costs and a value
        of a changed outcome, :data:`STEPWISE_COSTED`: the same less the mean cost of the
        questions asked divided by that value (a harm term in true positives).
    calibration : pandas.DataFrame
        Tidy: split, stage, method (the list's only), measure
        (:data:`psl_core.calibration_measures.HIERARCHY`), value: held-out O/E,
        calibration intercept and slope, ICI, E50, E90, Emax.
    calibration_curves : pandas.DataFrame
        Tidy: split, stage, risk, observed: the list's held-out flexible calibration curve
        at :data:`psl_core.calibration_measures.RISK_GRID` (rows only within the split's
        range of risks).
    """

    measures: pd.DataFrame
    three_way: pd.DataFrame
    settings: dict
    net_benefit: pd.DataFrame = None
    calibration: pd.DataFrame = None
    calibration_curves: pd.DataFrame = None


def monte_carlo_cv(
    X,
    y,
    make_model,
    n_splits=100,
    test_size=1 / 3,
    seed=0,
    cost_ratio=DEFAULT_COST_RATIO,
    confidence=0.95,
    progress=None,
    confidences=THREE_WAY_LEVELS,
    tolerance=DEFAULT_TOLERANCE,
    bedside_stages=None,
    n_jobs=-1,
    change_value=None,
    evidence=True,
):
    """Monte Carlo cross-validation of a list against logistic regression (paper, Sec. 5).

    For each of ``n_splits`` stratified random splits (``StratifiedShuffleSplit``), a list
    is fitted on the training part and every stage 0..K is measured on the test part:

    - ``expected_entropy``: mean binary entropy (bits) of the test estimates;
    - ``brier``: mean (p - y)^2;
    - ``auc``: ROC AUC, ties counted one half;
    - ``expected_loss``: mean loss of the decisions, M per missed positive and 1 per false
      alarm. The list decides positive where its interval's upper bound (at
      ``confidence``) exceeds 1 / (1 + M), as :func:`psl_core.metrics.stagewise_metrics`
      does; the baselines have no interval and decide on their estimate.

    The baselines at stage k are logistic regressions on the list's own binarized features:
    the 0/1 literals of stages 1..k (e.g. "ST depression > 2.35"), not the raw columns, so
    they see what the list sees but weigh it with free real coefficients. One is
    L2-regularized with C = 1 (intercept unpenalized, as in scikit-learn), one unpenalized;
    at stage 0 both are the training prevalence. They are fitted by Newton's method
    (:func:`fit_logistic`), which gives scikit-learn's solution in a fraction of its time.

    The three-way view: a test patient is *decided* when the interval at a confidence level
    rules them in (wholly above 1 / (1 + M), positive) or out (wholly below it, negative);
    otherwise the list abstains (uncertain: refer). Two rules: ``"fixed stage"`` asks every
    patient the first k questions; ``"bedside stop rule"`` triages each patient as the
    bedside triage does by default (:func:`psl_core.decision.stop_stages`): the first
    ``recommended_stages_`` questions (else the whole list), stopping when settled, when
    ruled in or out and fewer than ``tolerance`` of the training patients like them change
    outcome, or at the end (its rows have a missing stage: no single one applies). Measures:
    ``coverage`` (share decided), ``accuracy`` and ``expected_loss`` on the decided patients
    (NaN when none is), and ``questions`` (mean number of questions asked; for the fixed
    rule simply k).

    Parameters
    ----------
    X : DataFrame or array of shape (n, n_features)
    y : array-like of 0/1, shape (n,)
    make_model : callable
        ``make_model()`` returns an unfitted ProbabilisticScoringList (for example
        ``lambda: sklearn.base.clone(trained)``). Lists may differ in length across splits.
    n_splits : int >= 1
    test_size : float in (0, 1)
    seed : int
    cost_ratio : float > 0
        M.
    confidence : float in (0, 1)
        Level of the intervals behind ``expected_loss``.
    progress : callable or None
        ``progress(done, n_splits)`` each time a split is finished (in the calling
        process; with several workers splits finish in any order, ``done`` counts them).
    confidences : sequence of float in (0, 1)
        Levels of the three-way view.
    tolerance : float in [0, 1)
        The bedside stop rule's share of changed outcomes (:mod:`psl_core.stopping`).
    bedside_stages : int or None
        Questions the bedside rule asks at most, as at the bedside (the trained list's
        recommended length): each split's list is used up to this stage (or its end) and its
        stop statistics are counted on its training part with this stage as reference. None
        uses each split list's own ``recommended_stages_``, else its whole length.
    n_jobs : int or None, default=-1
        Splits fitted at once, through joblib: -1 uses every core, 1 runs them one after
        another in this process, None leaves the choice to an enclosing
        ``joblib.parallel_config``. The active joblib backend runs them (loky worker
        processes by default; ``with joblib.parallel_backend("dask"):`` sends them to a
        Dask cluster). The result does not depend on ``n_jobs`` or the backend: every
        split is computed the same way and the rows come back in split order.
        ``make_model`` and X are sent to the workers, so they must be picklable
        (cloudpickle: lambdas and closures are fine) Runs in one process take turns (a lock):
        joblib's worker pool is shared, and a run stopped from ``progress`` shuts it down.
    change_value : float > 0 or None
        For lists with question costs: the bedside rule's value of a changed outcome
        (:func:`psl_core.decision.stop_stages`); None: costs do not stop the rule.
    evidence : bool, default=True
        Also collect the decision curves and the held-out calibration
        (:attr:`CVResult.net_benefit`, :attr:`CVResult.calibration`,
        :attr:`CVResult.calibration_curves`; None when False).

    Returns
    -------
    CVResult
    """
    if isinstance(n_splits, bool) or not isinstance(n_splits, numbers.Integral) or n_splits < 1:
        raise PSLError(f"n_splits must be an integer >= 1, got {n_splits!r}")
    if not (isinstance(test_size, numbers.Real) and 0 < test_size < 1):
        raise PSLError(f"test_size must be a fraction in (0, 1), got {test_size!r}")
    if n_jobs is not None and (isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0):
        raise PSLError(f"n_jobs must be None or a non-zero integer (-1: every core), got {n_jobs!r}")
    cost_ratio = check_cost_ratio(cost_ratio)
    confidence = check_confidence(confidence)
    tolerance = check_tolerance(tolerance)
    change_value = check_change_value(change_value)
    levels = np.array(sorted({check_confidence(c) for c in confidences} | {confidence}))
    y = labels01(y)
    if len(X) != len(y):
        raise DataError(f"X and y have different lengths: {len(X)} rows in X, {len(y)} labels in y")
    splitter = StratifiedShuffleSplit(n_splits=n_splits, test_size=test_size, random_state=seed)
    try:
        splits = list(splitter.split(np.zeros(len(y)), y))
    except ValueError as exc:
        raise DataError(f"cannot split the data {n_splits} times with test_size={test_size:g}: {exc}") from None
    threshold = decision_threshold(cost_ratio)
    settings = (cost_ratio, threshold, confidence, levels, tolerance, bedside_stages, change_value, bool(evidence))
    tasks = (joblib.delayed(_split_rows)(split, X, y, train, test, make_model, settings)
             for split, (train, test) in enumerate(splits))
    per_split = [None] * n_splits
    # Results arrive as splits finish (any order with several workers): the progress moves
    # per split, and the rows are put back in split order below.
    # One run at a time per process: joblib's worker pool is shared, and a run stopped midway
    # (the progress callback raised, as a server does when it restarts a script) aborts by
    # shutting that pool down. Under the lock, the abort is over before the next run takes a
    # pool; without it, two threads' runs raced ("The executor underlying Parallel has been
    # shutdown", seen in the app's browser test).
    with _ONE_RUN_AT_A_TIME:
        results = joblib.Parallel(n_jobs=n_jobs, return_as="generator_unordered")(tasks)
        try:
            for done, (split, rows) in enumerate(results, start=1):
                per_split[split] = rows
                if progress is not None:
                    progress(done, n_splits)
        finally:
            results.close()  # abort a stopped run now, not when it is garbage collected
    measures = [row for rows, _, _ in per_split for row in rows]
    three_way = [row for _, rows, _ in per_split for row in rows]
    tables = _evidence_tables([rows for _, _, rows in per_split]) if evidence else {}
    return CVResult(
        measures=pd.DataFrame(measures, columns=["split", "stage", "method", "measure", "value"]),
        three_way=pd.DataFrame(
            three_way, columns=["split", "rule", "stage", "confidence", "measure", "value"]
        ).astype({"stage": "Int64"}),
        settings={
            "n_splits": int(n_splits),
            "test_size": float(test_size),
            "seed": seed,
            "cost_ratio": cost_ratio,
            "confidence": confidence,
            "tolerance": tolerance,
            "change_value": change_value,
        },
        **tables,
    )


class _LiteralCache:
    """0/1 value of literals on every row of X, each literal evaluated once.

    One per split of the Monte Carlo loop (splits may run in other processes); the split
    asks it for the value of each of its list's literals.
    """

    def __init__(self, X):
        if isinstance(X, pd.DataFrame):
            self.columns = {name: X[name].to_numpy() for name in X.columns}
        else:
            X = np.asarray(X)
            self.columns = {j: X[:, j] for j in range(X.shape[1])}
        self.values = {}

    def __call__(self, literal):
        if literal not in self.values:
            self.values[literal] = literal.evaluate(self.columns[literal.column])
        return self.values[literal]


def _split_rows(split, X, y, train, test, make_model, settings):
    """One split of :func:`monte_carlo_cv`, run by a joblib worker: the list fitted on
    ``train`` and measured on ``test``.

    Returns
    -------
    split : int
    rows : (measures, three_way, evidence)
        The split's tidy rows (see :func:`_evaluate_split`).
    """
    cost_ratio, threshold, confidence, levels, tolerance, bedside_stages, change_value, collect = settings
    model = make_model().fit(_rows(X, train), y[train])
    measures, three_way, evidence = [], [], _Evidence(split) if collect else None
    _evaluate_split(
        split, model, _LiteralCache(X), y, train, test, cost_ratio, threshold, confidence, levels,
        measures, three_way, tolerance, bedside_stages, change_value, evidence,
    )
    return split, (measures, three_way, evidence)


def _rows(X, index):
    return X.iloc[index] if isinstance(X, pd.DataFrame) else np.asarray(X)[index]


def _split_measures(y, p, p_decide, cost_ratio):
    """The four measures of one method at one stage, in the order of MEASURES."""
    _, positives, negatives, _ = _score_counts(y, p)
    return (
        float(np.mean(binary_entropy(p))),
        float(np.mean((p - y) ** 2)),
        _auc_from_counts(positives, negatives),
        float(np.mean(_decision_loss(p_decide > 1.0 / (1.0 + cost_ratio), y, cost_ratio))),
    )


def _decision_loss(positive, y, cost_ratio):
    """M for a missed positive, 1 for a false alarm, 0 for a right decision."""
    return np.where(positive, 1 - y, cost_ratio * y).astype(float)


def _evaluate_split(split, model, indicators, y, train, test, cost_ratio, threshold, confidence,
                    levels, measures, three_way, tolerance=DEFAULT_TOLERANCE, bedside_stages=None, change_value=None,
                    evidence=None):
    """Append one split's tidy rows to ``measures`` and ``three_way``, its curves to ``evidence``."""
    literals = np.column_stack(
        [np.zeros(len(y), dtype=np.int64)]
        + [indicators(literal) for literal in model.literals_]
    )
    all_totals = np.cumsum(literals * np.array([0] + list(model.scores_)), axis=1)
    totals = all_totals[test]
    y_test = y[test]
    main = int(np.searchsorted(levels, confidence))
    coefficients = {C: np.zeros(1) for _, C in _BASELINES}
    bands = [model.stage_interval(k, levels) for k in range(model.n_stages_)]  # (levels, totals) each
    for k in range(model.n_stages_):
        reachable, lower, q, upper = bands[k]
        index = np.searchsorted(reachable, totals[:, k])
        p = q[index]
        rows = [(PSL, _split_measures(y_test, p, upper[main, index], cost_ratio))]
        if evidence is not None:
            evidence.add(k, PSL, y_test, p, threshold, calibrate=True)
        features = literals[:, 1 : k + 1].astype(float)
        for method, C in _BASELINES:
            start = np.append(coefficients[C], 0.0) if k else coefficients[C]
            coefficients[C] = fit_logistic(features[train], y[train], C, start)
            p_lr = expit(coefficients[C][0] + features[test] @ coefficients[C][1:])
            rows.append((method, _split_measures(y_test, p_lr, p_lr, cost_ratio)))
            if evidence is not None:
                evidence.add(k, method, y_test, p_lr, threshold)
        measures.extend(
            (split, k, method, measure, value)
            for method, values in rows
            for measure, value in zip(MEASURES, values)
        )
        codes = outcome_codes(lower[:, index], upper[:, index], threshold)  # (levels, patients)
        _three_way_rows(split, FIXED_STAGE, k, levels, codes != 0, codes > 0,
                        np.full(codes.shape, k), y_test, cost_ratio, three_way)
    # The bedside rule, per level: (levels, patients).
    length = model.recommended_stages_
    if bedside_stages is not None:
        length = min(int(bedside_stages), len(model.literals_))
        model.stop_statistics_ = transition_counts(all_totals[train], reference_stages(len(model.literals_), length))
    stop, codes = np.array([
        stop_stages(StageBands(model, level, [(t, lower[i], q, upper[i]) for t, lower, q, upper in bands]),
                    totals, cost_ratio, length, tolerance, change_value)
        for i, level in enumerate(levels)
    ]).transpose(1, 0, 2)
    _three_way_rows(split, STEPWISE, pd.NA, levels, codes != 0, codes > 0, stop, y_test, cost_ratio, three_way)
    if evidence is not None:
        costs = np.concatenate([[0.0], np.cumsum(model.stage_costs_)])
        harm = costs[stop[main]].mean() / change_value if change_value else None
        evidence.add_bedside(y_test, codes[main] >= 0, threshold, harm)


class _Evidence:
    """One split's decision curves and held-out calibration, collected as arrays.

    Its imports are local: :mod:`psl_core.decision_curve` and
    :mod:`psl_core.calibration_measures` import this module (labels, logistic fits).
    """

    def __init__(self, split):
        from .decision_curve import THRESHOLD_GRID

        self.split = split
        self.grid = THRESHOLD_GRID
        self.net_benefit = []  # (stage, method, thresholds, values)
        self.calibration = []  # (stage, method, estimates)
        self.curves = []  # (stage, curve at RISK_GRID)

    def add(self, stage, method, y, p, threshold, calibrate=False):
        from .calibration_measures import held_out_calibration
        from .decision_curve import _net_benefit

        thresholds = np.union1d(self.grid, [threshold])
        self.net_benefit.append((stage, method, thresholds, _net_benefit(y, p, thresholds)))
        if calibrate:  # the list's only: the baselines' calibration would cost half the run again
            estimates, values = held_out_calibration(y, p)
            self.calibration.append((stage, method, estimates))
            self.curves.append((stage, values))

    def add_bedside(self, y, acted, threshold, harm):
        from .decision_curve import TREAT_ALL, net_benefit_of_actions, treat_all_net_benefit

        thresholds = np.union1d(self.grid, [threshold])
        self.net_benefit.append((-1, TREAT_ALL, thresholds, treat_all_net_benefit(y.mean(), thresholds)))
        t = np.array([threshold])
        value = net_benefit_of_actions(y, acted, threshold)
        self.net_benefit.append((-1, STEPWISE, t, np.array([value])))
        if harm is not None:
            self.net_benefit.append((-1, STEPWISE_COSTED, t, np.array([value - harm])))


def _evidence_tables(per_split):
    """The tidy tables of :class:`CVResult` from every split's :class:`_Evidence`."""
    from .calibration_measures import HIERARCHY, RISK_GRID

    def stages(values):
        return pd.array([pd.NA if s < 0 else s for s in values], dtype="Int64")

    blocks = [(e.split, s, m, t, v) for e in per_split for s, m, t, v in e.net_benefit]
    sizes = [len(t) for *_, t, _ in blocks]
    net_benefit = pd.DataFrame({
        "split": np.repeat([b[0] for b in blocks], sizes),
        "stage": stages(np.repeat([b[1] for b in blocks], sizes)),
        "method": np.repeat([b[2] for b in blocks], sizes),
        "threshold": np.concatenate([b[3] for b in blocks]),
        "value": np.concatenate([b[4] for b in blocks]),
    })
    rows = [(e.split, s, m, e_) for e in per_split for s, m, e_ in e.calibration]
    n = len(HIERARCHY)
    calibration = pd.DataFrame({
        "split": np.repeat([r[0] for r in rows], n),
        "stage": np.repeat([r[1] for r in rows], n),
        "method": np.repeat([r[2] for r in rows], n),
        "measure": np.tile(HIERARCHY, len(rows)),
        "value": np.concatenate([r[3] for r in rows]),
    })
    curves = [(e.split, s, c) for e in per_split for s, c in e.curves]
    m = len(RISK_GRID)
    calibration_curves = pd.DataFrame({
        "split": np.repeat([c[0] for c in curves], m),
        "stage": np.repeat([c[1] for c in curves], m),
        "risk": np.tile(RISK_GRID, len(curves)),
        "observed": np.concatenate([c[2] for c in curves]),
    }).dropna(subset=["observed"]).reset_index(drop=True)
    return {"net_benefit": net_benefit, "calibration": calibration, "calibration_curves": calibration_curves}


def _three_way_rows(split, rule, stage, levels, decided, positive, questions, y, cost_ratio, rows):
    """Coverage, accuracy and loss on the decided, questions asked; arrays (levels, patients)."""
    n_done = decided.sum(axis=1)
    correct = (decided & (positive == (y == 1))).sum(axis=1)
    loss = np.where(decided, _decision_loss(positive, y, cost_ratio), 0.0).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        table = np.column_stack(
            [n_done / len(y), correct / n_done, loss / n_done, questions.mean(axis=1)]
        )
    rows.extend(
        (split, rule, stage, float(level), measure, float(value))
        for level, values in zip(levels, table)
        for measure, value in zip(THREE_WAY_MEASURES, values)
    )


def fit_logistic(features, y, C=1.0, start=None, max_iter=100, tol=1e-10):
    """Logistic regression with intercept by Newton's method with step halving.

    Minimizes sum_i log-loss_i + ||w||^2 / (2 C) (the intercept is not penalized;
    scikit-learn's ``LogisticRegression(C=C)`` objective); C = inf is unpenalized. On
    separable data the unpenalized optimum is at infinity: the iterations stop when the
    loss no longer decreases by more than ``tol`` per case (or after ``max_iter``), like a
    stopped gradient method. A tiny ridge keeps the Newton system solvable when features
    are collinear (e.g. all categories of one column), without changing predictions.

    Parameters
    ----------
    features : ndarray of shape (n, d)
    y : ndarray of 0/1, shape (n,)
    C : float > 0 or inf
    start : ndarray of shape (d + 1,) or None
        Initial (intercept, coefficients); zeros by default.

    Returns
    -------
    ndarray of shape (d + 1,): intercept, then one coefficient per feature.
    """
    n, d = features.shape
    design = np.column_stack([np.ones(n), features])
    y = np.asarray(y, dtype=float)
    penalty = np.full(d + 1, 0.0 if np.isinf(C) else 1.0 / C)
    penalty[0] = 0.0
    diagonal = penalty + 1e-10 * n

    def loss(w):
        eta = design @ w
        return np.sum(np.logaddexp(0.0, eta) - y * eta) + 0.5 * np.sum(penalty * w * w)

    w = np.zeros(d + 1) if start is None else np.array(start, dtype=float)
    current = loss(w)
    for _ in range(max_iter):
        p = expit(design @ w)
        gradient = design.T @ (p - y) + penalty * w
        hessian = (design * (p * (1 - p))[:, None]).T @ design
        hessian.flat[:: d + 2] += diagonal
        step = np.linalg.solve(hessian, gradient)
        size = 1.0
        while (value := loss(w - size * step)) > current and size > 1e-8:
            size /= 2
        if value > current:
            break
        w = w - size * step
        improvement, current = current - value, value
        if improvement <= tol * n:
            break
    return w


def band_summary(results):
    """Mean over splits with a 95 % confidence band, for every group of a tidy table.

    Parameters
    ----------
    results : pandas.DataFrame
        Tidy per-split results (:attr:`CVResult.measures` or :attr:`CVResult.three_way`):
        a ``split`` and a ``value`` column, every other column names a group.

    Returns
    -------
    pandas.DataFrame with the group columns and mean, sd, n, lower, upper:
    mean ± 1.96 sd / sqrt(n) over the splits where the value is defined (sd with n - 1).
    """
    keys = [c for c in results.columns if c not in ("split", "value")]
    grouped = results.dropna(subset=["value"]).groupby(keys, sort=True, dropna=False)["value"]
    summary = grouped.agg(mean="mean", sd="std", n="count").reset_index()
    half = Z_95 * summary["sd"] / np.sqrt(summary["n"])
    summary["lower"] = summary["mean"] - half
    summary["upper"] = summary["mean"] + half
    return summary
