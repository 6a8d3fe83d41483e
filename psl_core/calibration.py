"""Calibration of total scores into probabilities (paper, Sec. 4.2).

Both calibrators work on *aggregated counts*: for each total score T (a slot of a
dense array indexed by ``T - offset``) the number of positive and negative training
cases with that total. A stage never has more than a few hundred distinct totals, so
calibrating a candidate costs a pass over a short array instead of a refit of a
scikit-learn estimator on every row.

- Isotonic calibration: pool adjacent violators (PAV) over the totals in increasing
  order, weighted by their counts. The fitted probability of a total is the empirical
  rate of its pooled block; this equals the empirical rates on the ROC convex hull.
- Sigmoid calibration (an option beyond the paper): ``logit q = a tau + c`` with a >= 0,
  the logistic link of risk scores such as FasterRisk's, fitted the same way.
- Beta calibration (eq. 9): ``logit q = a ln(tau) - b ln(1 - tau) + c`` with a, b >= 0,
  which makes q non-decreasing in tau; tau is the linear map of T in the reachable range
  [lo, hi] into (0, 1) given by :func:`tau_of_total`. Fitted by (weighted) log-loss with
  Newton's method; the non-negativity constraints are handled exactly by fitting every
  face of the constraint set and keeping the best feasible one.

The compiled loops are in :mod:`psl_core.kernels` (the search calls them for thousands of
candidates per stage); this module is their Python-level interface.
"""

import numpy as np

from .calibration_kernels import BETA, ISOTONIC, SIGMOID, _beta_eval, _beta_fit, _calibrate_dense, _shrunk

__all__ = [
    "CALIBRATION_CODES", "tau_of_total", "NO_SHRINK", "calibrated_probabilities", "isotonic_probabilities",
    "beta_probabilities", "reachable_totals", "base_rate", "calibrate_stage", "recalibrated_probabilities", "effective_counts",
    "stage_counts"
]

CALIBRATION_CODES = {"isotonic": ISOTONIC, "beta": BETA, "sigmoid": SIGMOID}


def tau_of_total(total, lo, hi):
    """Map totals in the reachable range [lo, hi] linearly into the open interval (0, 1).

    ``tau = (T - lo + 1) / (hi - lo + 2)``, so the smallest reachable total maps to
    ``1 / (hi - lo + 2)`` and the largest to ``1 - 1 / (hi - lo + 2)``.
    """
    return (np.asarray(total, dtype=float) - lo + 1.0) / (hi - lo + 2.0)


NO_SHRINK = np.zeros(2)


def calibrated_probabilities(totals, positives, negatives, method="isotonic", lo=None, hi=None, shrink=NO_SHRINK):
    """Calibrated probability at every given total from counts per total.

    Parameters
    ----------
    totals : array-like of int, shape (m,)
        Distinct totals in increasing order (for example the reachable set of a stage).
    positives, negatives : array-like, shape (m,)
        Training counts per total; totals without any case may have 0 and 0.
    method : {"isotonic", "beta", "sigmoid"}
    lo, hi : int, optional
        Smallest and largest reachable totals, which beta and sigmoid calibration map
        into (0, 1) (:func:`tau_of_total`); by default the first and last total.
    shrink : (strength, rate), optional
        Pseudo-counts toward a prior rate (see :func:`psl_core.calibration_kernels._shrunk`).

    Returns
    -------
    ndarray of shape (m,)
        Non-decreasing probabilities. With isotonic calibration, totals without cases are
        linearly interpolated between the nearest totals with cases and held constant
        beyond the outermost ones (as scikit-learn's
        ``IsotonicRegression(out_of_bounds="clip")`` predicts).
    """
    totals = np.asarray(totals)
    if not np.issubdtype(totals.dtype, np.integer) and not np.all(np.mod(totals, 1) == 0):
        raise ValueError("calibrated_probabilities needs integer totals (scores); pass ranks for other values")
    if np.any(np.diff(totals) <= 0):
        raise ValueError("calibrated_probabilities needs distinct totals in increasing order")
    pos = np.asarray(positives, dtype=float)
    neg = np.asarray(negatives, dtype=float)
    if not (pos + neg > 0).any():
        raise ValueError("calibrated_probabilities needs at least one total with cases")
    lo = int(totals[0]) if lo is None else int(lo)
    hi = int(totals[-1]) if hi is None else int(hi)
    slots = (totals - lo).astype(np.int64)
    dense_pos = np.zeros(hi - lo + 1)
    dense_neg = np.zeros(hi - lo + 1)
    dense_pos[slots], dense_neg[slots] = pos, neg
    fitted = np.empty(len(dense_pos))
    _calibrate_dense(
        dense_pos, dense_neg, CALIBRATION_CODES[method], 0, hi - lo, np.asarray(shrink, dtype=float), fitted,
    )
    return fitted[slots]


def isotonic_probabilities(totals, positives, negatives, shrink=NO_SHRINK):
    """:func:`calibrated_probabilities` with isotonic calibration."""
    return calibrated_probabilities(totals, positives, negatives, "isotonic", shrink=shrink)


def beta_probabilities(totals, positives, negatives, lo, hi, shrink=NO_SHRINK):
    """Beta calibration (eq. 9) of counts per total, evaluated at every given total.

    Parameters
    ----------
    totals : array-like of int, shape (m,)
    positives, negatives : array-like, shape (m,)
    lo, hi : int
        Smallest and largest reachable totals; ``tau = tau_of_total(T, lo, hi)``.
    shrink : (strength, rate), optional
        Pseudo-counts toward a prior rate (see :func:`_shrunk`); none by default.

    Returns
    -------
    probabilities : ndarray of shape (m,)
    params : tuple (a, b, c)
    """
    tau = tau_of_total(totals, lo, hi)
    pos, neg = _shrunk(
        np.asarray(positives, dtype=float), np.asarray(negatives, dtype=float),
        np.asarray(shrink, dtype=float),
    )
    a, b, c = _beta_fit(tau, pos, neg)
    out = np.empty(len(tau))
    _beta_eval(tau, a, b, c, out)
    return out, (a, b, c)


