"""External validation of a fitted list on a second labelled table, and recalibration there.

A list learned at one site is applied to another site's table (the same questions, the
answers of new patients). What transfers and what does not is measured by the usual
measures of external validation (Steyerberg, *Clinical Prediction Models*, ch. 15;
Van Calster et al. 2016, "A calibration hierarchy for risk models"):

- *calibration-in-the-large* (CITL): the intercept a of ``logit P(y=1) = a + logit p``
  (the list's log-odds as offset). 0 when the mean predicted risk matches the observed
  rate; > 0 when the list under-estimates risk at the new site. Its plain companion,
  observed rate − mean predicted risk, is reported too;
- *calibration slope*: b in ``logit P(y=1) = a + b logit p``. 1 when the list's spread of
  risks fits the new site; < 1 when its risks are too extreme (over-fitting, or a case mix
  where the questions separate less);
- the Brier score and the AUC (discrimination); the report keeps the rows' outcomes and
  probabilities for a reliability table (:func:`psl_core.evaluation.reliability_table`).

Each comes with a percentile bootstrap interval (rows resampled with a seed).

*Recalibration at the new site* keeps the questions, their order and their points and
re-estimates every stage's probabilities (and the counts behind its intervals) from the new
table with the list's own calibration method: :func:`recalibrate` returns a new fitted list.

A missing answer at the site is a "not measured" answer, judged as the bedside judges one:
it goes where the list learned a missing answer goes (``Literal.not_measured``, as
``predict_proba`` sends it). Only a missing answer the list learned no direction for (its
column had no missing training values, or the list allows none) leaves the value unknown:
a row enters stage k when each of its first k answers is known or has a learned direction
(:func:`stage_totals`); the measures of stage k use those rows, and so does the
recalibration of stage k. :func:`stage_rows` counts both kinds of rows.
"""

import copy
import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.special import expit, logit

from .calibration import effective_counts, recalibrated_probabilities, stage_counts
from .errors import DataError, PSLError
from .inputs import read_sample_weight
from .intervals import check_confidence
from .logistic import fit_logistic
from .metrics import MEASURE_LABELS as MEASURE_LABELS  # its labels are in the one mapping
from .metrics import auc_from_counts, checked_probabilities, count_scores, labels01
from .stopping import reference_stages, transition_counts

__all__ = [
    "MEASURES", "MEASURE_LABELS", "IDEAL", "MIN_RECALIBRATION_ROWS", "log_odds", "stage_totals", "stage_answers",
    "stage_probabilities", "StageRows", "stage_rows", "stage_risks",
    "calibration_intercept", "calibration_slope", "ValidationReport", "validation_report", "stagewise_validation",
    "recalibratable_stages", "recalibrate"
]

MEASURES = ("observed_minus_expected", "citl", "slope", "brier", "auc")
IDEAL = {"observed_minus_expected": 0.0, "citl": 0.0, "slope": 1.0, "brier": None, "auc": None}
MIN_RECALIBRATION_ROWS = 20
"""Rows a stage needs at the new site (with both outcomes among them) to be recalibrated."""
_CLIP = 1e-3  # an isotonic list may say 0 or 1; its log-odds are taken at 0.001 / 0.999


def log_odds(p):
    """logit p with p clipped to [0.001, 0.999] first: a list may say 0 or 1."""
    return logit(np.clip(p, _CLIP, 1 - _CLIP))


