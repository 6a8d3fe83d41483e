"""The paper's evaluation (Sec. 5): Monte Carlo cross-validation of a list.

:func:`monte_carlo_cv` repeats stratified train/test splits (``StratifiedShuffleSplit``):
each split fits a list on its training part and measures every stage 0..K on its test
part, for the list and two logistic-regression baselines, with :func:`psl_core.metrics.stage_measures`:

- ``expected_entropy``: mean binary entropy (bits) of the test estimates;
- ``brier``: mean (p - y)^2;
- ``auc``: ROC AUC, ties counted one half;
- ``expected_loss``: mean loss of the decisions, M per missed positive and 1 per false
  alarm. The list decides positive where its interval's upper bound (at ``confidence``)
  exceeds 1 / (1 + M), as :func:`psl_core.metrics.stagewise_metrics` does; the baselines
  have no interval and decide on their estimate.

The baselines at stage k are logistic regressions on the list's own binarized features:
the 0/1 literals of stages 1..k (e.g. "ST depression > 2.35"), not the raw columns, so
they see what the list sees but weigh it with free real coefficients. One is
L2-regularized with C = 1 (intercept unpenalized, as in scikit-learn), one unpenalized;
at stage 0 both are the training prevalence. They are fitted by Newton's method
(:func:`psl_core.logistic.fit_logistic`), which gives scikit-learn's solution in a fraction of its time.

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

The splits run in parallel through joblib (worker processes, or a Dask cluster).
:func:`band_summary` turns the per-split values into stagewise means with 95 % confidence
bands. All tables are pandas DataFrames; the per-split results are tidy (one value per
row), ready for plots and CSV downloads. The calibration and ROC tables of any
probabilities are in :mod:`psl_core.reliability` (importable from here too).
"""

import numbers
from dataclasses import dataclass

import joblib
import numpy as np
import pandas as pd
from scipy.special import expit
from sklearn.model_selection import StratifiedShuffleSplit

from .calibration_measures import HIERARCHY, RISK_GRID, held_out_calibration
from .cost_ratio import DEFAULT_COST_RATIO, check_cost_ratio, decision_threshold
from .costs import check_change_value
from .decision import StageBands, outcome_codes, stop_stages
from .decision_curve import (
    THRESHOLD_GRID,
    TREAT_ALL,
    net_benefit_of_actions,
    net_benefit_unchecked,
    treat_all_net_benefit,
)
from .errors import DataError, PSLError
from .intervals import check_confidence
from .logistic import fit_logistic
from .metrics import MEASURE_LABELS, MEASURES, decision_loss, labels01, stage_measures
from .reliability import (
    brier_decomposition,
    expected_calibration_error,
    hull_segments,
    isotonic_recalibration,
    reliability_table,
    roc_table,
    stagewise_brier_decomposition,
)
from .stopping import DEFAULT_TOLERANCE, check_tolerance, reference_stages, transition_counts

__all__ = [
    "monte_carlo_cv", "CVResult", "band_summary", "MEASURES", "MEASURE_LABELS", "METHODS",
    "PSL", "LR_REGULARIZED", "LR_UNREGULARIZED", "FIXED_STAGE", "STEPWISE", "STEPWISE_COSTED",
    "THREE_WAY_LEVELS", "THREE_WAY_MEASURES", "labels01", "brier_decomposition", "expected_calibration_error",
    "hull_segments", "isotonic_recalibration", "reliability_table", "roc_table", "stagewise_brier_decomposition",
]

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


# ---------------------------------------------------------------------------- Monte Carlo CV
@dataclass(frozen=True)
class CVResult:
    """Per-split results of :func:`monte_carlo_cv`: tidy tables (one value per row) and
    the settings of the run.

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


def monte_carlo_cv(X, y, make_model, n_splits=100, test_size=1 / 3, seed=0, cost_ratio=DEFAULT_COST_RATIO,
                   confidence=0.95, progress=None, confidences=THREE_WAY_LEVELS, tolerance=DEFAULT_TOLERANCE,
                   bedside_stages=None, n_jobs=-1, change_value=None, evidence=True):
    """Monte Carlo cross-validation of a list against logistic regression (paper, Sec. 5).

    Per stratified random split a list is fitted on the training part and every stage is
    measured on the test part (measures, baselines, three-way view: the module docstring).

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
        Splits fitted at once by the active joblib backend (loky worker processes by
        default, or e.g. a Dask cluster): -1 every core, 1 one after another in this
        process, None the choice of an enclosing ``joblib.parallel_config``. The result
        does not depend on it. ``make_model`` and X go to the workers (cloudpickle). The
        worker pool is the process's: callers on several threads serialise their runs.
    change_value : float > 0 or None
        For lists with question costs: the bedside rule's value of a changed outcome
        (:func:`psl_core.decision.stop_stages`); None: costs do not stop the rule.
    evidence : bool, default=True
        Also collect the decision curves and the held-out calibration (:class:`CVResult`'s
        net_benefit, calibration and calibration_curves; None when False).

    Returns
    -------
    CVResult
    """
    _check_run(n_splits, test_size, n_jobs)
    checked = _checked_settings(cost_ratio, confidence, confidences, tolerance, change_value)
    cost_ratio, threshold, confidence, levels, tolerance, change_value = checked
    y, splits = _stratified_splits(X, y, n_splits, test_size, seed)
    settings = (cost_ratio, threshold, confidence, levels, tolerance, bedside_stages, change_value, bool(evidence))
    tasks = [joblib.delayed(_split_rows)(k, X, y, train, test, make_model, settings) for k, (train, test) in enumerate(splits)]
    run = {"n_splits": int(n_splits), "test_size": float(test_size), "seed": seed, "cost_ratio": cost_ratio,
           "confidence": confidence, "tolerance": tolerance, "change_value": change_value}
    return _cv_result(_run_splits(tasks, n_jobs, progress), run, evidence)


def _stratified_splits(X, y, n_splits, test_size, seed):
    """y as 0/1 and the (train, test) row indices of every split; a DataError when the data
    cannot be split so."""
    y = labels01(y)
    if len(X) != len(y):
        raise DataError(f"X and y have different lengths: {len(X)} rows in X, {len(y)} labels in y")
    splitter = StratifiedShuffleSplit(n_splits=n_splits, test_size=test_size, random_state=seed)
    try:
        return y, list(splitter.split(np.zeros(len(y)), y))
    except ValueError as exc:
        raise DataError(f"cannot split the data {n_splits} times with test_size={test_size:g}: {exc}") from None


def _cv_result(per_split, settings, evidence):
    """The :class:`CVResult` of every split's (measure rows, three-way rows, evidence rows)."""
    return CVResult(
        measures=pd.DataFrame([row for rows, _, _ in per_split for row in rows],
                              columns=["split", "stage", "method", "measure", "value"]),
        three_way=pd.DataFrame(
            [row for _, rows, _ in per_split for row in rows],
            columns=["split", "rule", "stage", "confidence", "measure", "value"],
        ).astype({"stage": "Int64"}),
        settings=settings,
        **(_evidence_tables([rows for _, _, rows in per_split]) if evidence else {}),
    )


