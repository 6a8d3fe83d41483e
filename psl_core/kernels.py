"""The compiled loops of psl_core (numba), in the order of the paper's sections.

Every numba-compiled function lives in this one module on purpose: numba's on-disk cache
is keyed by the file a function is defined in, and does not notice when a function it
calls from another file changes. With all kernels here, any edit recompiles all of them,
so a stale compiled kernel can never compute with old code.

Section 4.2, calibration on aggregated counts: pool adjacent violators
(:func:`_isotonic_dense`), beta calibration (:func:`_beta_fit`), a logistic (sigmoid) link
in the total, pseudo-counts (:func:`_shrunk`) and :func:`_calibrate_dense`, which picks
between them.
Section 4.1/4.3/4.5, the search: class counts below a cut (:func:`_code_buckets`,
:func:`_count_below`), the criteria (:func:`_criterion_value`, :func:`_held_out_score`,
:func:`_pair_value`), one candidate (:func:`_label_value`) and the threshold search of one
feature (:func:`_search_feature`). The Python-level API and its documentation are in
:mod:`psl_core.calibration` and :mod:`psl_core.search`.
"""

import numpy as np
from numba import njit

# Calibration methods.
ISOTONIC = 0
BETA = 1
SIGMOID = 2
# Selection criteria.
ENTROPY = 0
SOFT_RANK = 1
CV_BRIER = 2
CV_LOG_LOSS = 3
NESTED_CV_BRIER = 4
NESTED_CV_LOG_LOSS = 5
# Kinds of learning problem.
LABELS = 0
PAIRS = 1

# Small ridge on the beta slopes: keeps the Newton steps finite when a stage separates
# the classes perfectly (the unpenalized maximum-likelihood estimate is then infinite).
_BETA_RIDGE = 1e-6
# Held-out log-loss of a probability of exactly 0 or 1 would be infinite; estimates are
# clipped to [eps, 1 - eps] for that score only.
_LOG_LOSS_EPS = 1e-3
# Candidates whose criteria differ by less than this are ties; ties go to the candidate
# enumerated first (features in column order, scores by decreasing absolute value with
# the positive first, the plain literal before its complement, thresholds in increasing
# order).
TIE_TOLERANCE = 1e-12
# A bisect grid that comes back flat is refined up to this many points; a grid still
# flat then is a plateau (typically a score of the wrong sign, which pools every total),
# and its first cut is taken. This bounds the evaluations per track.
MAX_GRID_POINTS = 65
# Class counts kept per feature search (:func:`_cut_value`): 8 MB.
LOW_CACHE_VALUES = 1 << 20


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


@njit(cache=True)
def _entropy_bits(p):
    if p <= 0.0 or p >= 1.0:
        return 0.0
    return -(p * np.log2(p) + (1.0 - p) * np.log2(1.0 - p))


@njit(cache=True)
def _criterion_value(pos, neg, q, criterion):
    """Selection criterion of calibrated estimates ``q`` given counts per slot.

    Expected entropy (eq. 7): sum over totals of N_T / N * H(q_T), in bits.
    Soft rank loss (eq. 14): share of (positive, negative) pairs ordered wrongly by q,
    ties counting one half.
    """
    size = pos.shape[0]
    if criterion == ENTROPY:
        acc = 0.0
        total = 0.0
        for i in range(size):
            w = pos[i] + neg[i]
            if w > 0.0:
                acc += w * _entropy_bits(q[i])
                total += w
        return acc / total
    n_pos = 0.0
    n_neg = 0.0
    for i in range(size):
        n_pos += pos[i]
        n_neg += neg[i]
    if n_pos == 0.0 or n_neg == 0.0:
        return 0.0
    # Walk totals from the highest down; q is non-decreasing in the total, so equal q
    # values sit next to each other and form the tie groups.
    loss = 0.0
    neg_above = 0.0
    i = size - 1
    while i >= 0:
        if pos[i] + neg[i] <= 0.0:
            i -= 1
            continue
        level = q[i]
        group_pos = 0.0
        group_neg = 0.0
        while i >= 0 and (pos[i] + neg[i] <= 0.0 or q[i] == level):
            group_pos += pos[i]
            group_neg += neg[i]
            i -= 1
        loss += group_pos * (neg_above + 0.5 * group_neg)
        neg_above += group_neg
    return loss / (n_pos * n_neg)


