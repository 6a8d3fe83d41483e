"""Epistemic uncertainty of the stagewise probabilities (paper, Sec. 4.4).

For one stage with reachable totals T_1 < ... < T_m and training counts per total:

1. a Clopper–Pearson interval per total from its counts divided by the stage's inflation
   phi_k >= 1 (below), with a per-total level that would make all of them hold at once
   with probability >= 1 - alpha for counts fixed before the data (the promise below is
   per total; the share is its margin):

   - ``"bonferroni"`` (the paper): 1 - alpha / m over the m reachable totals;
   - ``"sidak"``: 1 - (1 - (1 - alpha)^(1 / m_obs)) over the m_obs totals that have
     training cases. A total without cases gets the vacuous interval [0, 1], which
     always covers, so it needs no share of alpha; for a list fixed before the data the
     counts of different totals are independent binomials given the cases' features, so
     Šidák's product bound is exact (not so for a list searched on them). It is never
     wider than Bonferroni and much narrower at late stages, where many reachable totals
     have no case;

   a total without any case gets the vacuous interval [0, 1];
2. monotone envelopes (eqs. 10–11): l*_T = max over V <= T of l_V and
   u*_T = min over V >= T of u_V, so a total without cases takes its bounds from its
   neighbours;
3. widened to cover the point estimate (eqs. 12–13): l** = min(l*, q), u** = max(u*, q).

What the interval promises (measured by ``bench/interval_coverage.py``, figures in
``bench/README.md``, section 17): for a list fitted with ``recommend_folds``, at every stage,
each total's interval holds, with probability at least the stated level, the risk of the
patients of the training population that the list gives that total (the rate among many
new patients like the training ones with that total). It is a promise per total, not for
all the totals of a stage at once: measured, all of a stage's intervals held together in
95 % of the recommended and the last stages, but in as few as 85 % on the least covered
table and training size, so the simultaneous claim of the paper's Sec. 4.4 is not made
(98 % of single totals were held). The questions were chosen on the same rows that give the counts: a
total that looks extreme there is less extreme in new patients. The internal folds
measure by how much: each fold list's training rate per total is compared with the rate
of its held-out rows with that total, and the excess over the binomial noise of both gives
the stage's inflation phi_k >= 1 (:func:`psl_core.recommend.interval_inflation`); the
intervals are then counted from the counts divided by phi_k (as if from 1/phi_k as many
rows). phi_k is itself estimated from a few dozen totals of five fold lists, so the level
is still shared among the stage's totals (step 1): that share is the margin that keeps the
promise per total where phi_k falls short: at each total's own level the intervals were a
quarter narrower and held 92 % of the totals, as few as 84 % on one table and size. A list without internal
folds (phi = 1) has the paper's interval, which holds for a list fixed before the data and
is too narrow for a searched one.

A list whose probabilities were pulled toward the base rate (``shrinkage``) keeps the
interval of the patients' risk, widened to hold the shrunk point (step 3): the interval is
of the risk, not of the shrunk estimate.
"""

import numpy as np
from scipy.special import betaincinv

from .errors import PSLError

__all__ = ["check_confidence", "clopper_pearson", "CORRECTIONS", "clopper_pearson_band"]


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


def clopper_pearson_band(positives, negatives, probabilities, confidence=0.95, correction="bonferroni", inflation=1.0):
    """Monotone interval per reachable total of one stage (eqs. 10–13), its level shared among the totals.

    Parameters
    ----------
    positives, negatives : array-like of shape (m,)
        Training counts per reachable total, in increasing order of the total.
    probabilities : array-like of shape (m,)
        The stage's calibrated point estimates q(k, T) (non-decreasing).
    confidence : float in (0, 1), or array of shape (L,)
        Confidence level shared over the m totals (see ``correction``); several levels
        at once give one band per level.
    correction : {"bonferroni", "sidak"}
        How the level is shared among the totals (see the module docstring).
    inflation : float >= 1, default=1.0
        The stage's variance inflation phi: the intervals are counted from positives / phi
        and negatives / phi (see the module docstring); 1 is the counts as they are.

    Returns
    -------
    lower, upper : ndarrays of shape (m,), or (L, m) for several levels
        Non-decreasing bounds with lower <= probabilities <= upper.
    """
    levels = np.atleast_1d(np.asarray([check_confidence(c) for c in np.ravel(confidence)]))
    if correction not in CORRECTIONS:
        raise PSLError(f"correction must be one of {list(CORRECTIONS)}, got {correction!r}")
    q = np.asarray(probabilities, dtype=float)
    if not inflation >= 1.0:
        raise PSLError(f"inflation must be a number >= 1, got {inflation!r}")
    pos = np.asarray(positives, dtype=float) / inflation
    neg = np.asarray(negatives, dtype=float) / inflation
    if correction == "bonferroni":
        alpha = (1.0 - levels[:, None]) / len(q)
    else:
        observed = max(int(np.sum(pos + neg > 0)), 1)
        alpha = 1.0 - levels[:, None] ** (1.0 / observed)
    lower, upper = clopper_pearson(pos, neg, alpha)
    lower = np.maximum.accumulate(lower, axis=1)
    upper = np.minimum.accumulate(upper[:, ::-1], axis=1)[:, ::-1]
    lower, upper = np.minimum(lower, q), np.maximum(upper, q)
    if np.ndim(confidence) == 0:
        return lower[0], upper[0]
    return lower, upper
