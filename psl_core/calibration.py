"""Calibration of total scores into probabilities (paper, Sec. 4.2).

Both calibrators work on *aggregated counts*: for each total score T (a slot of a
dense array indexed by ``T - offset``) the number of positive and negative training
cases with that total. A stage never has more than a few hundred distinct totals, so
calibrating a candidate costs a pass over a short array instead of a refit of a
scikit-learn estimator on every row.

- Isotonic calibration: pool adjacent violators (PAV) over the totals in increasing
  order, weighted by their counts. The fitted probability of a total is the empirical
  rate of its pooled block; this equals the empirical rates on the ROC convex hull.
- Beta calibration (eq. 9): ``logit q = a ln(tau) - b ln(1 - tau) + c`` with a, b >= 0,
  which makes q non-decreasing in tau; tau is the linear map of T in the reachable range
  [lo, hi] into (0, 1) given by :func:`tau_of_total`. Fitted by (weighted) log-loss with
  Newton's method; the non-negativity constraints are handled exactly by fitting every
  face of the constraint set and keeping the best feasible one.

The kernels are compiled with numba because the search calls them for thousands of
candidates per stage.
"""

import numpy as np
from numba import njit

ISOTONIC = 0
BETA = 1
CALIBRATION_CODES = {"isotonic": ISOTONIC, "beta": BETA}

# Small ridge on the beta slopes: keeps the Newton steps finite when a stage separates
# the classes perfectly (the unpenalized maximum-likelihood estimate is then infinite).
_BETA_RIDGE = 1e-6


def tau_of_total(total, lo, hi):
    """Map totals in the reachable range [lo, hi] linearly into the open interval (0, 1).

    ``tau = (T - lo + 1) / (hi - lo + 2)``, so the smallest reachable total maps to
    ``1 / (hi - lo + 2)`` and the largest to ``1 - 1 / (hi - lo + 2)``.
    """
    return (np.asarray(total, dtype=float) - lo + 1.0) / (hi - lo + 2.0)


@njit(cache=True)
def _isotonic_dense(pos, neg, out):
    """Pool adjacent violators over a dense array of counts.

    Parameters
    ----------
    pos, neg : ndarray of shape (R,)
        Positive and negative counts per total, in increasing order of the total.
    out : ndarray of shape (R,)
        Receives the fitted probability of every slot; an empty slot (no case) gets the
        rate of the block on its left (or on its right before the first case), which
        the callers never weight.
    """
    size = pos.shape[0]
    block_pos = np.empty(size)
    block_w = np.empty(size)
    block_start = np.empty(size, dtype=np.int64)
    n_blocks = 0
    for i in range(size):
        w = pos[i] + neg[i]
        if w <= 0.0:
            continue
        block_pos[n_blocks] = pos[i]
        block_w[n_blocks] = w
        block_start[n_blocks] = i
        n_blocks += 1
        # Merge while the previous block's rate is at least the last one's (ties are
        # pooled too, so blocks end up with strictly increasing rates).
        while n_blocks > 1 and (
            block_pos[n_blocks - 2] * block_w[n_blocks - 1]
            >= block_pos[n_blocks - 1] * block_w[n_blocks - 2]
        ):
            block_pos[n_blocks - 2] += block_pos[n_blocks - 1]
            block_w[n_blocks - 2] += block_w[n_blocks - 1]
            n_blocks -= 1
    if n_blocks == 0:
        out[:] = np.nan
        return
    for b in range(n_blocks):
        start = 0 if b == 0 else block_start[b]
        end = size if b == n_blocks - 1 else block_start[b + 1]
        rate = block_pos[b] / block_w[b]
        for i in range(start, end):
            out[i] = rate


