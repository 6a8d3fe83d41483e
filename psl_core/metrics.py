"""Stagewise evaluation of a list (the paper's Sec. 5 measures).

Expected entropy (eq. 7, in bits), Brier score, AUC and expected loss with cost ratio M
of the estimates at every stage 0..K, on any labelled data.
"""

import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score

from .cost_ratio import DEFAULT_COST_RATIO


def binary_entropy(p):
    """H(p) in bits, elementwise, with H(0) = H(1) = 0."""
    p = np.asarray(p, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -(p * np.log2(p) + (1 - p) * np.log2(1 - p))
    return np.where((p <= 0) | (p >= 1), 0.0, h)


def auc(y, p, sample_weight=None):
    """ROC AUC with ties counted one half; 0.5 when y has a single class. With censoring
    weights (:mod:`psl_core.survival`) it is the time-dependent AUC at the horizon: the
    controls' weights are all equal and cancel."""
    y = np.asarray(y)
    if y.min() == y.max():
        return 0.5
    return float(roc_auc_score(y, p, sample_weight=sample_weight))


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
    w = np.ones(len(y01)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    intervals = model.stagewise_intervals(X, confidence)
    rows = []
    for k in range(model.n_stages_):
        interval = intervals[:, k]
        p = interval[:, 1]
        rows.append(
            {
                "stage": k,
                "expected_entropy": float(np.average(binary_entropy(p), weights=w)),
                "brier": float(np.average((p - y01) ** 2, weights=w)),
                "auc": auc(y01, p, sample_weight),
                "expected_loss": float(np.average(_realized_loss(interval[:, 2], y01, cost_ratio), weights=w)),
            }
        )
    return pd.DataFrame(rows).set_index("stage")


def _realized_loss(p_decide, y01, cost_ratio):
    """Loss of deciding on p_decide: M for a missed positive, 1 for a false alarm."""
    positive = p_decide > 1.0 / (1.0 + cost_ratio)
    return np.where(positive, 1 - y01, cost_ratio * y01).astype(float)
