"""The compiled calibration of paper Sec. 4.2 on aggregated counts (numba).

Pool adjacent violators (:func:`_isotonic_dense`), beta calibration (:func:`_beta_fit`),
a logistic (sigmoid) link in the total, pseudo-counts (:func:`_shrunk`) and
:func:`_calibrate_dense`, which picks between them. The search's kernels
(:mod:`psl_core.kernels`) call them for every candidate; the Python-level API is
:mod:`psl_core.calibration`.

numba's on-disk cache of a function is keyed by its own file and does not notice a change
in a function it calls from another file: :mod:`psl_core.kernels` therefore adds this
file's SHA-256 (``CALIBRATION_KERNELS_SHA256``, computed at import) to its kernels' cache
keys, so that any edit here compiles them again.
"""

import numpy as np
from numba import njit

# Calibration methods.
ISOTONIC = 0
BETA = 1
SIGMOID = 2

# Small ridge on the beta slopes: keeps the Newton steps finite when a stage separates
# the classes perfectly (the unpenalized maximum-likelihood estimate is then infinite).
_BETA_RIDGE = 1e-6


@njit(cache=True)
def _isotonic_dense(pos, neg, out):
    """Pool adjacent violators over a dense array of counts.

    Parameters
    ----------
    pos, neg : ndarray of shape (R,)
        Positive and negative counts per total, in increasing order of the total.
    out : ndarray of shape (R,)
        Receives the fitted probability of every slot (see the interpolation of empty
        slots below).
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
    # Slots with cases take their block's rate; empty slots are interpolated linearly
    # between the nearest slots with cases and held constant beyond the outermost ones
    # (as scikit-learn's IsotonicRegression(out_of_bounds="clip") predicts).
    previous = -1
    for b in range(n_blocks):
        end = size if b == n_blocks - 1 else block_start[b + 1]
        rate = block_pos[b] / block_w[b]
        for i in range(block_start[b], end):
            if pos[i] + neg[i] <= 0.0:
                continue
            out[i] = rate
            if previous < 0:
                out[:i] = rate
            else:
                for j in range(previous + 1, i):
                    out[j] = out[previous] + (rate - out[previous]) * (j - previous) / (i - previous)
            previous = i
    out[previous + 1:] = out[previous]


@njit(cache=True)
def _constant_fit(pos, neg):
    """Total weight of the counts and the logit of their rate of positives (the
    intercept-only logistic fit, the starting point of Newton's method)."""
    total = 0.0
    total_pos = 0.0
    for i in range(pos.shape[0]):
        total += pos[i] + neg[i]
        total_pos += pos[i]
    rate = min(max(total_pos / total, 1e-12), 1.0 - 1e-12)
    return total, np.log(rate / (1.0 - rate))


@njit(cache=True)
def _logistic_fit(x1, x2, use1, use2, pos, neg):
    """Weighted logistic regression ``logit q = a x1 + b x2 + c`` by Newton's method.

    ``use1``/``use2`` switch the slopes a/b on; a switched-off slope is fixed at 0.
    Returns (a, b, c, loss) with loss the weighted log-loss (natural log) plus the
    ridge term.
    """
    a = 0.0
    b = 0.0
    total, c = _constant_fit(pos, neg)
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
def _sigmoid_pass(tau, pos, neg, a, c, with_loss):
    """Loss (as :func:`_logistic_loss`; 0 unless ``with_loss``), gradient and Hessian of
    ``logit q = a tau + c`` in one pass over the counts: (loss, ga, gc, haa, hac, hcc).
    Without the loss a pass takes one ``exp`` per total and no ``log1p``."""
    loss = 0.5 * _BETA_RIDGE * a * a
    ga = _BETA_RIDGE * a
    gc = 0.0
    haa = _BETA_RIDGE
    hac = 0.0
    hcc = 1e-12
    for i in range(pos.shape[0]):
        w = pos[i] + neg[i]
        if w <= 0.0:
            continue
        z = a * tau[i] + c
        # p = sigmoid(z); lp = log(1 + exp(-z)) = -log p, ln = -log(1 - p), computed stably
        if z > 0:
            e = np.exp(-z)
            p = 1.0 / (1.0 + e)
            if with_loss:
                lp = np.log1p(e)
                loss += pos[i] * lp + neg[i] * (z + lp)
        else:
            e = np.exp(z)
            p = e / (1.0 + e)
            if with_loss:
                ln = np.log1p(e)
                loss += pos[i] * (ln - z) + neg[i] * ln
        r = p * w - pos[i]
        h = w * p * (1.0 - p)
        ga += r * tau[i]
        gc += r
        haa += h * tau[i] * tau[i]
        hac += h * tau[i]
        hcc += h
    return loss, ga, gc, haa, hac, hcc


@njit(cache=True)
def _newton_step(ga, gc, haa, hac, hcc):
    """The 2 x 2 Newton step from a gradient and Hessian, and its decrement
    (step_a, step_c, decrement); decrement -1 when the Hessian is singular."""
    det = haa * hcc - hac * hac
    if det <= 0.0:
        return 0.0, 0.0, -1.0
    step_a = (hcc * ga - hac * gc) / det
    step_c = (haa * gc - hac * ga) / det
    return step_a, step_c, 0.5 * (ga * step_a + gc * step_c)


@njit(cache=True)
def _slope_clipped(tau, pos, neg, total, constant):
    """Whether the slope of :func:`_sigmoid_fit` is 0 at its optimum, without Newton steps.

    At a = 0 the intercept's optimum is ``constant``, the logit of the overall rate r, so
    the gradient in c vanishes there. The loss is convex, so (0, constant) is the optimum
    over a >= 0 exactly when the gradient in a there is not negative:
    sum_i (r w_i - pos_i) tau_i >= 0 (KKT). That is one pass of products, no ``exp``:
    it saves the Newton fits of every literal whose slope would come out clipped (for
    the sign of a literal that only hurts, every cut of the feature).
    """
    rate = 1.0 / (1.0 + np.exp(-constant))
    gradient = 0.0
    for i in range(pos.shape[0]):
        gradient += (rate * (pos[i] + neg[i]) - pos[i]) * tau[i]
    return gradient >= 0.0


@njit(cache=True)
def _sigmoid_fit(tau, pos, neg, start):
    """Weighted logistic regression ``logit q = a tau + c`` with ``a >= 0``; returns (a, c).

    The two-parameter case of :func:`_logistic_fit`, written out because the search fits
    it for every candidate: closed-form 2 x 2 Newton steps, one pass over the counts per
    step (a step that goes uphill is halved from the last good point), stopping when the
    Newton decrement promises less than the tolerance of :func:`_logistic_fit`. The loss
    is convex, so when the free slope comes out negative the constrained optimum is the
    constant fit: ``a = 0`` and ``c`` the logit of the overall rate. Newton's method starts
    from ``start = (a, c)`` when it is finite (a warm start: the cross-validated criteria
    fit nearly the same counts once per fold), else from the constant fit.
    """
    total, constant = _constant_fit(pos, neg)
    if _slope_clipped(tau, pos, neg, total, constant):
        return 0.0, constant
    a = 0.0
    c = constant
    if np.isfinite(start[0]) and np.isfinite(start[1]):
        a = start[0]
        c = start[1]
    tolerance = 1e-9 * max(1.0, total)
    # Plain Newton steps while the decrement keeps shrinking (the usual case: the loss is
    # smooth and convex, and the search's warm starts lie near the optimum); the loss is
    # only computed, for a halving line search, when a step fails to shrink it.
    previous = np.inf
    for _ in range(50):
        step_a, step_c, decrement = _newton_step(*_sigmoid_pass(tau, pos, neg, a, c, False)[1:])
        if decrement < 0.0 or decrement >= previous:
            break
        a -= step_a
        c -= step_c
        if decrement < tolerance:
            if a < 0.0:
                return 0.0, constant
            return a, c
        previous = decrement
    if np.isfinite(start[0]) and np.isfinite(start[1]):
        a = start[0]
        c = start[1]
    else:
        a = 0.0
        c = constant
    best_a = a
    best_c = c
    best_loss = np.inf
    step_a = 0.0
    step_c = 0.0
    t = 1.0
    for _ in range(200):
        loss, ga, gc, haa, hac, hcc = _sigmoid_pass(tau, pos, neg, a, c, True)
        if loss > best_loss + 1e-15:
            t *= 0.5
            if t < 1e-8:
                break
            a = best_a - t * step_a
            c = best_c - t * step_c
            continue
        best_a, best_c, best_loss = a, c, loss
        step_a, step_c, decrement = _newton_step(ga, gc, haa, hac, hcc)
        if decrement < 0.0:
            break
        if decrement < tolerance:
            # Close to the optimum Newton's method converges quadratically: the last step is
            # taken without another pass to check it (it ends nearer the optimum than the
            # point it starts from, by far), which saves a pass per fit.
            best_a -= step_a
            best_c -= step_c
            break
        t = 1.0
        a = best_a - step_a
        c = best_c - step_c
    if best_a < 0.0:
        return 0.0, constant
    return best_a, best_c


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
def _shrunk(pos, neg, shrink):
    """Counts with pseudo-counts toward a prior rate added to every total with cases.

    ``shrink = (strength, rate)``: each non-empty total gets ``strength * rate`` extra
    positives and ``strength * (1 - rate)`` extra negatives, which pulls the estimates of
    rare totals toward the rate while leaving well-populated totals nearly unchanged.
    Strength 0 returns the counts as they are.
    """
    strength = shrink[0]
    if strength <= 0.0:
        return pos, neg
    rate = shrink[1]
    pos2 = pos.copy()
    neg2 = neg.copy()
    for i in range(pos.shape[0]):
        if pos[i] + neg[i] > 0.0:
            pos2[i] += strength * rate
            neg2[i] += strength * (1.0 - rate)
    return pos2, neg2


@njit(cache=True)
def _tau_of_slot(i, lo_slot, hi_slot):
    """tau of slot i of a dense count array (:func:`psl_core.calibration.tau_of_total`
    with the reachable totals in slots ``lo_slot..hi_slot``)."""
    value = (i - lo_slot + 1.0) / (hi_slot - lo_slot + 2.0)
    # Slots outside the reachable range carry no case; keep tau inside (0, 1).
    return min(max(value, 1e-9), 1.0 - 1e-9)


@njit(cache=True)
def _tau_slots(lo_slot, hi_slot, tau):
    """:func:`_tau_of_slot` of every slot, written into ``tau``."""
    for i in range(tau.shape[0]):
        tau[i] = _tau_of_slot(i, lo_slot, hi_slot)


@njit(cache=True)
def _calibrate_dense(pos, neg, method, lo_slot, hi_slot, shrink, out):
    """Calibrated probability per slot of a dense count array.

    ``lo_slot``/``hi_slot`` are the slots of the smallest and largest *reachable*
    totals (beta calibration maps that range into (0, 1)); ``shrink`` is
    (strength, rate) of the pseudo-counts (see :func:`_shrunk`).
    """
    pos, neg = _shrunk(pos, neg, shrink)
    if method == ISOTONIC:
        _isotonic_dense(pos, neg, out)
        return
    size = pos.shape[0]
    tau = np.empty(size)
    _tau_slots(lo_slot, hi_slot, tau)
    if method == BETA:
        a, b, c = _beta_fit(tau, pos, neg)
        _beta_eval(tau, a, b, c, out)
        return
    # SIGMOID: logit q = a tau + c with a >= 0, the logistic link of risk scores.
    a, c = _sigmoid_fit(tau, pos, neg, np.full(2, np.nan))
    for i in range(size):
        out[i] = 1.0 / (1.0 + np.exp(-(a * tau[i] + c)))
