"""The measures of probabilities on labelled data, each computed here once (paper, Sec. 5).

Expected entropy (eq. 7, in bits), Brier score, AUC (ties counted one half) and the
realized loss of the cost-optimal decisions with cost ratio M (M per missed case, 1 per
false alarm, deciding positive above :func:`psl_core.cost_ratio.decision_threshold`);
:func:`stage_measures` gives all four of one set of estimates, which
:func:`stagewise_metrics` (a fitted list on any data) and
:func:`psl_core.evaluation.monte_carlo_cv` (every split) report. Each measure has a code
(``"brier"``, ...) and one label, :data:`MEASURE_LABELS`.
"""

import numpy as np
import pandas as pd

from .cost_ratio import DEFAULT_COST_RATIO, decision_threshold
from .errors import DataError

__all__ = [
    "MEASURES", "MEASURE_LABELS", "labels01", "checked_probabilities", "score_counts", "count_scores",
    "binary_entropy", "auc_from_counts", "auc", "decision_loss", "stage_measures", "stagewise_metrics"
]

MEASURES = ("expected_entropy", "brier", "auc", "expected_loss")
"""The paper's stagewise measures, in the order :func:`stage_measures` returns them."""

MEASURE_RANGES = {"expected_entropy": (0.0, 1.0), "brier": (0.0, 1.0), "auc": (0.0, 1.0), "expected_loss": (0.0, np.inf)}
"""The values each of :data:`MEASURES` can take (entropy of a yes/no outcome in bits; a loss is
M per missed case, 1 per false alarm, per patient): a recorded value outside is no measurement."""

MEASURE_LABELS = {
    "expected_entropy": "Expected entropy (bits)",
    "brier": "Brier score",
    "auc": "AUC",
    "expected_loss": "Expected loss (M per missed case, 1 per false alarm)",
    "observed_minus_expected": "Observed − expected rate",
    "citl": "Calibration-in-the-large (intercept)",
    "slope": "Calibration slope",
}
"""Every measure's code and its label, once (the validation measures of
:mod:`psl_core.validation` included)."""


# ---------------------------------------------------------------------------- inputs
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


def checked_probabilities(p, n):
    """p as floats, one probability in [0, 1] per label (``n`` of them), checked."""
    p = np.asarray(p, dtype=float)
    if p.shape != (n,):
        raise DataError(f"p must have one probability per label: shape ({n},), got {p.shape}")
    if not np.all((p >= 0) & (p <= 1)):
        raise DataError("p must hold probabilities in [0, 1] (no missing values)")
    return p


# ---------------------------------------------------------------------------- counts per score
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
    return count_scores(y, checked_probabilities(p, len(y)))


def count_scores(y01, p, weight=None):
    """:func:`score_counts` without checking its input (inner loops); with ``weight`` the
    counts are sums of row weights (floats)."""
    scores, index = np.unique(p, return_inverse=True)
    if weight is None:
        positives = np.bincount(index, weights=y01, minlength=len(scores)).astype(np.int64)
        negatives = np.bincount(index, minlength=len(scores)) - positives
    else:
        positives = np.bincount(index, weights=y01 * weight, minlength=len(scores))
        negatives = np.bincount(index, weights=(1 - y01) * weight, minlength=len(scores))
    return scores, positives, negatives, index