@njit(cache=True)
def _code_buckets(codes, order, n_codes):
    """Counting sort of sorted positions by code: bucket c holds, in increasing order,
    the positions j with ``codes[order[j]] == c`` (``positions[start[c]:start[c + 1]]``)."""
    start = np.zeros(n_codes + 1, dtype=np.int64)
    ordered = np.empty(order.shape[0], dtype=np.int64)
    for j in range(order.shape[0]):
        ordered[j] = codes[order[j]]
        start[ordered[j] + 1] += 1
    for c in range(n_codes):
        start[c + 1] += start[c]
    fill = start[:-1].copy()
    positions = np.empty(order.shape[0], dtype=np.int64)
    for j in range(order.shape[0]):
        c = ordered[j]
        positions[fill[c]] = j
        fill[c] += 1
    return start, positions


@njit(cache=True)
def _count_below(start, positions, code, p):
    """Number of entries of ``code`` among the first p of the sorted order."""
    lo = start[code]
    hi = start[code + 1]
    first = lo
    while lo < hi:
        mid = (lo + hi) // 2
        if positions[mid] < p:
            lo = mid + 1
        else:
            hi = mid
    return lo - first


@njit(cache=True)
def _held_out_term(positives, negatives, q, criterion):
    """Brier score or log-loss of one held-out slot's counts given its estimate q."""
    if criterion == CV_BRIER:
        return positives * (1.0 - q) ** 2 + negatives * q ** 2
    p = min(max(q, _LOG_LOSS_EPS), 1.0 - _LOG_LOSS_EPS)
    return -(positives * np.log(p) + negatives * np.log(1.0 - p))


@njit(cache=True)
def _held_out_criterion(criterion):
    """The score a cross-validated criterion puts on held-out counts: CV_BRIER or CV_LOG_LOSS."""
    if criterion == CV_LOG_LOSS or criterion == NESTED_CV_LOG_LOSS:
        return CV_LOG_LOSS
    return CV_BRIER


@njit(cache=True)
def _held_out_score(pos, neg, q, criterion):
    """Brier score or log-loss summed over held-out counts given estimates q."""
    total = 0.0
    for i in range(pos.shape[0]):
        if pos[i] + neg[i] > 0.0:
            total += _held_out_term(pos[i], neg[i], q[i], criterion)
    return total


@njit(cache=True)
def _sigmoid_held_out(fold_pos, fold_neg, all_pos, all_neg, lo_slot, hi_slot, shrink, warm, criterion, pos, neg, tau):
    """The cross-validated criterion of sigmoid calibration, summed over the folds.

    What :func:`_label_value` computes with :func:`_calibrate_dense` for the other
    methods, written out for the sigmoid link (the default calibration): only the slots
    with cases are visited (packed into the first entries of the work arrays ``pos``,
    ``neg`` and ``tau``), the pseudo-counts go straight into the work arrays, and each
    fold's fit starts from the previous fold's solution (the training parts share all
    but two folds).
    """
    slots = np.empty(pos.shape[0], dtype=np.int64)
    n = 0
    for i in range(pos.shape[0]):
        if all_pos[i] + all_neg[i] > 0.0:
            slots[n] = i
            tau[n] = _tau_of_slot(i, lo_slot, hi_slot)
            n += 1
    strength = shrink[0]
    rate = shrink[1]
    loss = 0.0
    for f in range(fold_pos.shape[0]):
        for j in range(n):
            i = slots[j]
            pos[j] = all_pos[i] - fold_pos[f, i]
            neg[j] = all_neg[i] - fold_neg[f, i]
            if strength > 0.0 and pos[j] + neg[j] > 0.0:
                pos[j] += strength * rate
                neg[j] += strength * (1.0 - rate)
        a, c = _sigmoid_fit(tau[:n], pos[:n], neg[:n], warm)
        warm[0] = a
        warm[1] = c
        for j in range(n):
            i = slots[j]
            if fold_pos[f, i] + fold_neg[f, i] > 0.0:
                q = 1.0 / (1.0 + np.exp(-(a * tau[j] + c)))
                loss += _held_out_term(fold_pos[f, i], fold_neg[f, i], q, criterion)
    return loss