def reachable_totals(scores):
    """Sigma_k of eq. 5: every total reachable with the given stage scores, sorted.

    Parameters
    ----------
    scores : sequence of int
        Scores of stages 1..k.

    Returns
    -------
    ndarray of int, shape (|Sigma_k|,)
    """
    reachable = {0}
    for s in scores:
        reachable |= {t + int(s) for t in reachable}
    return np.array(sorted(reachable), dtype=np.int64)


def base_rate(positives, negatives):
    """The rate of positives over all totals of a stage's (weighted) counts: where a fitted
    list's ``prior_strength`` pseudo-cases go (stage 0's, which counts every row)."""
    positive = float(np.sum(positives))
    return positive / (positive + float(np.sum(negatives)))


def calibrate_stage(row_totals, y, reachable, method, shrink=NO_SHRINK, sample_weight=None):
    """Counts and calibrated probability of every reachable total of one stage.

    Parameters
    ----------
    row_totals : ndarray of int, shape (n,)
        Totals of the calibration rows at this stage.
    y : ndarray of 0/1, shape (n,)
    reachable : ndarray of int, shape (m,)
        Sigma_k, sorted.
    method : {"isotonic", "beta", "sigmoid"}
    shrink : (strength, rate), optional
        Pseudo-counts toward a prior rate (see :func:`psl_core.calibration_kernels._shrunk`).
    sample_weight : ndarray of shape (n,) or None
        Row weights (None: 1 each). The probabilities are calibrated on the weighted
        counts; the counts returned are effective ones (:func:`effective_counts`).

    Returns
    -------
    probabilities, positives, negatives : ndarrays of shape (m,)
        The counts are the raw ones (the intervals use them), not the shrunk ones.
    weighted : (positives, negatives) of float ndarrays, or None
        With ``sample_weight``: the weighted counts the probabilities were calibrated on
        (a model file keeps them, so its probabilities can be recomputed on load).
    """
    positives, negatives = stage_counts(row_totals, y, reachable, sample_weight)
    probabilities = calibrated_probabilities(reachable, positives, negatives, method, shrink=shrink)
    weighted = None
    if sample_weight is not None:
        weighted = positives, negatives
        positives, negatives = effective_counts(row_totals, y, reachable, sample_weight)
    return probabilities, positives.astype(np.int64), negatives.astype(np.int64), weighted


def recalibrated_probabilities(totals, positives, negatives, method, strength, prior):
    """Probabilities of one stage re-estimated from new counts with an earlier list's as prior.

    Every total gets ``strength`` pseudo-cases at the earlier probability ``prior`` of that
    total (:func:`psl_core.validation.recalibrate`): a total with few new cases stays near
    its old estimate, one with many takes the new rate.

    Parameters
    ----------
    totals : array-like of int, shape (m,)
    positives, negatives : array-like of float, shape (m,)
        The new counts per total (weighted ones when the rows have weights).
    method : {"isotonic", "beta", "sigmoid"}
    strength : float >= 0
    prior : array-like of float, shape (m,)

    Returns
    -------
    ndarray of shape (m,)
    """
    prior = np.asarray(prior, dtype=float)
    return calibrated_probabilities(
        totals, np.asarray(positives, dtype=float) + strength * prior,
        np.asarray(negatives, dtype=float) + strength * (1 - prior), method,
    )


def effective_counts(row_totals, y, reachable, sample_weight):
    """Integer class counts per total that carry the information of weighted rows.

    Per total: Kish's effective sample size n_eff = (sum w)^2 / sum w^2, floored, split
    by the weighted rate of positives (rounded). With unit weights these are the row
    counts. Clopper-Pearson intervals of these counts are the "effective-n" intervals
    of a weighted rate (the intervals of a list learned with inverse-probability-of-
    censoring weights, :mod:`psl_core.survival`, whose coverage
    ``tests/core/test_survival.py`` simulates).

    Returns
    -------
    positives, negatives : ndarrays of int, shape (m,)
    """
    weight = np.asarray(sample_weight, dtype=float)
    index = np.searchsorted(reachable, row_totals)
    total = np.bincount(index, weights=weight, minlength=len(reachable))
    squares = np.bincount(index, weights=weight**2, minlength=len(reachable))
    positive = np.bincount(index, weights=weight * y, minlength=len(reachable))
    has = squares > 0
    n_eff = np.floor(np.divide(total**2, squares, out=np.zeros_like(total), where=has) + 1e-9)
    rate = np.divide(positive, total, out=np.zeros_like(total), where=has)
    positives = np.rint(rate * n_eff)
    return positives.astype(np.int64), (n_eff - positives).astype(np.int64)


def stage_counts(row_totals, y, reachable, sample_weight=None):
    """Positive and negative rows (or their weights) per reachable total of one stage.

    Parameters
    ----------
    row_totals : ndarray of int, shape (n,)
    y : ndarray of 0/1, shape (n,)
    reachable : ndarray of int, shape (m,)
        Sigma_k, sorted; every row's total is one of them.
    sample_weight : ndarray of shape (n,) or None
        Row weights (None: each row counts 1).

    Returns
    -------
    positives, negatives : ndarrays of float, shape (m,)
    """
    index = np.searchsorted(reachable, row_totals)
    weight = np.ones(len(index)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    positives = np.bincount(index, weights=weight * y, minlength=len(reachable))
    return positives, np.bincount(index, weights=weight, minlength=len(reachable)) - positives
