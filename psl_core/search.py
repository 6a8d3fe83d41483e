"""Construction of a probabilistic scoring list (paper, Sec. 4.1, 4.3 and 4.5).

Stage k adds the (feature, score, threshold) that minimizes the selection criterion of
the calibrated stage-k estimates: the expected entropy (eq. 7) or the soft rank loss
(eq. 14) on the training data, or a cross-validated Brier score / log-loss. Labelled rows
are judged by :class:`LabelEvaluator`, pairwise comparisons by :class:`PairEvaluator`;
:func:`greedy_search` is the paper's greedy search, or a beam search over prefixes.

How it is fast:

- each feature is sorted once per fit (:mod:`psl_core.binarization`); at a stage the
  training rows are grouped by their current total, and the class counts of every group
  below a threshold are prefix counts along the feature's sorted order;
- a candidate is calibrated on at most (number of groups) x 2 aggregated counts with the
  compiled kernels of :mod:`psl_core.kernels`, never by refitting an estimator;
- ``threshold_search="bisect"`` finds the best cut of each (feature, score) in a
  logarithmic number of evaluations assuming the criterion is quasi-convex in the cut;
  ``"brute"`` evaluates every cut.
"""

from dataclasses import dataclass, field

import numpy as np

from .binarization import CandidateFeature, row_index_dtype
from .calibration import NO_SHRINK
from .candidates import Families, candidate_cuts, feature_budget, score_tracks
from .constraints import allowed_tracks
from .errors import RequiredColumnError
from .kernels import (
    CV_BRIER,
    CV_LOG_LOSS,
    ENTROPY,
    LABELS,
    NESTED_CV_BRIER,
    NESTED_CV_LOG_LOSS,
    PAIRS,
    SOFT_RANK,
    TIE_TOLERANCE,
    _code_buckets,
    _search_feature,
)

