"""Can these probabilities be trusted? Calibration and ROC tables of any probabilities.

Numbers only: the measures and tables, no figures.

- A reliability table with the expected calibration error, and the exact split of the
  Brier score into calibration loss and refinement loss over the segments of the ROC curve
  (Flach & Matsubara).
- The ROC curve and its convex hull; the hull's segments carry the isotonic (pool adjacent
  violators) calibration of p (Fawcett & Niculescu-Mizil).
"""

import numbers

import numpy as np
import pandas as pd

from .calibration import isotonic_probabilities
from .errors import DataError, PSLError
from .metrics import checked_probabilities, labels01, score_counts

__all__ = [
    "isotonic_recalibration", "reliability_table", "expected_calibration_error", "brier_decomposition",
    "stagewise_brier_decomposition", "roc_table", "hull_segments"
]


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
    p = checked_probabilities(p, len(y))
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
    y, p : array-like of shape (n,)
        0/1 labels and probabilities in [0, 1].

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