# ---------------------------------------------------------------------------- answers -> totals
def stage_totals(model, X, last_stage=None):
    """Totals of every row at stages 0..last_stage, and whether they are known.

    Unlike :meth:`ProbabilisticScoringList.stagewise_totals`, X may miss values (NaN) and
    needs only the columns the list asks about. A missing answer takes the direction the
    list learned for it (``Literal.not_measured``: "not measured" at the bedside); a row's
    total at stage k is known when each of its first k answers is known or has one.

    Parameters
    ----------
    model : fitted ProbabilisticScoringList
    X : pandas.DataFrame of shape (n, d)
        Holds every column the first ``last_stage`` questions ask about, coded as at
        training (numbers for numeric columns, 0/1 for binary ones, category text for
        categorical ones); NaN or None for a missing answer.
    last_stage : int or None
        Default: the list's last stage.

    Returns
    -------
    totals : ndarray of int, shape (n, last_stage + 1)
        0 where not known.
    known : ndarray of bool, shape (n, last_stage + 1)
        Column 0 is all True.
    """
    points, answered, _ = _answers(model, X, last_stage)
    return np.cumsum(points, axis=1), np.logical_and.accumulate(answered, axis=1)


def stage_answers(model, X, last_stage=None):
    """Each row's answers to the first ``last_stage`` questions, as :func:`stage_totals` reads them.

    Returns
    -------
    hits : ndarray of int, shape (n, last_stage)
        1 where the question's condition holds (a missing answer with a learned direction
        takes it), 0 otherwise or where the answer is unknown.
    answered : ndarray of bool, shape (n, last_stage)
        The answer is known or has a learned direction.
    missing : ndarray of bool, shape (n, last_stage)
        The answer is missing (with or without a learned direction).
    """
    points, answered, directed = _answers(model, X, last_stage)
    hits = (points[:, 1:] != 0).astype(np.int64)  # a question's points are never 0
    return hits, answered[:, 1:], directed[:, 1:] | ~answered[:, 1:]


@dataclass(frozen=True)
class StageRows:
    """The rows of a table that one stage of a list judges (:func:`stage_rows`).

    Attributes
    ----------
    rows : ndarray of bool, shape (n,)
        Rows whose first ``stage`` answers are each known or have a learned direction.
    totals : ndarray of int, shape (rows.sum(),)
        Their totals at the stage.
    p : ndarray of float, shape (rows.sum(),)
        The list's probability for each.
    n_not_measured : int
        Rows judged with at least one missing answer, each gone where the list learned it goes.
    undirected : tuple of str
        The columns of the stage's questions with a missing answer the list learned no
        direction for (what left the other rows out), in the order first asked.
    """

    rows: np.ndarray
    totals: np.ndarray
    p: np.ndarray
    n_not_measured: int
    undirected: tuple


def stage_rows(model, X, stage):
    """The rows that answer the first ``stage`` questions, their totals and probabilities, and
    how their missing answers were judged (one pass over the answers; X as in
    :func:`stage_totals`).

    Returns
    -------
    StageRows
    """
    stage = model._stage(stage)
    points, answered, directed = _answers(model, X, stage)
    rows = answered.all(axis=1)
    totals = points[rows].sum(axis=1)
    columns = dict.fromkeys(str(literal.column) for literal, known in zip(model.literals_[:stage], answered[:, 1:].T)
                            if not known.all())
    return StageRows(rows=rows, totals=totals, p=stage_probabilities(model, totals, stage),
                     n_not_measured=int((rows & directed.any(axis=1)).sum()), undirected=tuple(columns))


def _answers(model, X, last_stage):
    """Each row's points per stage (n, last_stage + 1), whether each answer is known or has a
    learned direction, and whether it is a missing answer that took that direction."""
    last_stage = model._stage(last_stage)
    if not isinstance(X, pd.DataFrame):
        raise DataError(f"X must be a pandas DataFrame with the list's columns, got {type(X).__name__}")
    n = len(X)
    points = np.zeros((n, last_stage + 1), dtype=np.int64)
    answered = np.ones((n, last_stage + 1), dtype=bool)
    directed = np.zeros((n, last_stage + 1), dtype=bool)
    for k, (literal, score) in enumerate(zip(model.literals_[:last_stage], model.scores_), start=1):
        if literal.column not in X.columns:
            raise DataError(f"X has no column {literal.column!r}, which question {k} of the list asks about")
        values = X[literal.column].astype(object)  # a Categorical would refuse the placeholder
        missing = values.isna().to_numpy()
        present = values.where(~missing, 0 if literal.kind != "category" else "").to_numpy()
        if literal.kind != "category":
            try:
                present = present.astype(float)
            except (TypeError, ValueError):
                raise DataError(
                    f"column {literal.column!r} must hold numbers (question {k} is {literal.kind}), "
                    "with NaN for a missing answer"
                ) from None
        hit, direction = literal.evaluate(present), literal.not_measured
        if direction is not None:
            hit = np.where(missing, int(direction), hit)
        unknown = missing & (direction is None)
        points[:, k] = np.where(unknown, 0, score * hit)
        answered[:, k] = ~unknown
        directed[:, k] = missing & ~unknown
    return points, answered, directed