CRITERION_CODES = {
    "entropy": ENTROPY, "soft_rank": SOFT_RANK, "cv_brier": CV_BRIER, "cv_log_loss": CV_LOG_LOSS,
    "nested_cv_brier": NESTED_CV_BRIER, "nested_cv_log_loss": NESTED_CV_LOG_LOSS,
}
CROSS_VALIDATED = frozenset(name for name in CRITERION_CODES if "cv_" in name)
"""The criteria that score held-out folds (they need folds, see :class:`LabelEvaluator`)."""
END_REASONS = ("length", "no_gain", "support", "chance")
"""Why a list ends (:func:`greedy_search`): it reached its maximal length (``max_stages``,
one stage per feature, or every feature's uses spent); no candidate improves the
criterion (a cross-validated one on held-out rows, or every best option is constant);
no feature has a cut with ``min_support`` rows per answer left. And (the estimator cuts
the list after the search, :mod:`psl_core.chance`) "chance": past the recommended length,
a question lowers the held-out score by no more than chance."""


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
    prior_strength : float
        Pseudo-counts toward the training rate added to every total's counts before
        calibrating (0 = none), see :func:`psl_core.calibration._shrunk`.
    folds : ndarray of int, shape (n,), or None
        Fold of each row for a cross-validated criterion (values 0..F-1).
    sample_weight : ndarray of float, shape (n,), or None
        Weight of each row in every count (None: 1 each, the paper's counts). The
        criterion and the calibration read weighted class counts; the training rate of
        the pseudo-counts is the weighted one.
    """

    def __init__(self, features, y, score_set, method, criterion, prior_strength=0.0, folds=None,
                 sample_weight=None):
        self.features = features
        self.y = np.asarray(y, dtype=np.int64)
        self.n_rows = len(self.y)
        self.weight = None if sample_weight is None else np.asarray(sample_weight, dtype=float)
        self.folds = np.zeros(self.n_rows, dtype=np.int64) if folds is None else np.asarray(folds, dtype=np.int64)
        self.n_folds = int(self.folds.max()) + 1
        rate = self.y.mean() if self.weight is None else np.average(self.y, weights=self.weight)
        self.shrink = np.array([float(prior_strength), rate])
        self.max_abs_score = int(max(abs(s) for s in score_set))
        self.method = method
        self.criterion = criterion
        self.validated = criterion in {CRITERION_CODES[name] for name in CROSS_VALIDATED}

    def set_totals(self, totals, reach_lo, reach_hi):
        """Group the rows by their current totals (reachable range [reach_lo, reach_hi])."""
        distinct, group = np.unique(totals, return_inverse=True)
        self.codes = ((2 * group + self.y) * self.n_folds + self.folds).astype(np.int64)
        counts = np.bincount(self.codes, weights=self.weight, minlength=2 * self.n_folds * len(distinct))
        self.totals_of_group = counts.reshape(len(distinct), 2 * self.n_folds).astype(float)
        offset = min(int(distinct[0]), reach_lo) - self.max_abs_score
        self.size = max(int(distinct[-1]), reach_hi) + self.max_abs_score - offset + 1
        self.group_slot = (distinct - offset).astype(np.int64)
        self.reach_lo_slot = reach_lo - offset
        self.reach_hi_slot = reach_hi - offset

    def current_value(self):
        """Criterion of the current totals (no literal added)."""
        _, value = self.search(-1, np.zeros(1), np.zeros(1), np.zeros(1), brute=True)
        return value[0]

    def search(self, feature, cut_positions, scores, negated, brute, allowed=None):
        """Best cut per (score, polarity) track of one feature; see :func:`_search_feature`.

        ``allowed`` (bool per cut, default all) marks the cuts that may be chosen.
        ``feature = -1`` with one cut and score 0 evaluates the totals as they are.
        """
        order = self.features[feature].order if feature >= 0 else np.arange(
            self.n_rows, dtype=row_index_dtype(self.n_rows),
        )
        start, positions = _code_buckets(self.codes, order, 2 * self.n_folds * len(self.group_slot))
        if self.weight is None:
            weight_below = np.arange(len(positions) + 1, dtype=float)
        else:
            weight_below = np.concatenate(([0.0], np.cumsum(self.weight[order[positions]])))
        return _search_feature(
            LABELS, start, positions, weight_below, np.asarray(cut_positions, dtype=np.int64),
            _allowed(allowed, cut_positions),
            self.group_slot,
            self.totals_of_group, np.asarray(scores, dtype=np.int64), np.asarray(negated, dtype=np.bool_),
            self.size, self.reach_lo_slot, self.reach_hi_slot, self.method, self.shrink,
            self.criterion, brute,
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
        self.validated = False

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

    def search(self, feature, cut_positions, scores, negated, brute, allowed=None):
        """Best cut per (score, polarity) track of one feature (``-1``: no feature); see
        :meth:`LabelEvaluator.search`."""
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
            PAIRS, start.astype(np.int64), positions.astype(np.int64), np.zeros(1),
            np.asarray(cut_positions, dtype=np.int64), _allowed(allowed, cut_positions),
            self.group_difference.astype(np.int64),
            self.group_size, np.asarray(scores, dtype=np.int64), np.asarray(negated, dtype=np.bool_),
            1, 0, 0, 0, NO_SHRINK, 0, brute,
        )


def _allowed(allowed, cut_positions):
    """The kernel's ``allowed`` array: every cut unless a mask is given."""
    if allowed is None:
        return np.ones(len(cut_positions), dtype=np.bool_)
    return np.asarray(allowed, dtype=np.bool_)


def first_minimum(values):
    """Index of the first value within :data:`TIE_TOLERANCE` of the minimum."""
    values = np.asarray(values)
    return int(np.flatnonzero(values <= values.min() + TIE_TOLERANCE)[0])


def stage_options(
    evaluator, available, tracks, threshold_search, used_cuts=None, min_support=1, directions=None, cut_memo=None,
    blocked=None,
):
    """Best cut of every (feature, score, polarity) still available at this stage.

    Parameters
    ----------
    evaluator : LabelEvaluator
    available : sequence of int
        Feature indices still available, in enumeration order.
    tracks : list of (score, negated)
        The score/polarity pairs to try (see :func:`psl_core.candidates.score_tracks`).
    threshold_search : {"bisect", "brute"}
    used_cuts : dict of int to list of int, optional
        Cuts of a feature that earlier stages use already (a reused numeric feature asks
        a new question: its earlier cuts are not tried again).
    min_support : int >= 1
        Training rows each answer range must hold (:func:`psl_core.candidates.candidate_cuts`); a feature
        without an allowed cut gives no option.
    directions : sequence of int or None
        Monotone direction of each feature's column (+1, -1, 0 for none;
        :mod:`psl_core.constraints`): only the tracks pointing that way are tried.
    cut_memo : dict or None
        :func:`psl_core.candidates.candidate_cuts` of each (feature, used cuts) seen before, kept from stage to
        stage by one search (the same features and ``min_support``): a wide table asks it
        for every feature at every stage, and mostly with the same answer.
    blocked : dict of int to list of int, optional
        Cuts of a feature that may not be chosen: their missing direction contradicts the
        earlier stages' on the same column (:meth:`psl_core.candidates.Families.blocked_cuts`).

    Returns
    -------
    list of Option, in enumeration order.
    """
    arrays = {}  # the kernel's score and polarity arrays, per distinct list of tracks
    memo = {} if cut_memo is None else cut_memo
    options = []
    for f in available:
        feature = evaluator.features[f]
        feature_tracks = tracks if directions is None else allowed_tracks(tracks, directions[f])
        if not feature_tracks:
            continue
        key = (f, tuple((used_cuts or {}).get(f, ())), tuple((blocked or {}).get(f, ())))
        if key not in memo:
            memo[key] = candidate_cuts(feature, min_support, key[1], key[2])
        cut_index, allowed = memo[key]
        if not allowed.any():
            continue
        scores, negated = _track_arrays(arrays, feature_tracks)
        cuts, values = evaluator.search(
            f, feature.positions[cut_index], scores, negated, threshold_search == "brute", allowed
        )
        for (s, n), cut, value in zip(feature_tracks, cuts, values):
            options.append(Option(float(value), int(f), int(cut_index[cut]), int(s), bool(n)))
    return options



def _track_arrays(arrays, tracks):
    """The kernel's score and polarity arrays of ``tracks``, made once per distinct list of tracks."""
    key = tuple(tracks)
    if key not in arrays:
        arrays[key] = (
            np.array([s for s, _ in tracks], dtype=np.int64),
            np.array([n for _, n in tracks], dtype=np.bool_),
        )
    return arrays[key]


@dataclass
class _Prefix:
    """A partial list in the beam: its options, the sum of their criteria, and state
    (``budget``: how many more stages may use each feature)."""

    chosen: list
    cumulative: float
    totals: np.ndarray
    reach: tuple
    budget: np.ndarray
    families: Families

    @property
    def available(self):
        return np.flatnonzero(self.budget > 0).tolist()

    def used_cuts(self):
        return self.families.used_cuts(self.chosen)

    def blocked_cuts(self):
        return self.families.blocked_cuts(self.chosen)

    def extend(self, option, cumulative, totals, reach):
        """The prefix followed by ``option``."""
        return _Prefix(
            self.chosen + [option], cumulative, totals, reach, self.families.spend(self.budget, option.feature),
            self.families,
        )



def greedy_search(
    evaluator, score_set, max_stages, threshold_search, lookahead, progress=None, beam_width=1, max_uses=1,
    min_support=1, penalties=None, directions=None, required=(),
):
    """List construction: greedy, or beam search over prefixes, with optional lookahead.

    Each prefix is extended by the best option per (feature, score, polarity); every
    extension is ranked by the sum of the stagewise criteria of its stages (plus, with
    lookahead, the criterion after further greedy stages instead of its own), and the
    ``beam_width`` best extensions are kept (ties: the one enumerated first); with width 1
    this is the paper's greedy search. At the end, the kept list with the smallest sum of
    stagewise criteria wins: a list that is good early stops early.

    Parameters
    ----------
    evaluator : LabelEvaluator or PairEvaluator
    score_set : sequence of int
    max_stages : int or None
        Maximal number of stages; None = as many as there are candidate features. The list
        is shorter when every feature's uses are spent, when a stage's best option is
        constant, or (cross-validated criterion) when no option improves the held-out score.
    threshold_search : {"bisect", "brute"}
    lookahead : int >= 1
        1 = rank an option by its own criterion; L > 1 rates it by the best criterion after
        L - 1 further greedy stages (never beyond the list's last stage).
    progress : callable or None
        ``progress(stage, n_stages)`` after each stage.
    beam_width : int >= 1
        Prefixes kept per stage.
    max_uses : int >= 1
        Stages a numeric feature may fill, each with a threshold of its own
        (:func:`psl_core.candidates.feature_budget`); 1 is the paper's list (every feature once).
    min_support : int >= 1
        Training rows each answer range must hold (:func:`psl_core.candidates.candidate_cuts`; 1: the paper's
        search). The list ends when no feature has an allowed cut left.
    penalties : SearchCosts or None
        Question costs in criterion units (:func:`psl_core.costs.search_penalties`), added
        to an option's rank unless the prefix already paid its payer (column or group), and
        to the prefix's sum; they change the order of the questions, not where the list
        ends (an option that does not improve is never ranked first). None: no costs.
    directions : sequence of int or None
        Monotone direction of each feature's column (:func:`stage_options`).
    required : sequence of sets of int
        Stage i < len(required) asks one of the features ``required[i]`` (the families of
        one required column): its best non-constant option, whether or not it improves
        the criterion. A required column without an allowed cut raises a
        RequiredColumnError (a DataError naming it).

    Returns
    -------
    chosen : list of Option
        The chosen option of each stage, in order.
    end : str
        Why the list ends where it does: one of :data:`END_REASONS`.
    """
    beam, n_stages = _empty_beam(evaluator, max_stages, max_uses)
    settings = _Settings(score_set, threshold_search, lookahead, min_support, penalties, directions, required, n_stages)
    beam, end = _grow(evaluator, beam, settings, beam_width, progress)
    return beam[first_minimum([prefix.cumulative for prefix in beam])].chosen, end


def _empty_beam(evaluator, max_stages, max_uses):
    """The beam before the first stage (one empty prefix) and the number of stages to search."""
    budget = feature_budget(evaluator.features, max_uses)
    families = Families(evaluator.features)
    # Features that are one question with two missing directions count once.
    first = [f for f, siblings in enumerate(families.siblings) if siblings[0] == f]
    n_stages = len(first) if max_stages is None else min(max_stages, int(budget[first].sum()))
    return [_Prefix([], 0.0, np.zeros(evaluator.n_rows, dtype=np.int64), (0, 0), budget, families)], n_stages


def _grow(evaluator, beam, settings, beam_width, progress):
    """The beam after its last stage, and why the list ends there (:data:`END_REASONS`)."""
    features, n_stages = evaluator.features, settings.n_stages
    end = "length"
    for stage in range(n_stages):
        extensions = [e for prefix in beam for e in _extensions(evaluator, prefix, stage, settings)]
        kept = _first_of_ties(np.array([extension[0] for extension in extensions]), beam_width)
        _, _, best, floor = extensions[kept[0]] if kept else (None, None, None, None)
        if best is None or _constant(features, best) or best.value >= floor:
            # No allowed cut left, or the best option changes no probability or (cross-validated)
            # does not improve the held-out score: a question that cannot help is not asked.
            end = _why_none_left(features, beam[0]) if best is None else "no_gain"
            if progress is not None:
                progress(n_stages, n_stages)
            break
        beam = _next_beam(features, [extensions[index] for index in kept], settings.penalties)
        if progress is not None:
            progress(stage + 1, n_stages)
    return beam, end


@dataclass(frozen=True)
class _Settings:
    """The settings of one :func:`greedy_search` that every stage reads."""

    score_set: tuple
    threshold_search: str
    lookahead: int
    min_support: int
    penalties: object
    directions: object
    required: tuple
    n_stages: int
    cut_memo: dict = field(default_factory=dict)  # stage_options' candidate cuts, kept from stage to stage


def _extensions(evaluator, prefix, stage, settings):
    """Every option that extends ``prefix`` at ``stage``, ranked: (rank, prefix, option, floor)."""
    features = evaluator.features
    forced = stage < len(settings.required)
    available = [f for f in prefix.available if f in settings.required[stage]] if forced else prefix.available
    options = _options_at(
        evaluator, prefix.totals, prefix.reach, available, settings.score_set, settings.threshold_search, stage == 0,
        prefix.used_cuts(), settings.min_support, settings.directions, settings.cut_memo, prefix.blocked_cuts(),
    )
    if forced:
        options = [option for option in options if not _constant(features, option)]
        if not options:
            column = features[min(settings.required[stage])].column
            raise RequiredColumnError(
                f"the required column {column!r} has no question with "
                f"at least min_support={settings.min_support} training rows per answer (or none its "
                "monotone direction allows): lower min_support, or leave it out of required",
                column, settings.min_support,
            )
    # A literal must improve a held-out score on the list as it is to be worth asking
    # (a required question is asked whatever it improves).
    floor = evaluator.current_value() - TIE_TOLERANCE if evaluator.validated and not forced else np.inf
    # Look ahead at most to the list's last stage: the last stage is rated by itself.
    depth = min(settings.lookahead - 1, settings.n_stages - 1 - stage)
    extensions = []
    for option in options:
        rating = option.value if depth == 0 else _rating(
            evaluator, option, prefix, settings.score_set, settings.threshold_search, depth, settings.min_support,
            settings.directions,
        )
        rank = prefix.cumulative + rating
        if settings.penalties is not None:
            rank = np.inf if option.value >= floor or _constant(features, option) else (
                rank + _penalty(settings.penalties, option, prefix)
            )
        extensions.append((rank, prefix, option, floor))
    return extensions


def _next_beam(features, kept, penalties):
    """The prefixes of the next stage: each kept extension applied to its prefix."""
    beam = []
    for _, prefix, option, _ in kept:
        if _constant(features, option):
            continue  # the same as its prefix, which the beam already had
        totals, reach = apply_option(features, option, prefix.totals, prefix.reach)
        penalty = 0.0 if penalties is None else _penalty(penalties, option, prefix)
        beam.append(prefix.extend(option, prefix.cumulative + option.value + penalty, totals, reach))
    return beam


def _why_none_left(features, prefix):
    """Why no option extends ``prefix``: "support" when a question is left that ``min_support``
    forbids, "length" when every question left was asked (in one of its forms)."""
    used = prefix.used_cuts()
    left = any(candidate_cuts(features[f], 1, used.get(f, ()))[1].any() for f in prefix.available)
    return "support" if left else "length"


def _penalty(penalties, option, prefix):
    """An option's question cost in criterion units: 0 when the prefix already paid for it."""
    key = penalties.payers[option.feature]
    if any(penalties.payers[chosen.feature] == key for chosen in prefix.chosen):
        return 0.0
    return float(penalties.penalty[option.feature])


def _constant(features, option):
    """Whether an option's literal has the same value on every training row (a cut below
    the smallest or above the largest value): it adds the same points to every total."""
    below = features[option.feature].positions[option.cut]
    return below == 0 or below == len(features[option.feature].values)


def _first_of_ties(ranks, width):
    """Indices of the ``width`` smallest ranks; near-equal ranks keep enumeration order."""
    remaining = list(range(len(ranks)))
    kept = []
    while remaining and len(kept) < width:
        best = remaining[first_minimum(ranks[remaining])]
        kept.append(best)
        remaining.remove(best)
    return kept


def _options_at(
    evaluator, totals, reach, available, score_set, threshold_search, first_stage, used_cuts=None, min_support=1,
    directions=None, cut_memo=None, blocked=None,
):
    evaluator.set_totals(totals, *reach)
    tracks = score_tracks(score_set, first_stage)
    return stage_options(
        evaluator, available, tracks, threshold_search, used_cuts, min_support, directions, cut_memo, blocked,
    )


def apply_option(features, option, totals, reach):
    """The rows' totals and the reachable range after adding ``option``'s points."""
    new_totals = totals + option.score * features[option.feature].indicator(option.cut, option.negated)
    new_reach = (reach[0] + min(0, option.score), reach[1] + max(0, option.score))
    return new_totals, new_reach


def _rating(evaluator, option, prefix, score_set, threshold_search, depth, min_support, directions=None):
    """The criterion after ``option`` and ``depth`` more greedy stages (lookahead)."""
    totals, reach = apply_option(evaluator.features, option, prefix.totals, prefix.reach)
    path = prefix.extend(option, 0.0, totals, reach)
    value = option.value
    for _ in range(depth):
        if not path.available:
            break
        options = _options_at(
            evaluator, path.totals, path.reach, path.available, score_set, threshold_search, False, path.used_cuts(),
            min_support, directions, None, path.blocked_cuts(),
        )
        if not options:
            break
        best = options[first_minimum([o.value for o in options])]
        value = best.value
        totals, reach = apply_option(evaluator.features, best, path.totals, path.reach)
        path = path.extend(best, 0.0, totals, reach)
    return value


def prior_value(evaluator):
    """The criterion of stage 0, the prior: every row at total 0 (the value the first stage
    must improve on, and the scale of the cost penalty)."""
    evaluator.set_totals(np.zeros(evaluator.n_rows, dtype=np.int64), 0, 0)
    return evaluator.current_value()


def preprocess_cuts(evaluator, score_set, threshold_search, min_support, directions=None):
    """Binarize numeric features beforehand: each feature's best allowed cut on its own
    (a feature without an allowed cut is left out), in its monotone direction if any."""
    evaluator.set_totals(np.zeros(evaluator.n_rows, dtype=np.int64), 0, 0)
    tracks = score_tracks(score_set, first_stage=True)
    options = stage_options(
        evaluator, range(len(evaluator.features)), tracks, threshold_search, None, min_support, directions,
    )
    fixed = []
    for f, feature in enumerate(evaluator.features):
        own = [o for o in options if o.feature == f]
        if not own:
            continue
        best = own[first_minimum([o.value for o in own])]
        fixed.append(
            CandidateFeature(
                feature.column, feature.kind, feature.category, feature.values, feature.order,
                feature.cuts[[best.cut]], feature.positions[[best.cut]], feature.missing_high, feature.levels,
            )
        )
    return fixed