# ---------------------------------------------------------------------------- the measures
def binary_entropy(p):
    """H(p) in bits, elementwise, with H(0) = H(1) = 0."""
    p = np.asarray(p, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -(p * np.log2(p) + (1 - p) * np.log2(1 - p))
    return np.where((p <= 0) | (p >= 1), 0.0, h)


def auc_from_counts(positives, negatives):
    """Mann–Whitney AUC from counts per increasing score, ties counted one half; 0.5 when
    a class is absent."""
    n_pos, n_neg = positives.sum(), negatives.sum()
    if n_pos == 0 or n_neg == 0:
        return 0.5
    negatives_below = np.cumsum(negatives) - negatives
    return float(np.sum(positives * (negatives_below + 0.5 * negatives)) / (n_pos * n_neg))


def auc(y, p, sample_weight=None):
    """ROC AUC with ties counted one half; 0.5 when y has a single class. With censoring
    weights (:mod:`psl_core.survival`) it is the time-dependent AUC at the horizon: the
    controls' weights are all equal and cancel.

    Parameters
    ----------
    y : array-like of 0/1, shape (n,)
    p : array-like of float, shape (n,)
        Scores (probabilities, or any finite number that orders the cases).
    sample_weight : array-like of float >= 0, shape (n,), or None
    """
    y01 = labels01(y).astype(float)
    p = np.asarray(p, dtype=float)
    weight = None if sample_weight is None else np.asarray(sample_weight, dtype=float)
    if p.shape != y01.shape or (weight is not None and weight.shape != y01.shape):
        raise DataError(
            f"y, p and sample_weight must hold one value per case: shapes {y01.shape}, {p.shape}"
            + ("" if weight is None else f", {weight.shape}")
        )
    if not np.all(np.isfinite(p)):
        raise DataError("p must hold a finite score for every case (no missing values)")
    _, positives, negatives, _ = count_scores(y01, p, weight)
    return auc_from_counts(positives, negatives)


def decision_loss(positive, y01, cost_ratio):
    """The realized loss of decisions: M for a missed positive, 1 for a false alarm, 0 for
    a right decision (elementwise)."""
    return np.where(positive, 1 - y01, cost_ratio * y01).astype(float)


def stage_measures(y01, p, p_decide, cost_ratio=DEFAULT_COST_RATIO, weight=None):
    """The four measures of :data:`MEASURES` of one set of estimates.

    Parameters
    ----------
    y01 : ndarray of 0/1, shape (n,)
    p : ndarray of float in [0, 1], shape (n,)
        The estimates: entropy, Brier score and AUC are theirs.
    p_decide : ndarray of shape (n,)
        What the decision reads (the estimate, or the risk-averse upper bound of its
        interval): positive above 1 / (1 + M).
    cost_ratio : float
        M.
    weight : ndarray of shape (n,) or None
        Row weights of every mean (None: 1 each).

    Returns
    -------
    tuple of float
        expected_entropy, brier, auc, expected_loss.
    """
    _, positives, negatives, _ = count_scores(y01, p, weight)
    positive = p_decide > decision_threshold(cost_ratio)
    return (
        float(np.average(binary_entropy(p), weights=weight)),
        float(np.average((p - y01) ** 2, weights=weight)),
        auc_from_counts(positives, negatives),
        float(np.average(decision_loss(positive, y01, cost_ratio), weights=weight)),
    )


def stagewise_metrics(model, X, y, cost_ratio=DEFAULT_COST_RATIO, confidence=0.95, sample_weight=None):
    """Measures of every stage of a fitted list on labelled data.

    Parameters
    ----------
    model : fitted ProbabilisticScoringList
    X : DataFrame or array of shape (n, n_features)
    y : array-like of shape (n,)
        Labels as in ``model.classes_``.
    cost_ratio : float
        M for the expected loss: the mean loss of deciding positive where the
        interval's upper bound exceeds 1 / (1 + M) (risk-averse, as in the paper's
        Fig. 8), M per missed positive and 1 per false alarm.
    confidence : float
    sample_weight : array-like of shape (n,) or None
        Row weights of every mean (None: 1 each). With the censoring weights of a
        time-to-event list (:func:`psl_core.survival.ipcw_targets`) the measures are those
        at its horizon (the Brier score normalized by the weights' sum).

    Returns
    -------
    pandas.DataFrame indexed by stage with columns expected_entropy, brier, auc,
    expected_loss.
    """
    y01 = (np.asarray(y) == model.classes_[1]).astype(int)
    weight = None if sample_weight is None else np.asarray(sample_weight, dtype=float)
    intervals = model.stagewise_intervals(X, confidence)
    rows = [
        dict(zip(MEASURES, stage_measures(y01, intervals[:, k, 1], intervals[:, k, 2], cost_ratio, weight)), stage=k)
        for k in range(model.n_stages_)
    ]
    return pd.DataFrame(rows).set_index("stage")[list(MEASURES)]
