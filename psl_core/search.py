"""Greedy construction of a probabilistic scoring list (paper, Sec. 4.1 and 4.3).

Stage k adds the (feature, score, threshold) that minimizes the selection criterion of
the calibrated stage-k estimates on the training data: the expected entropy (eq. 7) or
the soft rank loss (eq. 14).

How it is fast:

- each feature is sorted once per fit (:mod:`psl_core.binarization`); at a stage the
  training rows are grouped by their current total, and the class counts of every group
  below a threshold are prefix counts along the feature's sorted order;
- a candidate is calibrated on at most (number of groups) x 2 aggregated counts with the
  compiled kernels of :mod:`psl_core.calibration`, never by refitting an estimator;
- ``threshold_search="bisect"`` finds the best cut of each (feature, score) in a
  logarithmic number of evaluations assuming the criterion is quasi-convex in the cut;
  ``"brute"`` evaluates every cut.
"""

from dataclasses import dataclass

import numpy as np
from numba import njit

from .calibration import _calibrate_dense

ENTROPY = 0
SOFT_RANK = 1
CRITERION_CODES = {"entropy": ENTROPY, "soft_rank": SOFT_RANK}

# Candidates whose criteria differ by less than this are ties; ties go to the candidate
# enumerated first (features in column order, scores in increasing order, the plain
# literal before its complement, thresholds in increasing order).
TIE_TOLERANCE = 1e-12
# A bisect grid that comes back flat is refined up to this many points; a grid still
# flat then is a plateau (typically a score of the wrong sign, which pools every total),
# and its first cut is taken. This bounds the evaluations per track.
MAX_GRID_POINTS = 65


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
def _label_value(
    start, positions, p, s, negated, totals_of_group, group_slot,
    reach_lo_slot, reach_hi_slot, method, criterion, pos, neg, q,
):
    """Criterion after adding a literal to the current totals of labelled rows.

    The literal is true for rows after the first p of the feature's sorted order
    (``value > cut``), or for the first p when ``negated``; its rows move from their
    group's slot to the slot ``s`` higher. ``pos``, ``neg``, ``q`` are work arrays as
    long as the dense range of totals.
    """
    pos[:] = 0.0
    neg[:] = 0.0
    for g in range(group_slot.shape[0]):
        low_neg = _count_below(start, positions, 2 * g, p)
        low_pos = _count_below(start, positions, 2 * g + 1, p)
        high_neg = totals_of_group[g, 0] - low_neg
        high_pos = totals_of_group[g, 1] - low_pos
        slot = group_slot[g]
        if negated:
            low_neg, high_neg = high_neg, low_neg
            low_pos, high_pos = high_pos, low_pos
        pos[slot] += low_pos
        neg[slot] += low_neg
        pos[slot + s] += high_pos
        neg[slot + s] += high_neg
    _calibrate_dense(pos, neg, method, reach_lo_slot + min(0, s), reach_hi_slot + max(0, s), q)
    return _criterion_value(pos, neg, q, criterion)


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


LABELS = 0
PAIRS = 1


@njit(cache=True)
def _candidate_value(
    problem, start, positions, p, s, negated, group_int, group_float,
    reach_lo_slot, reach_hi_slot, method, criterion, pos, neg, q,
):
    """Criterion of one candidate for labelled rows or for comparison pairs."""
    if problem == PAIRS:
        return _pair_value(start, positions, p, s, negated, group_int, group_float[:, 0])
    return _label_value(
        start, positions, p, s, negated, group_float, group_int,
        reach_lo_slot, reach_hi_slot, method, criterion, pos, neg, q,
    )