@njit(cache=True)
def _logistic_fit(x1, x2, use1, use2, pos, neg):
    """Weighted logistic regression ``logit q = a x1 + b x2 + c`` by Newton's method.

    ``use1``/``use2`` switch the slopes a/b on; a switched-off slope is fixed at 0.
    Returns (a, b, c, loss) with loss the weighted log-loss (natural log) plus the
    ridge term.
    """
    a = 0.0
    b = 0.0
    total = 0.0
    total_pos = 0.0
    for i in range(pos.shape[0]):
        total += pos[i] + neg[i]
        total_pos += pos[i]
    rate = min(max(total_pos / total, 1e-12), 1.0 - 1e-12)
    c = np.log(rate / (1.0 - rate))
    loss = _logistic_loss(x1, x2, a, b, c, pos, neg)
    for _ in range(100):
        g = np.zeros(3)
        h = np.zeros((3, 3))
        for i in range(pos.shape[0]):
            w = pos[i] + neg[i]
            if w <= 0.0:
                continue
            z = a * x1[i] + b * x2[i] + c
            p = 1.0 / (1.0 + np.exp(-z))
            r = p * w - pos[i]
            s = w * p * (1.0 - p)
            v = (x1[i], x2[i], 1.0)
            for j in range(3):
                g[j] += r * v[j]
                for k in range(3):
                    h[j, k] += s * v[j] * v[k]
        g[0] += _BETA_RIDGE * a
        g[1] += _BETA_RIDGE * b
        h[0, 0] += _BETA_RIDGE
        h[1, 1] += _BETA_RIDGE
        h[2, 2] += 1e-12
        if not use1:
            g[0] = 0.0
            h[0, :] = 0.0
            h[:, 0] = 0.0
            h[0, 0] = 1.0
        if not use2:
            g[1] = 0.0
            h[1, :] = 0.0
            h[:, 1] = 0.0
            h[1, 1] = 1.0
        step = np.linalg.solve(h, g)
        # Backtracking keeps every step a descent step on the convex loss.
        t = 1.0
        while True:
            na = a - t * step[0]
            nb = b - t * step[1]
            nc = c - t * step[2]
            new_loss = _logistic_loss(x1, x2, na, nb, nc, pos, neg)
            if new_loss <= loss + 1e-15 or t < 1e-8:
                break
            t *= 0.5
        converged = loss - new_loss < 1e-12 * max(1.0, total)
        if new_loss <= loss:
            a, b, c, loss = na, nb, nc, new_loss
        if converged:
            break
    return a, b, c, loss


@njit(cache=True)
def _logistic_loss(x1, x2, a, b, c, pos, neg):
    loss = 0.5 * _BETA_RIDGE * (a * a + b * b)
    for i in range(pos.shape[0]):
        if pos[i] + neg[i] <= 0.0:
            continue
        z = a * x1[i] + b * x2[i] + c
        # log(1 + exp(-z)) and log(1 + exp(z)), computed stably
        if z > 0:
            lp = np.log1p(np.exp(-z))
            ln = z + lp
        else:
            ln = np.log1p(np.exp(z))
            lp = ln - z
        loss += pos[i] * lp + neg[i] * ln
    return loss


@njit(cache=True)
def _beta_fit(tau, pos, neg):
    """Fit eq. 9 with a, b >= 0 on counts per tau; returns (a, b, c).

    The log-loss is convex, so the constrained minimizer is the best feasible one among
    the minimizers on the four faces {a, b free}, {a = 0}, {b = 0}, {a = b = 0}.
    """
    x1 = np.log(tau)
    x2 = -np.log(1.0 - tau)
    best_a, best_b, best_c, best_loss = 0.0, 0.0, 0.0, np.inf
    for face in range(4):
        use1 = face == 0 or face == 2
        use2 = face == 0 or face == 1
        a, b, c, loss = _logistic_fit(x1, x2, use1, use2, pos, neg)
        if a < -1e-12 or b < -1e-12:
            continue
        if loss < best_loss - 1e-12:
            best_a, best_b, best_c, best_loss = max(a, 0.0), max(b, 0.0), c, loss
    return best_a, best_b, best_c


