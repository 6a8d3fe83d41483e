"""Epistemic uncertainty of the stagewise probabilities (paper, Sec. 4.4).

For one stage with reachable totals T_1 < ... < T_m and training counts per total:

1. a Clopper–Pearson interval per total, with a per-total level that makes all of them
   hold simultaneously with probability >= 1 - alpha:

   - ``"bonferroni"`` (the paper): 1 - alpha / m over the m reachable totals;
   - ``"sidak"``: 1 - (1 - (1 - alpha)^(1 / m_obs)) over the m_obs totals that have
     training cases. A total without cases gets the vacuous interval [0, 1], which
     always covers, so it needs no share of alpha; and given the cases' features the
     counts of different totals are independent binomials, so Šidák's product bound
     is exact. It is never wider than Bonferroni and much narrower at late stages,
     where many reachable totals have no case (coverage checked by simulation in the
     tests);

   a total without any case gets the vacuous interval [0, 1];
2. monotone envelopes (eqs. 10–11): l*_T = max over V <= T of l_V and
   u*_T = min over V >= T of u_V, so a total without cases takes its bounds from its
   neighbours;
3. widened to cover the point estimate (eqs. 12–13): l** = min(l*, q), u** = max(u*, q).

A list whose probabilities were pulled toward the base rate (``shrinkage``, the estimate
q' = (1 − s) q(0) + s q) gets its interval from that same estimate: the mix of the prior's
interval and the stage's, [(1 − s) l(0) + s l*, (1 − s) u(0) + s u*] (:func:`shrunk_band`),
which holds q' whenever both hold theirs. Widening the stage's interval only to cover the
shrunk point would leave the point at one edge of an interval that was never shrunk.
"""

import numpy as np
from scipy.special import betaincinv

from .errors import PSLError

__all__ = ["check_confidence", "clopper_pearson", "CORRECTIONS", "clopper_pearson_band", "shrunk_band"]


def check_confidence(confidence, name="confidence"):
    """Validate a number strictly between 0 and 1 (a confidence level, or the parameter
    ``name``) and return it as float."""
    try:
        value = float(confidence)
    except (TypeError, ValueError):
        raise PSLError(f"{name} must be a number strictly between 0 and 1, got {confidence!r}") from None
    if not 0.0 < value < 1.0:
        raise PSLError(f"{name} must lie strictly between 0 and 1, got {value:g}")
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
        # The Beta quantiles; scipy.stats.beta.ppf calls this function after checks that
        # cost four times the arithmetic here (same values, bit for bit).
        lower = np.where(k > 0, betaincinv(k, n - k + 1, alpha / 2), 0.0)
        upper = np.where(k < n, betaincinv(k + 1, n - k, 1 - alpha / 2), 1.0)
    return np.nan_to_num(lower, nan=0.0), np.nan_to_num(upper, nan=1.0)


CORRECTIONS = ("bonferroni", "sidak")


def clopper_pearson_band(positives, negatives, probabilities, confidence=0.95, correction="bonferroni", prior=None):
    """Simultaneous, monotone interval per reachable total of one stage (eqs. 10–13).

    Parameters
    ----------
    positives, negatives : array-like of shape (m,)
        Training counts per reachable total, in increasing order of the total.
    probabilities : array-like of shape (m,)
        The stage's calibrated point estimates q(k, T) (non-decreasing).
    confidence : float in (0, 1), or array of shape (L,)
        Simultaneous confidence level over the m totals; several levels at once give
        one band per level.
    correction : {"bonferroni", "sidak"}
        How the level is shared among the totals (see the module docstring).
    prior : tuple (factor, prior_lower, prior_upper) or None
        For probabilities shrunk toward the base rate by ``factor`` s in [0, 1]: the prior's
        (stage 0's) bounds at the same levels; the band becomes (1 − s) prior + s band
        before it is widened to cover the probabilities (see the module docstring).

    Returns
    -------
    lower, upper : ndarrays of shape (m,), or (L, m) for several levels
        Non-decreasing bounds with lower <= probabilities <= upper.
    """
    levels = np.atleast_1d(np.asarray([check_confidence(c) for c in np.ravel(confidence)]))
    if correction not in CORRECTIONS:
        raise PSLError(f"correction must be one of {list(CORRECTIONS)}, got {correction!r}")
    q = np.asarray(probabilities, dtype=float)
    pos = np.asarray(positives, dtype=float)
    neg = np.asarray(negatives, dtype=float)
    if correction == "bonferroni":
        alpha = (1.0 - levels[:, None]) / len(q)
    else:
        observed = max(int(np.sum(pos + neg > 0)), 1)
        alpha = 1.0 - levels[:, None] ** (1.0 / observed)
    lower, upper = clopper_pearson(pos, neg, alpha)
    lower = np.maximum.accumulate(lower, axis=1)
    upper = np.minimum.accumulate(upper[:, ::-1], axis=1)[:, ::-1]
    if prior is not None:
        lower, upper = shrunk_band(lower, upper, *prior)
    lower, upper = np.minimum(lower, q), np.maximum(upper, q)
    if np.ndim(confidence) == 0:
        return lower[0], upper[0]
    return lower, upper


def shrunk_band(lower, upper, factor, prior_lower, prior_upper):
    """The band of an estimate shrunk toward the base rate: (1 − s) prior band + s band.

    Parameters
    ----------
    lower, upper : ndarrays of shape (m,) or (L, m)
        The stage's monotone bounds before widening to the point (eqs. 10–11).
    factor : float in [0, 1]
        The shrinkage factor s of the stage.
    prior_lower, prior_upper : float or ndarray of shape (L, 1)
        The prior's (stage 0's) bounds at the same levels.

    Returns
    -------
    lower, upper : ndarrays of the shape of ``lower``
        Still non-decreasing in the total (a constant plus a non-negative multiple of a
        non-decreasing band).
    """
    s = float(factor)
    return (1 - s) * np.asarray(prior_lower) + s * lower, (1 - s) * np.asarray(prior_upper) + s * upper