def stage_probabilities(model, totals, stage):
    """The list's probability q(stage, T) of each total T (reachable at the stage)."""
    return model.stage_probabilities_[stage][np.searchsorted(model.stage_totals_[stage], totals)]


def stage_risks(model, X, stage):
    """The rows that answer the first ``stage`` questions and the list's probability for each.

    Returns
    -------
    rows : ndarray of bool, shape (n,)
    p : ndarray of float, shape (rows.sum(),)
    """
    judged = stage_rows(model, X, stage)
    return judged.rows, judged.p


# ---------------------------------------------------------------------------- measures
def calibration_intercept(y, p):
    """Calibration-in-the-large: a in ``logit P(y=1) = a + logit p`` (offset logistic fit).

    Parameters
    ----------
    y : ndarray of 0/1, shape (n,)
    p : ndarray of float in [0, 1], shape (n,)
        Probabilities are clipped to [0.001, 0.999] before taking log-odds (a list may
        say 0 or 1, whose log-odds are infinite).

    Returns
    -------
    float (±inf when every y is 0 or 1)
    """
    y, p = _labels_and_probabilities(y, p)
    offset = logit(np.clip(p, _CLIP, 1 - _CLIP))
    if y.min() == y.max():
        return -np.inf if y[0] == 0 else np.inf
    a = logit(np.clip(y.mean(), _CLIP, 1 - _CLIP)) - logit(np.clip(np.mean(p), _CLIP, 1 - _CLIP))
    for _ in range(50):  # Newton on a concave 1-d log-likelihood
        q = expit(a + offset)
        step = np.sum(y - q) / max(np.sum(q * (1 - q)), 1e-12)
        a += step
        if abs(step) < 1e-10:
            break
    return float(a)


def calibration_slope(y, p):
    """Calibration slope: b in ``logit P(y=1) = a + b logit p`` (logistic regression).

    p is clipped as in :func:`calibration_intercept`; a list that says 0 or 1 for some
    rows has its slope set by those clipped log-odds, so read it with the reliability table.
    +inf (-inf) when the outcomes are separated by p: every negative at or below every
    positive (above), where the maximum-likelihood slope does not exist.

    NaN when p takes a single value (no spread to fit a slope to) or y a single class.
    Takes y and p as :func:`calibration_intercept` does.
    """
    y, p = _labels_and_probabilities(y, p)
    p = np.clip(p, _CLIP, 1 - _CLIP)
    if np.ptp(p) == 0 or np.min(y) == np.max(y):
        return np.nan
    if p[y == 0].max() <= p[y == 1].min():
        return np.inf
    if p[y == 1].max() <= p[y == 0].min():
        return -np.inf
    return float(fit_logistic(logit(p)[:, None], y, C=np.inf)[1])


def _labels_and_probabilities(y, p):
    """y as 0/1 floats and p as probabilities, one per label (DataError naming the problem)."""
    y = labels01(y)
    return y.astype(float), checked_probabilities(p, len(y))


def _measures(y, p):
    """The values of :data:`MEASURES` for labels y and probabilities p (arrays, unchecked)."""
    _, positives, negatives, _ = count_scores(y, p)
    return np.array([
        float(np.mean(y) - np.mean(p)),
        calibration_intercept(y, p),
        calibration_slope(y, p),
        float(np.mean((p - y) ** 2)),
        auc_from_counts(positives, negatives) if positives.sum() and negatives.sum() else np.nan,
    ])