@njit(cache=True)
def _beta_eval(tau, a, b, c, out):
    for i in range(tau.shape[0]):
        z = a * np.log(tau[i]) - b * np.log(1.0 - tau[i]) + c
        out[i] = 1.0 / (1.0 + np.exp(-z))


@njit(cache=True)
def _calibrate_dense(pos, neg, method, lo_slot, hi_slot, out):
    """Calibrated probability per slot of a dense count array.

    ``lo_slot``/``hi_slot`` are the slots of the smallest and largest *reachable*
    totals (beta calibration maps that range into (0, 1)).
    """
    if method == ISOTONIC:
        _isotonic_dense(pos, neg, out)
        return
    size = pos.shape[0]
    tau = np.empty(size)
    for i in range(size):
        tau[i] = (i - lo_slot + 1.0) / (hi_slot - lo_slot + 2.0)
        # Slots outside the reachable range carry no case; keep tau inside (0, 1).
        tau[i] = min(max(tau[i], 1e-9), 1.0 - 1e-9)
    a, b, c = _beta_fit(tau, pos, neg)
    _beta_eval(tau, a, b, c, out)


def isotonic_probabilities(totals, positives, negatives):
    """Isotonic calibration of counts per total, defined at every given total.

    Parameters
    ----------
    totals : array-like of int, shape (m,)
        Distinct totals in increasing order (for example the reachable set of a stage).
    positives, negatives : array-like, shape (m,)
        Training counts per total; totals without any case may have 0 and 0.

    Returns
    -------
    ndarray of shape (m,)
        Non-decreasing probabilities. Totals without cases are linearly interpolated
        between the nearest totals with cases and held constant beyond the outermost
        ones (as scikit-learn's ``IsotonicRegression(out_of_bounds="clip")`` does).
    """
    totals = np.asarray(totals, dtype=float)
    pos = np.asarray(positives, dtype=float)
    neg = np.asarray(negatives, dtype=float)
    fitted = np.empty(len(totals))
    _isotonic_dense(pos, neg, fitted)
    seen = (pos + neg) > 0
    if not seen.any():
        raise ValueError("isotonic_probabilities needs at least one total with cases")
    return np.interp(totals, totals[seen], fitted[seen])


def beta_probabilities(totals, positives, negatives, lo, hi):
    """Beta calibration (eq. 9) of counts per total, evaluated at every given total.

    Parameters
    ----------
    totals : array-like of int, shape (m,)
    positives, negatives : array-like, shape (m,)
    lo, hi : int
        Smallest and largest reachable totals; ``tau = tau_of_total(T, lo, hi)``.

    Returns
    -------
    probabilities : ndarray of shape (m,)
    params : tuple (a, b, c)
    """
    tau = tau_of_total(totals, lo, hi)
    pos = np.asarray(positives, dtype=float)
    neg = np.asarray(negatives, dtype=float)
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


def calibrate_stage(row_totals, y, reachable, method):
    """Counts and calibrated probability of every reachable total of one stage.

    Parameters
    ----------
    row_totals : ndarray of int, shape (n,)
        Totals of the calibration rows at this stage.
    y : ndarray of 0/1, shape (n,)
    reachable : ndarray of int, shape (m,)
        Sigma_k, sorted.
    method : {"isotonic", "beta"}

    Returns
    -------
    probabilities, positives, negatives : ndarrays of shape (m,)
    """
    index = np.searchsorted(reachable, row_totals)
    positives = np.bincount(index, weights=y, minlength=len(reachable))
    negatives = np.bincount(index, minlength=len(reachable)) - positives
    if method == "isotonic":
        probabilities = isotonic_probabilities(reachable, positives, negatives)
    else:
        probabilities, _ = beta_probabilities(
            reachable, positives, negatives, reachable[0], reachable[-1]
        )
    return probabilities, positives.astype(np.int64), negatives.astype(np.int64)