@njit(cache=True)
def _low_counts(start, positions, weight_below, p, low):
    """``low[code]``: weight of the rows of each code among the first p of a feature's
    sorted order (``weight_below[j]`` is the weight of ``positions[:j]``; with unit
    weights ``j`` itself, and ``low`` counts rows).

    Depends on the cut only, not on the score, so :func:`_search_feature` computes it
    once per cut and shares it between the tracks.
    """
    for code in range(low.shape[0]):
        first = start[code]
        low[code] = weight_below[first + _count_below(start, positions, code, p)] - weight_below[first]


@njit(cache=True)
def _fold_counts(low, s, negated, totals_of_group, group_slot, fold_pos, fold_neg):
    """Class counts per fold and slot after adding a literal to the current totals.

    The literal is true for rows after the first p of the feature's sorted order
    (``value > cut``), or for the first p when ``negated``; its rows move from their
    group's slot to the slot ``s`` higher.

    Rows carry a fold (one fold unless the criterion is cross-validated): the code of a
    row is ``(2 g + y) F + fold``, ``totals_of_group[g, y F + fold]`` counts them and
    ``low[code]`` counts those among the first p (:func:`_low_counts`). ``fold_pos`` and
    ``fold_neg`` (F, size) receive the counts.
    """
    n_folds = fold_pos.shape[0]
    fold_pos[:, :] = 0.0
    fold_neg[:, :] = 0.0
    for g in range(group_slot.shape[0]):
        slot = group_slot[g]
        for f in range(n_folds):
            code = 2 * n_folds * g + f
            low_neg = low[code]
            low_pos = low[code + n_folds]
            high_neg = totals_of_group[g, f] - low_neg
            high_pos = totals_of_group[g, n_folds + f] - low_pos
            if negated:
                low_neg, high_neg = high_neg, low_neg
                low_pos, high_pos = high_pos, low_pos
            fold_pos[f, slot] += low_pos
            fold_neg[f, slot] += low_neg
            fold_pos[f, slot + s] += high_pos
            fold_neg[f, slot + s] += high_neg