@dataclass(frozen=True)
class ValidationReport:
    """One stage of a list judged on a second table (:func:`validation_report`).

    Attributes
    ----------
    stage : int
    n_rows, n_positive : int
        Rows used (every answer up to the stage known or not measured) and positives among them.
    n_missing : int
        Rows left out: a missing answer to one of the stage's questions that the list learned
        no direction for (:func:`stage_rows`).
    observed_rate, mean_predicted : float
    measures : pandas.DataFrame
        Indexed by :data:`MEASURES`: estimate, lower, upper (bootstrap percentile
        interval at ``confidence``), ideal (the value of a perfectly calibrated list,
        NaN where there is none).
    y, p : ndarray of shape (n_rows,)
        The rows' outcomes (0/1) and the list's probabilities, for figures.
    confidence : float
    n_boot : int
    n_not_measured : int
        Rows used with a missing answer, each gone where the list learned it goes.
    undirected : tuple of str
        The columns whose missing answers left the ``n_missing`` rows out.
    """

    stage: int
    n_rows: int
    n_positive: int
    n_missing: int
    observed_rate: float
    mean_predicted: float
    measures: pd.DataFrame
    y: np.ndarray
    p: np.ndarray
    confidence: float
    n_boot: int
    n_not_measured: int = 0
    undirected: tuple = ()


def _check_count(value, name, minimum):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise PSLError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def _labels(model, X, y):
    y = labels01(y)
    if len(y) != len(X):
        raise DataError(f"X and y have different lengths: {len(X)} rows in X, {len(y)} labels in y")
    model._check_probabilities()
    return y


def _measure_table(y, p, n_boot, confidence, seed):
    """Each of :data:`MEASURES` on (y, p): its estimate, percentile bootstrap interval over
    ``n_boot`` resamples of the rows (NaN where no resample gives a finite value) and ideal."""
    estimate = _measures(y, p)
    rng = np.random.default_rng(seed)
    draws = np.array([_measures(y[i], p[i]) for i in rng.integers(0, len(p), (n_boot, len(p)))])
    tail = 100 * (1 - confidence) / 2
    lower, upper = np.full((2, len(MEASURES)), np.nan)
    for j in range(len(MEASURES)):
        finite = draws[np.isfinite(draws[:, j]), j]
        if len(finite) and np.isfinite(estimate[j]):
            lower[j], upper[j] = np.percentile(finite, [tail, 100 - tail])
    return pd.DataFrame(
        {
            "estimate": estimate,
            "lower": lower,
            "upper": upper,
            "ideal": [np.nan if IDEAL[m] is None else IDEAL[m] for m in MEASURES],
        },
        index=pd.Index(MEASURES, name="measure"),
    )


def validation_report(model, X, y, stage=None, n_boot=500, confidence=0.95, seed=0):
    """Judge one stage of a list on a labelled table, with bootstrap intervals.

    Parameters
    ----------
    model : fitted ProbabilisticScoringList
    X : pandas.DataFrame of shape (n, d)
        See :func:`stage_totals`: a missing answer goes where the list learned it goes; rows
        with a missing answer up to ``stage`` that the list learned no direction for are left out.
    y : array-like of 0/1, shape (n,)
        1 = the list's positive class.
    stage : int or None
        Default: the last stage.
    n_boot : int >= 1
        Bootstrap resamples of the rows used.
    confidence : float in (0, 1)
    seed : int

    Returns
    -------
    ValidationReport

    Raises
    ------
    DataError
        No row with all answers up to the stage.
    """
    y = _labels(model, X, y)
    stage = model._stage(stage)
    n_boot = _check_count(n_boot, "n_boot", 1)
    confidence = check_confidence(confidence)
    judged = stage_rows(model, X, stage)
    rows, p = judged.rows, judged.p
    if not rows.any():
        raise DataError(
            f"no row has all answers to the first {stage} questions (or missing ones the list learned "
            "a direction for); judge an earlier stage"
        )
    y_used = y[rows]
    measures = _measure_table(y_used, p, n_boot, confidence, seed)
    return ValidationReport(
        stage=stage,
        n_rows=int(rows.sum()),
        n_positive=int(y_used.sum()),
        n_missing=int((~rows).sum()),
        observed_rate=float(y_used.mean()),
        mean_predicted=float(p.mean()),
        measures=measures,
        y=y_used,
        p=p,
        confidence=confidence,
        n_boot=n_boot,
        n_not_measured=judged.n_not_measured,
        undirected=judged.undirected,
    )