@njit(cache=True)
def _search_feature(
    problem, start, positions, cut_positions, group_int, group_float, scores, negated,
    size, reach_lo_slot, reach_hi_slot, method, criterion, brute,
):
    """Best cut of one feature for every track (score, polarity).

    ``start``/``positions`` are the feature's count buckets (:func:`_code_buckets` for
    labelled rows, :meth:`PairEvaluator.search` for pairs); ``group_int``/``group_float``
    describe the current groups (slots and counts for labels, differences and sizes
    for pairs).

    ``brute`` evaluates every cut. Otherwise each round evaluates a grid of cuts on the
    track's current interval and keeps the interval between the grid neighbours of the
    first and last grid minimum: for a quasi-convex criterion that interval holds every
    minimizer. A round that cannot shrink the interval doubles the grid, up to
    :data:`MAX_GRID_POINTS`; a grid of that size that is entirely flat is a plateau and
    its first cut is taken. Once the interval is no longer than the grid every cut in
    it is evaluated, so on quasi-convex criteria without such a plateau the answer
    equals brute force: the first minimizing cut.

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
    memo = np.full(n_cuts, np.nan)
    touched = np.empty(n_cuts, dtype=np.int64)
    best_cut = np.zeros(n_tracks, dtype=np.int64)
    best_value = np.zeros(n_tracks)
    grid = np.empty(n_cuts, dtype=np.int64)
    values = np.empty(n_cuts)
    for t in range(n_tracks):
        n_touched = 0
        lo = 0
        hi = n_cuts - 1
        points = n_cuts if brute else 5
        while True:
            exhaustive = hi - lo + 1 <= points
            n_grid = hi - lo + 1 if exhaustive else points
            for i in range(n_grid):
                if exhaustive:
                    grid[i] = lo + i
                else:
                    grid[i] = lo + int(np.floor(i * (hi - lo) / (points - 1) + 0.5))
                c = grid[i]
                if np.isnan(memo[c]):
                    memo[c] = _candidate_value(
                        problem, start, positions, cut_positions[c], scores[t], negated[t],
                        group_int, group_float, reach_lo_slot, reach_hi_slot,
                        method, criterion, pos, neg, q,
                    )
                    touched[n_touched] = c
                    n_touched += 1
                values[i] = memo[c]
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
            plateau = first == 0 and last == n_grid - 1 and points >= MAX_GRID_POINTS
            if exhaustive or plateau:
                best_cut[t] = grid[first]
                best_value[t] = values[first]
                break
            new_lo = grid[max(first - 1, 0)]
            new_hi = grid[min(last + 1, n_grid - 1)]
            shrunk = new_lo > lo or new_hi < hi
            points = 5 if shrunk else 2 * points - 1
            lo = new_lo
            hi = new_hi
        for i in range(n_touched):
            memo[touched[i]] = np.nan
    return best_cut, best_value


@dataclass(frozen=True)
class Option:
    """The best cut found for one (feature, score, polarity) at one stage."""

    value: float
    feature: int
    cut: int
    score: int
    negated: bool


class LabelEvaluator:
    """Searches candidates on labelled rows whose current totals are set per stage.

    Parameters
    ----------
    features : list of CandidateFeature
    y : ndarray of int, shape (n,)
        0/1 labels.
    score_set : sequence of int
    method : int
        Calibration code (see :data:`psl_core.calibration.CALIBRATION_CODES`).
    criterion : int
        Criterion code (see :data:`CRITERION_CODES`).
    """

    def __init__(self, features, y, score_set, method, criterion):
        self.features = features
        self.y = np.asarray(y, dtype=np.int64)
        self.n_rows = len(self.y)
        self.max_abs_score = int(max(abs(s) for s in score_set))
        self.method = method
        self.criterion = criterion

    def set_totals(self, totals, reach_lo, reach_hi):
        """Group the rows by their current totals (reachable range [reach_lo, reach_hi])."""
        distinct, group = np.unique(totals, return_inverse=True)
        self.codes = (2 * group + self.y).astype(np.int64)
        counts = np.bincount(self.codes, minlength=2 * len(distinct))
        self.totals_of_group = counts.reshape(len(distinct), 2).astype(float)
        offset = min(int(distinct[0]), reach_lo) - self.max_abs_score
        self.size = max(int(distinct[-1]), reach_hi) + self.max_abs_score - offset + 1
        self.group_slot = (distinct - offset).astype(np.int64)
        self.reach_lo_slot = reach_lo - offset
        self.reach_hi_slot = reach_hi - offset

    def current_value(self):
        """Criterion of the current totals (no literal added)."""
        _, value = self.search(-1, np.zeros(1), np.zeros(1), np.zeros(1), brute=True)
        return value[0]

    def search(self, feature, cut_positions, scores, negated, brute):
        """Best cut per (score, polarity) track of one feature; see :func:`_search_feature`.

        ``feature = -1`` with one cut and score 0 evaluates the totals as they are.
        """
        order = self.features[feature].order if feature >= 0 else np.arange(self.n_rows)
        start, positions = _code_buckets(self.codes, order, 2 * len(self.group_slot))
        return _search_feature(
            LABELS, start, positions, np.asarray(cut_positions, dtype=np.int64), self.group_slot,
            self.totals_of_group, np.asarray(scores, dtype=np.int64), np.asarray(negated, dtype=np.bool_),
            self.size, self.reach_lo_slot, self.reach_hi_slot, self.method, self.criterion, brute,
        )


class PairEvaluator:
    """Searches candidates by the soft rank loss over comparison pairs (Sec. 4.5).

    Parameters
    ----------
    features : list of CandidateFeature
    pairs : ndarray of int, shape (P, 2)
        Rows of (preferred row index, other row index).
    """

    def __init__(self, features, pairs):
        self.features = features
        self.pairs = np.asarray(pairs, dtype=np.int64)
        self.n_rows = len(features[0].values)
        self.ranks = []
        for feature in features:
            rank = np.empty(self.n_rows, dtype=np.int64)
            rank[feature.order] = np.arange(self.n_rows)
            self.ranks.append(rank)

    def set_totals(self, totals, reach_lo, reach_hi):
        """Group the pairs by their current difference of totals."""
        difference = totals[self.pairs[:, 0]] - totals[self.pairs[:, 1]]
        self.group_difference, self.group = np.unique(difference, return_inverse=True)
        sizes = np.bincount(self.group, minlength=len(self.group_difference)).astype(float)
        self.group_size = np.column_stack([sizes, sizes])

    def current_value(self):
        """Soft rank loss of the current totals."""
        _, value = self.search(-1, np.zeros(1), np.zeros(1), np.zeros(1), brute=True)
        return value[0]

    def search(self, feature, cut_positions, scores, negated, brute):
        """Best cut per (score, polarity) track of one feature (``-1``: no feature)."""
        n_codes = 4 * len(self.group_difference)
        if feature >= 0:
            rank = self.ranks[feature]
            preferred, other = rank[self.pairs[:, 0]], rank[self.pairs[:, 1]]
            ahead = preferred > other
            low = np.where(ahead, other, preferred)
            high = np.where(ahead, preferred, other)
            base = 4 * self.group + np.where(ahead, 0, 2)
            codes = np.concatenate([base, base + 1])
            places = np.concatenate([low, high])
            order = np.lexsort((places, codes))
            positions = places[order]
            start = np.concatenate(([0], np.cumsum(np.bincount(codes, minlength=n_codes))))
        else:
            positions = np.zeros(0, dtype=np.int64)
            start = np.zeros(n_codes + 1, dtype=np.int64)
        return _search_feature(
            PAIRS, start.astype(np.int64), positions.astype(np.int64),
            np.asarray(cut_positions, dtype=np.int64), self.group_difference.astype(np.int64),
            self.group_size, np.asarray(scores, dtype=np.int64), np.asarray(negated, dtype=np.bool_),
            1, 0, 0, 0, 0, brute,
        )


def first_minimum(values):
    """Index of the first value within :data:`TIE_TOLERANCE` of the minimum."""
    values = np.asarray(values)
    return int(np.flatnonzero(values <= values.min() + TIE_TOLERANCE)[0])


def stage_options(evaluator, available, tracks, threshold_search):
    """Best cut of every (feature, score, polarity) still available at this stage.

    Parameters
    ----------
    evaluator : LabelEvaluator
    available : sequence of int
        Feature indices not used yet, in enumeration order.
    tracks : list of (score, negated)
        The score/polarity pairs to try (see :func:`score_tracks`).
    threshold_search : {"bisect", "brute"}

    Returns
    -------
    list of Option, in enumeration order.
    """
    scores = np.array([s for s, _ in tracks], dtype=np.int64)
    negated = np.array([n for _, n in tracks], dtype=np.bool_)
    options = []
    for f in available:
        cuts, values = evaluator.search(
            f, evaluator.features[f].positions, scores, negated, threshold_search == "brute"
        )
        for (s, n), cut, value in zip(tracks, cuts, values):
            options.append(Option(float(value), int(f), int(cut), int(s), bool(n)))
    return options


def score_tracks(score_set, first_stage):
    """The (score, negated) pairs to try; see the module docstring of binarization.

    At the first stage only the largest absolute score is used (paper, footnote 2):
    with isotonic calibration every positive scaling of one literal gives the same
    estimates, so the sign is the only choice that matters.
    """
    scores = sorted(score_set)
    if first_stage:
        top = max(abs(s) for s in scores)
        scores = [s for s in scores if abs(s) == top]
    available = set(score_set)
    tracks = []
    for s in scores:
        tracks.append((s, False))
        if -s not in available:
            tracks.append((s, True))
    return tracks


def indicator(feature, cut, negated):
    """0/1 values of the literal (feature, cut, polarity) on the training rows."""
    hit = feature.values > feature.cuts[cut]
    return (hit != negated).astype(np.int64)


def greedy_search(
    evaluator, score_set, max_stages, threshold_search, lookahead, progress=None,
):
    """Greedy list construction with optional lookahead.

    Parameters
    ----------
    evaluator : LabelEvaluator or PairEvaluator
    score_set : sequence of int
    max_stages : int or None
        Maximal number of features; None = until every feature is used.
    threshold_search : {"bisect", "brute"}
    lookahead : int >= 1
        1 = plain greedy. With L > 1 each stage's best option per (feature, score,
        polarity) is rated by the best criterion reachable after L - 1 further greedy
        stages, and the option with the best rating is kept.
    progress : callable or None
        Called as ``progress(stage, n_stages)`` after each stage.

    Returns
    -------
    list of Option
        The chosen option of each stage, in order.
    """
    features = evaluator.features
    n_rows = evaluator.n_rows
    n_stages = len(features) if max_stages is None else min(max_stages, len(features))
    totals = np.zeros(n_rows, dtype=np.int64)
    reach = (0, 0)
    available = list(range(len(features)))
    chosen = []
    for stage in range(n_stages):
        options = _options_at(evaluator, totals, reach, available, score_set, threshold_search, not chosen)
        if lookahead > 1:
            ratings = [
                _rating(evaluator, option, totals, reach, available, score_set, threshold_search, lookahead - 1)
                for option in options
            ]
        else:
            ratings = [option.value for option in options]
        best = options[first_minimum(ratings)]
        chosen.append(best)
        totals, reach = _apply(features, best, totals, reach)
        available.remove(best.feature)
        if progress is not None:
            progress(stage + 1, n_stages)
    return chosen


def _options_at(evaluator, totals, reach, available, score_set, threshold_search, first_stage):
    evaluator.set_totals(totals, *reach)
    tracks = score_tracks(score_set, first_stage)
    return stage_options(evaluator, available, tracks, threshold_search)


def _apply(features, option, totals, reach):
    new_totals = totals + option.score * indicator(features[option.feature], option.cut, option.negated)
    new_reach = (reach[0] + min(0, option.score), reach[1] + max(0, option.score))
    return new_totals, new_reach


def _rating(evaluator, option, totals, reach, available, score_set, threshold_search, depth):
    totals, reach = _apply(evaluator.features, option, totals, reach)
    remaining = [f for f in available if f != option.feature]
    value = option.value
    for _ in range(depth):
        if not remaining:
            break
        options = _options_at(evaluator, totals, reach, remaining, score_set, threshold_search, False)
        best = options[first_minimum([o.value for o in options])]
        value = best.value
        totals, reach = _apply(evaluator.features, best, totals, reach)
        remaining.remove(best.feature)
    return value