def _checked_settings(cost_ratio, confidence, confidences, tolerance, change_value):
    """M, its threshold, the main level, every level (sorted), the tolerance and the
    value of a changed outcome, each checked."""
    cost_ratio = check_cost_ratio(cost_ratio)
    confidence = check_confidence(confidence)
    levels = np.array(sorted({check_confidence(c) for c in confidences} | {confidence}))
    return (cost_ratio, decision_threshold(cost_ratio), confidence, levels, check_tolerance(tolerance),
            check_change_value(change_value))


def _check_run(n_splits, test_size, n_jobs):
    """The run's own settings: how many splits, how large a test part, how many workers."""
    if isinstance(n_splits, bool) or not isinstance(n_splits, numbers.Integral) or n_splits < 1:
        raise PSLError(f"n_splits must be an integer >= 1, got {n_splits!r}")
    if not (isinstance(test_size, numbers.Real) and 0 < test_size < 1):
        raise PSLError(f"test_size must be a fraction in (0, 1), got {test_size!r}")
    if n_jobs is not None and (isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0):
        raise PSLError(f"n_jobs must be None or a non-zero integer (-1: every core), got {n_jobs!r}")


def _run_splits(tasks, n_jobs, progress):
    """Run the splits' tasks through joblib; their rows in split order.

    Results arrive as splits finish (any order with several workers): the progress moves
    per split, and the rows are put back in split order.
    """
    per_split = [None] * len(tasks)
    results = joblib.Parallel(n_jobs=n_jobs, return_as="generator_unordered")(tasks)
    try:
        for done, (split, rows) in enumerate(results, start=1):
            per_split[split] = rows
            if progress is not None:
                progress(done, len(tasks))
    finally:
        results.close()  # abort a stopped run now, not when it is garbage collected
    return per_split


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
        rows = [(PSL, stage_measures(y_test, p, upper[main, index], cost_ratio))]
        if evidence is not None:
            evidence.add(k, PSL, y_test, p, threshold, calibrate=True)
        features = literals[:, 1 : k + 1].astype(float)
        for method, C in _BASELINES:
            start = np.append(coefficients[C], 0.0) if k else coefficients[C]
            coefficients[C] = fit_logistic(features[train], y[train], C, start)
            p_lr = expit(coefficients[C][0] + features[test] @ coefficients[C][1:])
            rows.append((method, stage_measures(y_test, p_lr, p_lr, cost_ratio)))
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
    """One split's decision curves and held-out calibration, collected as arrays."""

    def __init__(self, split):
        self.split = split
        self.grid = THRESHOLD_GRID
        self.net_benefit = []  # (stage, method, thresholds, values)
        self.calibration = []  # (stage, method, estimates)
        self.curves = []  # (stage, curve at RISK_GRID)

    def add(self, stage, method, y, p, threshold, calibrate=False):
        thresholds = np.union1d(self.grid, [threshold])
        self.net_benefit.append((stage, method, thresholds, net_benefit_unchecked(y, p, thresholds)))
        if calibrate:  # the list's only: the baselines' calibration would cost half the run again
            estimates, values = held_out_calibration(y, p)
            self.calibration.append((stage, method, estimates))
            self.curves.append((stage, values))

    def add_bedside(self, y, acted, threshold, harm):
        thresholds = np.union1d(self.grid, [threshold])
        self.net_benefit.append((-1, TREAT_ALL, thresholds, treat_all_net_benefit(y.mean(), thresholds)))
        t = np.array([threshold])
        value = net_benefit_of_actions(y, acted, threshold)
        self.net_benefit.append((-1, STEPWISE, t, np.array([value])))
        if harm is not None:
            self.net_benefit.append((-1, STEPWISE_COSTED, t, np.array([value - harm])))


def _evidence_tables(per_split):
    """The tidy tables of :class:`CVResult` from every split's :class:`_Evidence`."""
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
    loss = np.where(decided, decision_loss(positive, y, cost_ratio), 0.0).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        table = np.column_stack(
            [n_done / len(y), correct / n_done, loss / n_done, questions.mean(axis=1)]
        )
    rows.extend(
        (split, rule, stage, float(level), measure, float(value))
        for level, values in zip(levels, table)
        for measure, value in zip(THREE_WAY_MEASURES, values)
    )


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
