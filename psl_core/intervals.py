"""Epistemic uncertainty of the stagewise probabilities (paper, Sec. 4.4).

For one stage with reachable totals T_1 < ... < T_m and training counts per total:

1. a Clopper–Pearson interval per total at level 1 - alpha / m (Bonferroni over the m
   reachable totals, so that all m hold simultaneously with probability >= 1 - alpha);
   a total without any case gets the vacuous interval [0, 1];
2. monotone envelopes (eqs. 10–11): l*_T = max over V <= T of l_V and
   u*_T = min over V >= T of u_V, so a total without cases takes its bounds from its
   neighbours;
3. widened to cover the point estimate (eqs. 12–13): l** = min(l*, q), u** = max(u*, q).
"""

import numpy as np
from scipy.stats import beta as beta_dist

from .errors import PSLError


def check_confidence(confidence):
    """Validate a confidence level in (0, 1) and return it as float."""
    try:
        value = float(confidence)
    except (TypeError, ValueError):
        raise PSLError(f"confidence must be a number in (0, 1), got {confidence!r}") from None
    if not 0.0 < value < 1.0:
        raise PSLError(f"confidence must lie strictly between 0 and 1, got {confidence!r}")
    return value


def clopper_pearson(positives, negatives, alpha):
    """Two-sided Clopper–Pearson interval per cell at level 1 - alpha.

    Parameters
    ----------
    positives, negatives : array-like of shape (m,)
        Counts; a cell with no case gets [0, 1].
    alpha : float

    Returns
    -------
    lower, upper : ndarrays of shape (m,)
    """
    k = np.asarray(positives, dtype=float)
    n = k + np.asarray(negatives, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        lower = np.where(k > 0, beta_dist.ppf(alpha / 2, k, n - k + 1), 0.0)
        upper = np.where(k < n, beta_dist.ppf(1 - alpha / 2, k + 1, n - k), 1.0)
    return np.nan_to_num(lower, nan=0.0), np.nan_to_num(upper, nan=1.0)


def clopper_pearson_band(positives, negatives, probabilities, confidence=0.95):
    """Simultaneous, monotone interval per reachable total of one stage (eqs. 10–13).

    Parameters
    ----------
    positives, negatives : array-like of shape (m,)
        Training counts per reachable total, in increasing order of the total.
    probabilities : array-like of shape (m,)
        The stage's calibrated point estimates q(k, T) (non-decreasing).
    confidence : float in (0, 1)
        Simultaneous confidence level over the m totals.

    Returns
    -------
    lower, upper : ndarrays of shape (m,)
        Non-decreasing bounds with lower <= probabilities <= upper.
    """
    confidence = check_confidence(confidence)
    q = np.asarray(probabilities, dtype=float)
    alpha = (1.0 - confidence) / len(q)
    lower, upper = clopper_pearson(positives, negatives, alpha)
    lower = np.maximum.accumulate(lower)
    upper = np.minimum.accumulate(upper[::-1])[::-1]
    return np.minimum(lower, q), np.maximum(upper, q)
