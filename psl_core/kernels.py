"""The compiled loops of the search (numba), in the order of the paper's sections.

Section 4.1/4.3/4.5, the search: class counts below a cut (:func:`_code_buckets`,
:func:`_count_below`), the criteria (:func:`_criterion_value`, :func:`_held_out_score`,
:func:`_pair_value`), one candidate (:func:`_label_value`) and the threshold search of one
feature (:func:`_search_feature`). They call the calibration kernels of Sec. 4.2 in
:mod:`psl_core.calibration_kernels`. The Python-level API and its documentation are in
:mod:`psl_core.calibration` and :mod:`psl_core.search`.

numba's on-disk cache is keyed by the file a function is defined in, and does not notice
when a function it calls from another file changes. Every kernel here is therefore
compiled by :func:`kernel`, whose cache key also holds :data:`CALIBRATION_KERNELS_SHA256`,
the SHA-256 of ``calibration_kernels.py`` computed at import: an edit there compiles these
kernels again, and a stale compiled kernel never computes with old code.
"""

import hashlib
from pathlib import Path

import numpy as np
from numba import njit
from numba.core.caching import FunctionCache

from . import calibration_kernels
from .calibration_kernels import SIGMOID, _calibrate_dense, _sigmoid_fit, _tau_of_slot

CALIBRATION_KERNELS_SHA256 = hashlib.sha256(Path(calibration_kernels.__file__).read_bytes()).hexdigest()
"""SHA-256 of ``psl_core/calibration_kernels.py``, part of every kernel's cache key here."""


KERNEL_OPTIONS = {"cache": True, "nogil": True}
"""numba's options of every kernel here. Without the GIL, searches in threads run at once
(:func:`psl_core.recommend.held_out_scores`)."""


class _KernelCache(FunctionCache):
    """numba's on-disk cache of one kernel, its key extended by :data:`KERNEL_OPTIONS` and
    :data:`CALIBRATION_KERNELS_SHA256`.

    numba keys an entry by the kernel's own file, bytecode, argument types and machine, not
    by its options (a kernel compiled to hold the GIL would be loaded as it was); the
    calibration kernels it calls are compiled into it, so their file's hash belongs in the
    key too (numba's ``Cache._index_key``, the one method overridden).
    """

    def _index_key(self, sig, codegen):
        return (*super()._index_key(sig, codegen), tuple(sorted(KERNEL_OPTIONS.items())), CALIBRATION_KERNELS_SHA256)


def kernel(function):
    """``numba.njit(**KERNEL_OPTIONS)`` with :class:`_KernelCache` as the on-disk cache (the
    plain function when ``NUMBA_DISABLE_JIT=1`` turns numba off, as for debugging)."""
    dispatcher = njit(**KERNEL_OPTIONS)(function)
    if hasattr(dispatcher, "py_func"):
        dispatcher._cache = _KernelCache(dispatcher.py_func)
    return dispatcher


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


@kernel
def _entropy_bits(p):
    if p <= 0.0 or p >= 1.0:
        return 0.0
    return -(p * np.log2(p) + (1.0 - p) * np.log2(1.0 - p))


@kernel
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


@kernel
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


@kernel
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


@kernel
def _held_out_term(positives, negatives, q, criterion):
    """Brier score or log-loss of one held-out slot's counts given its estimate q."""
    if criterion == CV_BRIER:
        return positives * (1.0 - q) ** 2 + negatives * q ** 2
    p = min(max(q, _LOG_LOSS_EPS), 1.0 - _LOG_LOSS_EPS)
    return -(positives * np.log(p) + negatives * np.log(1.0 - p))


@kernel
def _held_out_criterion(criterion):
    """The score a cross-validated criterion puts on held-out counts: CV_BRIER or CV_LOG_LOSS."""
    if criterion == CV_LOG_LOSS or criterion == NESTED_CV_LOG_LOSS:
        return CV_LOG_LOSS
    return CV_BRIER


@kernel
def _held_out_score(pos, neg, q, criterion):
    """Brier score or log-loss summed over held-out counts given estimates q."""
    total = 0.0
    for i in range(pos.shape[0]):
        if pos[i] + neg[i] > 0.0:
            total += _held_out_term(pos[i], neg[i], q[i], criterion)
    return total


@kernel
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


@kernel
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


@kernel
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


@kernel
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


@kernel
def _wrong_order(difference):
    """Soft rank loss of one pair whose preferred case leads by ``difference`` points."""
    if difference > 0:
        return 0.0
    if difference == 0:
        return 0.5
    return 1.0


@kernel
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


@kernel
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


@kernel
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


@kernel
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


@kernel
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
    :func:`psl_core.candidates.candidate_cuts`) is never chosen: it is worth +inf. It stays in
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