def stagewise_validation(model, X, y):
    """Point estimates of :data:`MEASURES` at every stage, on the rows known up to it.

    Returns
    -------
    pandas.DataFrame indexed by stage with n_rows, n_positive and one column per measure
    (NaN for a stage without rows).
    """
    y = _labels(model, X, y)
    totals, known = stage_totals(model, X)
    rows = []
    for k in range(model.n_stages_):
        used = known[:, k]
        values = (
            _measures(y[used], stage_probabilities(model, totals[used, k], k))
            if used.any() else np.full(len(MEASURES), np.nan)
        )
        rows.append({"stage": k, "n_rows": int(used.sum()), "n_positive": int(y[used].sum()),
                     **dict(zip(MEASURES, values))})
    return pd.DataFrame(rows).set_index("stage")


# ---------------------------------------------------------------------------- recalibration
def recalibratable_stages(model, X, y, min_rows=MIN_RECALIBRATION_ROWS):
    """The longest length of the list every stage of which the table can recalibrate.

    A stage qualifies when at least ``min_rows`` rows answer its questions and both outcomes
    occur among them.

    Returns
    -------
    int in 0..K (0: only the prior can be re-estimated)
    """
    y = _labels(model, X, y)
    min_rows = _check_count(min_rows, "min_rows", 1)
    _, known = stage_totals(model, X)
    length = -1
    for k in range(model.n_stages_):
        used = y[known[:, k]]
        if len(used) < min_rows or used.min() == used.max():
            break
        length = k
    return length


def _check_supported(model, X, y, n_stages, min_rows):
    """A PSLError naming the first of the ``n_stages`` kept stages that this table cannot
    recalibrate (too few answering rows, or one outcome) and how many stages it can."""
    supported = recalibratable_stages(model, X, y, min_rows)
    if supported < n_stages:
        stage = supported + 1
        _, known = stage_totals(model, X, stage)
        used = y[known[:, stage]]
        raise PSLError(
            f"stage {stage} cannot be recalibrated on this table: {len(used)} rows answer its "
            f"questions ({int(used.sum())} positive); it needs at least {min_rows} with both "
            f"outcomes. Keep at most {supported} questions (n_stages={max(supported, 0)})"
            + ("" if supported >= 0 else ", or use a larger table")
        )