@njit(cache=True)
def _label_value(
    low, s, negated, totals_of_group, group_slot,
    reach_lo_slot, reach_hi_slot, method, shrink, warm, criterion, fold_pos, fold_neg, pos, neg, q, out,
):
    """Criterion after adding a literal to the current totals of labelled rows, written
    into ``out`` (counts per fold from :func:`_fold_counts`).

    A cross-validated criterion calibrates on all folds but one and scores the held-out
    fold, for every fold; ``out[0]`` receives the sum divided by the number of rows.
    A nested one (:data:`NESTED_CV_BRIER`, :data:`NESTED_CV_LOG_LOSS`) leaves the choice of
    the cut to :func:`_search_feature` and records, for each fold f of F, the score of
    the estimates calibrated without fold f on the rows they were fitted to
    (``out[f]``) and on fold f (``out[F + f]``), and in ``out[2F]`` the score of the
    estimates calibrated on all rows on all rows. ``pos``, ``neg``, ``q`` (size) are work
    arrays over the dense range of totals.
    """
    _fold_counts(low, s, negated, totals_of_group, group_slot, fold_pos, fold_neg)
    n_folds = fold_pos.shape[0]
    lo_slot = reach_lo_slot + min(0, s)
    hi_slot = reach_hi_slot + max(0, s)
    if criterion == ENTROPY or criterion == SOFT_RANK:
        _calibrate_dense(fold_pos[0], fold_neg[0], method, lo_slot, hi_slot, shrink, q)
        out[0] = _criterion_value(fold_pos[0], fold_neg[0], q, criterion)
        return
    all_pos = fold_pos.sum(axis=0)
    all_neg = fold_neg.sum(axis=0)
    n_rows = all_pos.sum() + all_neg.sum()
    held_out = _held_out_criterion(criterion)
    if criterion == CV_BRIER or criterion == CV_LOG_LOSS:
        if method == SIGMOID:
            loss = _sigmoid_held_out(
                fold_pos, fold_neg, all_pos, all_neg, lo_slot, hi_slot, shrink, warm, criterion, pos, neg, q,
            )
            out[0] = loss / n_rows
            return
        loss = 0.0
        for f in range(n_folds):
            pos[:] = all_pos - fold_pos[f]
            neg[:] = all_neg - fold_neg[f]
            _calibrate_dense(pos, neg, method, lo_slot, hi_slot, shrink, q)
            loss += _held_out_score(fold_pos[f], fold_neg[f], q, criterion)
        out[0] = loss / n_rows
        return
    for f in range(n_folds):
        pos[:] = all_pos - fold_pos[f]
        neg[:] = all_neg - fold_neg[f]
        _calibrate_dense(pos, neg, method, lo_slot, hi_slot, shrink, q)
        out[f] = _held_out_score(pos, neg, q, held_out)
        out[n_folds + f] = _held_out_score(fold_pos[f], fold_neg[f], q, held_out)
    _calibrate_dense(all_pos, all_neg, method, lo_slot, hi_slot, shrink, q)
    out[2 * n_folds] = _held_out_score(all_pos, all_neg, q, held_out)


@njit(cache=True)
def _wrong_order(difference):
    """Soft rank loss of one pair whose preferred case leads by ``difference`` points."""
    if difference > 0:
        return 0.0
    if difference == 0:
        return 0.5
    return 1.0


@njit(cache=True)
def _pair_value(start, positions, p, s, negated, group_difference, group_size):
    """Soft rank loss (eq. 14) over comparison pairs after adding a literal.

    Pairs are grouped by the current difference of totals (preferred minus other).
    Bucket 4g holds, for pairs of group g whose preferred case sorts above the other,
    the other's position, bucket 4g + 1 the preferred's; buckets 4g + 2 and 4g + 3 the
    same for pairs sorted the other way. A cut after the first p rows then separates
    ``count(4g, < p) - count(4g + 1, < p)`` pairs in the preferred case's favour.
    """
    loss = 0.0
    total = 0.0
    for g in range(group_difference.shape[0]):
        n = group_size[g]
        d = group_difference[g]
        ahead = _count_below(start, positions, 4 * g, p) - _count_below(start, positions, 4 * g + 1, p)
        behind = _count_below(start, positions, 4 * g + 2, p) - _count_below(start, positions, 4 * g + 3, p)
        if negated:
            ahead, behind = behind, ahead
        loss += (n - ahead - behind) * _wrong_order(d) + ahead * _wrong_order(d + s) + behind * _wrong_order(d - s)
        total += n
    return loss / total


@njit(cache=True)
def _candidate_value(
    problem, start, positions, p, low, s, negated, group_int, group_float,
    reach_lo_slot, reach_hi_slot, method, shrink, warm, criterion, fold_pos, fold_neg, pos, neg, q, out,
):
    """Criterion of one candidate, written into ``out``: for labelled rows
    (:func:`_label_value`, ``low`` from :func:`_low_counts`) or for comparison pairs."""
    if problem == PAIRS:
        out[0] = _pair_value(start, positions, p, s, negated, group_int, group_float[:, 0])
        return
    _label_value(
        low, s, negated, group_float, group_int,
        reach_lo_slot, reach_hi_slot, method, shrink, warm, criterion, fold_pos, fold_neg, pos, neg, q, out,
    )