def recalibrate(model, X, y, n_stages=None, min_rows=MIN_RECALIBRATION_ROWS, sample_weight=None):
    """The list with its probabilities re-estimated on a new table (same questions, points).

    Stage k is calibrated with the list's own ``calibration`` from the rows that answer its
    first k questions; the counts behind its intervals are those rows'. The list's
    ``prior_strength`` pseudo-cases go to every reachable total at the *original* list's
    probability q(k, T): the original list is the prior and the new site's patients update
    it, so a total with few patients here stays near its old estimate and one with many
    takes the new site's rate (a total without any patient here keeps the old estimate's
    place in the calibration). Pseudo-cases at the new table's overall rate instead, as at
    training, flatten a long list's risks on a small table (``bench/transfer.py``, figures in
    ``bench/README.md``). With ``prior_strength=0`` the new
    probabilities are the new table's alone. The training's internal cross-validation
    (``validation_brier_``, ``recommended_stages_``, ``shrinkage_``) belongs to the old site
    and is dropped; the bedside stop rule's statistics (``stop_statistics_``) are counted
    again on the new site's patients who answer every kept question, with the kept list's
    end as the reference stage (the old ones may refer to stages the new list no longer has).

    Parameters
    ----------
    model : fitted ProbabilisticScoringList
    X : pandas.DataFrame
        See :func:`stage_totals`.
    y : array-like of 0/1, shape (n,)
    n_stages : int or None
        Questions to keep (the first ``n_stages``); default all. Every kept stage must have
        ``min_rows`` answering rows with both outcomes (:func:`recalibratable_stages`).
    min_rows : int >= 1
    sample_weight : array-like of shape (n,) or None
        Row weights > 0 (None: 1 each), as ``fit`` takes them: the probabilities are
        calibrated on weighted counts (with censoring weights,
        :func:`psl_core.survival.training_weights`, the risks within a horizon), the
        intervals' counts are effective ones (:func:`psl_core.calibration.effective_counts`).
        ``min_rows`` counts rows: leave out rows of weight 0.

    Returns
    -------
    ProbabilisticScoringList
        A new fitted list; ``model`` is not changed.

    Raises
    ------
    PSLError
        A kept stage has too few rows or a single outcome at the new site.
    """
    y = _labels(model, X, y)
    weight = None if sample_weight is None else read_sample_weight(sample_weight, X)
    n_stages = len(model.literals_) if n_stages is None else model._stage(n_stages)
    _check_supported(model, X, y, n_stages, min_rows)
    new = _kept_stages(model, n_stages)
    totals, known = stage_totals(model, X, n_stages)
    stages = [_recalibrated_stage(model, k, totals[known[:, k], k], y[known[:, k]],
                                  None if weight is None else weight[known[:, k]]) for k in range(n_stages + 1)]
    (new.stage_totals_, new.stage_probabilities_, new.stage_positives_, new.stage_negatives_,
     new.stage_weighted_positives_, new.stage_weighted_negatives_) = map(list, zip(*stages))
    if weight is None:  # the counts themselves recompute the probabilities (psl_core.recomputed)
        new.stage_weighted_positives_ = new.stage_weighted_negatives_ = None
    complete = known[:, n_stages]
    new.stop_statistics_ = transition_counts(totals[complete], reference_stages(n_stages, None)) if n_stages else None
    return new


def _kept_stages(model, n_stages):
    """A copy of ``model`` with its first ``n_stages`` questions, without the training site's
    internal validation and metadata."""
    new = copy.deepcopy(model)
    new.literals_ = list(model.literals_[:n_stages])
    new.scores_ = list(model.scores_[:n_stages])
    new.stage_criterion_ = np.asarray(model.stage_criterion_)[: n_stages + 1]
    if n_stages < len(model.literals_):
        new.end_reason_ = "length"
    new.validation_brier_ = new.validation_brier_se_ = new.recommended_stages_ = new.shrinkage_ = None
    # The site's counts did not choose the questions: their intervals need no inflation.
    new.recommend_draws_ = new.interval_inflation_ = None
    new.probabilities_checked_ = True  # the new probabilities are this function's own
    new.stage_prior_probabilities_ = [np.asarray(q, dtype=float) for q in model.stage_probabilities_[: n_stages + 1]]
    new.metadata_ = {}
    return new


def _recalibrated_stage(model, k, totals, y, weight):
    """Stage k recalibrated on the rows that answer it: (reachable totals, q, positives,
    negatives, weighted positives, weighted negatives), with the original list's q(k, T) as the
    prior of ``prior_strength`` pseudo-cases (0: none)."""
    reachable = model.stage_totals_[k]
    positives, negatives = stage_counts(totals, y, reachable, weight)
    q = recalibrated_probabilities(
        reachable, positives, negatives, model.calibration, model.prior_strength, model.stage_probabilities_[k],
    )
    weighted = positives, negatives
    if weight is not None:
        positives, negatives = effective_counts(totals, y, reachable, weight)
    return reachable, q, positives.astype(np.int64), negatives.astype(np.int64), *weighted