@njit(cache=True)
def _cut_value(
    c, column, memo, touched, n_touched, problem, start, positions, weight_below, cut_positions, allowed, lows, low_cut, t, scores,
    negated, group_int, group_float, reach_lo_slot, reach_hi_slot, method, shrink, warm, criterion,
    fold_pos, fold_neg, pos, neg, q,
):
    """Entry ``column`` of the criterion of cut ``c`` on track ``t``
    (:func:`_candidate_value`), memoized in row c of ``memo`` (the cuts evaluated are
    listed in ``touched``); the cut's class counts (:func:`_low_counts`) are kept for the
    other tracks in row ``c % len(lows)`` of ``lows`` (``low_cut`` says which cut a row
    holds; a cut whose row was taken over is counted again). A cut that is not ``allowed``
    is worth +inf.

    Returns (value, n_touched).
    """
    if not np.isnan(memo[c, 0]):
        return memo[c, column], n_touched
    touched[n_touched] = c
    if not allowed[c]:
        memo[c, :] = np.inf
        return np.inf, n_touched + 1
    row = 0
    if problem == LABELS:
        row = c % lows.shape[0]
        if low_cut[row] != c:
            _low_counts(start, positions, weight_below, cut_positions[c], lows[row])
            low_cut[row] = c
    _candidate_value(
        problem, start, positions, cut_positions[c], lows[row], scores[t], negated[t],
        group_int, group_float, reach_lo_slot, reach_hi_slot,
        method, shrink, warm, criterion, fold_pos, fold_neg, pos, neg, q, memo[c],
    )
    return memo[c, column], n_touched + 1


@njit(cache=True)
def _bisect(
    column, lo, hi, points, n_touched, grid, values, memo, touched, problem, start, positions, weight_below, cut_positions,
    allowed, lows, low_cut, t, scores, negated, group_int, group_float, reach_lo_slot, reach_hi_slot, method, shrink,
    warm, criterion, fold_pos, fold_neg, pos, neg, q,
):
    """The first cut in ``lo..hi`` minimizing entry ``column`` of the criterion on track
    ``t``, searched in rounds (see :func:`_search_feature`); ``points >= n_cuts`` is brute
    force.

    Returns (cut, value, n_touched).
    """
    while True:
        exhaustive = hi - lo + 1 <= points
        n_grid = hi - lo + 1 if exhaustive else points
        for i in range(n_grid):
            if exhaustive:
                grid[i] = lo + i
            else:
                grid[i] = lo + int(np.floor(i * (hi - lo) / (points - 1) + 0.5))
            values[i], n_touched = _cut_value(
                grid[i], column, memo, touched, n_touched, problem, start, positions, weight_below, cut_positions, allowed, lows,
                low_cut, t, scores, negated, group_int, group_float, reach_lo_slot, reach_hi_slot,
                method, shrink, warm, criterion, fold_pos, fold_neg, pos, neg, q,
            )
        smallest = values[0]
        for i in range(n_grid):
            smallest = min(smallest, values[i])
        first = -1
        last = -1
        for i in range(n_grid):
            if values[i] <= smallest + TIE_TOLERANCE:
                if first < 0:
                    first = i
                last = i
        # A plateau: a grid of the largest size whose first and last points both take the
        # smallest value. For the cross-validated criteria the first and last *allowed*
        # points count: disallowed cuts (+inf) at the grid's ends are skipped (min_support's
        # outermost cuts; without this a flat criterion, e.g. a literal whose slope is
        # clipped, would be refined down to nearly every cut). The paper's criteria keep the
        # reference implementation's rounds. A grid of cuts that are all disallowed is no
        # plateau: allowed cuts may lie between.
        inner_first = 0
        inner_last = n_grid - 1
        if criterion == CV_BRIER or criterion == CV_LOG_LOSS:
            while inner_first < n_grid - 1 and values[inner_first] == np.inf:
                inner_first += 1
            while inner_last > 0 and values[inner_last] == np.inf:
                inner_last -= 1
        plateau = (first == inner_first and last == inner_last and points >= MAX_GRID_POINTS
                   and smallest < np.inf)
        if exhaustive or plateau:
            return grid[first], values[first], n_touched
        new_lo = grid[max(first - 1, 0)]
        new_hi = grid[min(last + 1, n_grid - 1)]
        shrunk = new_lo > lo or new_hi < hi
        points = 5 if shrunk else 2 * points - 1
        lo = new_lo
        hi = new_hi


@njit(cache=True)
def _search_feature(
    problem, start, positions, weight_below, cut_positions, allowed, group_int, group_float, scores, negated,
    size, reach_lo_slot, reach_hi_slot, method, shrink, criterion, brute,
):
    """Best cut of one feature for every track (score, polarity).

    ``start``/``positions`` are the feature's count buckets (:func:`_code_buckets` for
    labelled rows, :meth:`PairEvaluator.search` for pairs); ``group_int``/``group_float``
    describe the current groups (slots and counts for labels, differences and sizes
    for pairs). ``weight_below[j]`` is the weight of the rows at ``positions[:j]``
    (labelled rows only; ``arange`` for unit weights, see :func:`_low_counts`).

    ``brute`` evaluates every cut. Otherwise, for the cross-validated criteria, the two
    outer cuts are evaluated first: for a numeric feature they make the literal constant
    (it changes no probability), so a track whose literal only hurts has its minimum
    there, and those two ties would keep the search below from narrowing (for the
    paper's criteria the rounds span every cut, as in the reference implementation,
    whose lists this reproduces). The inner cuts are then searched in rounds
    (:func:`_bisect`): each round evaluates a grid of cuts on the track's current
    interval and keeps the interval between the grid neighbours of the first and last
    grid minimum: for a quasi-convex criterion that interval holds every minimizer. A
    round that cannot shrink the interval doubles the grid, up to
    :data:`MAX_GRID_POINTS`; a grid of that size that is entirely flat is a plateau and
    its first cut is taken. Once the interval is no longer than the grid every cut in it
    is evaluated. The answer is the first minimum of (first outer cut, inner answer, last
    outer cut), so on quasi-convex criteria without such a plateau it equals brute force:
    the first minimizing cut.

    A cut whose ``allowed`` entry is False (too few rows in one of its answers, see
    :func:`psl_core.search.candidate_cuts`) is never chosen: it is worth +inf. It stays in
    the grids, so the rounds are those of the unconstrained search until they would land
    on it, and a constraint that only excludes cuts the search would not choose leaves
    the list as it was.

    A nested cross-validated criterion validates the choice of the cut too: within each
    fold the cut is chosen (as above, by the score of the calibrated estimates on the
    other folds' rows) and the held-out fold is scored at that cut; the track's value is
    the held-out score summed over the folds per row, and its cut the one chosen the
    same way on all rows. A feature whose best cut is found by chance on the training
    rows (a few extreme cases) then scores as badly as it predicts.

    Returns
    -------
    best_cut : ndarray of int, shape (n_tracks,)
    best_value : ndarray, shape (n_tracks,)
    """
    n_cuts = cut_positions.shape[0]
    n_tracks = scores.shape[0]
    pos = np.empty(size)
    neg = np.empty(size)
    q = np.empty(size)
    n_folds = group_float.shape[1] // 2 if problem == LABELS else 1
    fold_pos = np.empty((n_folds, size))
    fold_neg = np.empty((n_folds, size))
    nested = problem == LABELS and (criterion == NESTED_CV_BRIER or criterion == NESTED_CV_LOG_LOSS)
    memo = np.full((n_cuts, 2 * n_folds + 1 if nested else 1), np.nan)
    # Class counts below the cuts evaluated, shared by the tracks (labelled rows only): at
    # most LOW_CACHE_VALUES numbers (a feature with a million distinct values has a million
    # cuts, and a flat criterion visits most of them).
    n_codes = start.shape[0] - 1
    n_low_rows = min(n_cuts, max(1, LOW_CACHE_VALUES // max(n_codes, 1))) if problem == LABELS else 1
    lows = np.empty((n_low_rows, n_codes))
    low_cut = np.full(n_low_rows, -1, dtype=np.int64)
    touched = np.empty(n_cuts, dtype=np.int64)
    best_cut = np.zeros(n_tracks, dtype=np.int64)
    best_value = np.zeros(n_tracks)
    grid = np.empty(n_cuts, dtype=np.int64)
    values = np.empty(n_cuts)
    n_rows = 0.0
    if problem == LABELS:
        n_rows = group_float.sum()
    # Outer cuts apart for the cross-validated criteria only: the paper's criteria keep the
    # reference implementation's grids (and so its lists where bisection is a heuristic).
    cross_validated = problem == LABELS and (criterion == CV_BRIER or criterion == CV_LOG_LOSS)
    outer = cross_validated and not brute and n_cuts > 6
    points = n_cuts if brute else 5
    warm = np.full(2, np.nan)
    for t in range(n_tracks):
        n_touched = 0
        warm[:] = np.nan
        if nested:
            best_cut[t], _, n_touched = _bisect(
                2 * n_folds, 0, n_cuts - 1, points, n_touched, grid, values, memo, touched, problem, start,
                positions, weight_below, cut_positions, allowed, lows, low_cut, t, scores, negated, group_int, group_float,
                reach_lo_slot, reach_hi_slot, method, shrink, warm, criterion, fold_pos, fold_neg, pos, neg, q,
            )
            loss = 0.0
            for f in range(n_folds):
                cut, _, n_touched = _bisect(
                    f, 0, n_cuts - 1, points, n_touched, grid, values, memo, touched, problem, start,
                    positions, weight_below, cut_positions, allowed, lows, low_cut, t, scores, negated, group_int, group_float,
                    reach_lo_slot, reach_hi_slot, method, shrink, warm, criterion, fold_pos, fold_neg, pos, neg, q,
                )
                loss += memo[cut, n_folds + f]
            best_value[t] = loss / n_rows
        else:
            lo = 0
            hi = n_cuts - 1
            if outer:
                for c in (lo, hi):
                    _, n_touched = _cut_value(
                        c, 0, memo, touched, n_touched, problem, start, positions, weight_below, cut_positions, allowed, lows,
                        low_cut, t, scores, negated, group_int, group_float, reach_lo_slot, reach_hi_slot,
                        method, shrink, warm, criterion, fold_pos, fold_neg, pos, neg, q,
                    )
                lo += 1
                hi -= 1
            best_cut[t], best_value[t], n_touched = _bisect(
                0, lo, hi, points, n_touched, grid, values, memo, touched, problem, start, positions, weight_below,
                cut_positions, allowed, lows, low_cut, t, scores, negated, group_int, group_float, reach_lo_slot,
                reach_hi_slot, method, shrink, warm, criterion, fold_pos, fold_neg, pos, neg, q,
            )
            if outer:
                first_outer = memo[0, 0]
                last_outer = memo[n_cuts - 1, 0]
                smallest = min(first_outer, best_value[t], last_outer)
                if first_outer <= smallest + TIE_TOLERANCE:
                    best_cut[t] = 0
                    best_value[t] = first_outer
                elif best_value[t] > smallest + TIE_TOLERANCE:
                    best_cut[t] = n_cuts - 1
                    best_value[t] = last_outer
        for i in range(n_touched):
            memo[touched[i], :] = np.nan
    return best_cut, best_value
