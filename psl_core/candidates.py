"""Which literals a stage may try (paper, Sec. 4.1 and 4.3): the candidates of the search.

The greedy search (:mod:`psl_core.search`) tries, at every stage, each candidate feature's
cuts (:func:`candidate_cuts`: those with enough rows per answer, not asked before) with each
(score, polarity) track (:func:`score_tracks`). The feature families that are one question
(:class:`Families`) share their uses and their cuts, so a question asked once is never a
candidate again; :func:`feature_budget` says how many stages each feature may fill.
"""

import numpy as np

from .binarization import CATEGORY, blocked_cuts


def candidate_cuts(feature, min_support, used=(), blocked=()):
    """The candidate cuts of ``feature`` at a stage, and which of them may be chosen.

    Every cut but those of earlier stages (``used``) is a candidate. A candidate may be
    chosen when each of the answer ranges it creates holds at least ``min_support``
    training rows: at least that many rows on each side of it, and at least that many
    between it and each used cut of the same feature. A cut that isolates a handful of
    extreme training cases ("BMI > 45.3" for 6 patients) is what a greedy search
    overfits. With missing values (:mod:`psl_core.binarization`) a threshold must leave as
    many measured rows on each side as well. ``min_support = 1`` allows every candidate
    (the paper). The ``blocked`` cuts may not be chosen either: with missing values, their
    direction would put a missing answer where an earlier stage's does not
    (:func:`psl_core.binarization.blocked_cuts`). A numeric feature's
    two outer cuts (constant literals, see :mod:`psl_core.binarization`) are allowed: the
    threshold search evaluates them first (:func:`psl_core.kernels._search_feature`).
    The cuts that may not be chosen stay candidates, so that the threshold search runs
    its rounds over the same cuts whatever ``min_support`` is.

    Parameters
    ----------
    feature : CandidateFeature
    min_support : int >= 1
    used : sequence of int
        Cut indices of earlier stages.
    blocked : sequence of int
        Cut indices that contradict earlier stages' missing directions.

    Returns
    -------
    cut_index : ndarray of int, shape (C',)
        Increasing indices of the candidate cuts.
    allowed : ndarray of bool, shape (C',)
        Which may be chosen; all False when no cut other than the outer ones may.
    """
    positions = feature.positions
    n_rows = len(feature.values)
    allowed = (positions >= min_support) & (positions <= n_rows - min_support)
    if feature.missing_high is not None:
        # With missing answers on one side, a threshold must also leave min_support measured
        # rows on each side of it; the cut that asks "is the value missing?" only the above.
        n_missing = int(np.isnan(feature.values).sum())
        measured = positions - (0 if feature.missing_high else n_missing)
        allowed &= ((measured >= min_support) & (measured <= n_rows - n_missing - min_support)) | ~np.isfinite(
            feature.cuts
        )
    for cut in used:
        allowed &= np.abs(positions - positions[cut]) >= min_support
    allowed[list(blocked)] = False
    cut_index = np.arange(len(positions))
    if len(used):
        cut_index = np.delete(cut_index, list(used))
    if not allowed[cut_index].any():
        return cut_index, np.zeros(len(cut_index), dtype=np.bool_)
    return cut_index, (allowed | (positions == 0) | (positions == n_rows))[cut_index]


def score_tracks(score_set, first_stage):
    """The (score, negated) pairs to try; see the module docstring of binarization.

    At the first stage only the largest absolute score is used (paper, footnote 2):
    with isotonic calibration every positive scaling of one literal gives the same
    estimates, so the sign is the only choice that matters. Scores are tried by
    decreasing absolute value, positive first, so that among tied candidates the larger
    score wins, as in the reference implementation.
    """
    scores = sorted(score_set, key=lambda s: (-abs(s), -s))
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


class Families:
    """The candidate features that are one question, and the questions a list has asked.

    The families of one column and category with a different missing direction
    (:mod:`psl_core.binarization`) are one question: they share their uses and their cuts,
    so a threshold (or "is it missing?") asked once is not asked again with the other
    direction. A categorical column's families ask the same question in more than one
    way: "x = a" (one-vs-rest), "x in {a}" (a grouping cut that keeps one level) and their
    complements ("x in {b, c}" with three levels, "x = b" with two) split the patients
    alike. Once a list asks one of them, none is a candidate again: asked twice with
    different points ("ESR = 51+" at stage 1 with -3 and at stage 4 with +1), a question
    only re-weights its first answer, and the clinician answers it once.
    """

    def __init__(self, features):
        by_key, by_column = {}, {}
        for f, feature in enumerate(features):
            by_key.setdefault((feature.column, feature.category), []).append(f)
            by_column.setdefault(feature.column, []).append(f)
        self.features = features
        self.siblings = [by_key[(feature.column, feature.category)] for feature in features]
        self.same_column = [by_column[feature.column] for feature in features]
        self._levels = {}  # a categorical column's levels, from its one-vs-rest families
        for feature in features:
            if feature.kind == CATEGORY and feature.levels is None:
                self._levels.setdefault(feature.column, set()).add(feature.category)
        self._keys = {}  # a feature's cuts as questions (:meth:`_cut_keys`), computed once per fit

    def used_cuts(self, chosen):
        """Cut indices each feature may no longer use, given the chosen options: the chosen
        cut itself, and every cut of the same column that asks the same question."""
        used = {}
        for option in chosen:
            related = self.same_column[option.feature]
            if len(related) == 1:
                used.setdefault(option.feature, []).append(option.cut)
                continue
            key = self._cut_keys(option.feature)[option.cut]
            for other in related:
                keys = self._cut_keys(other)
                same = np.flatnonzero(keys == key) if isinstance(keys, np.ndarray) else [
                    cut for cut, other_key in enumerate(keys) if other_key == key
                ]
                if len(same):
                    used.setdefault(other, []).extend(np.asarray(same).tolist())
        return used

    def blocked_cuts(self, chosen):
        """Cut indices each feature may not use: their missing direction contradicts the chosen options'."""
        asked = [(self.features[o.feature], o.cut) for o in chosen if self.features[o.feature].missing_high is not None]
        columns = {other.column for other, _ in asked}
        blocked = {}
        for f, feature in enumerate(self.features if columns else ()):
            if feature.column in columns:
                cuts = np.flatnonzero(blocked_cuts(feature, asked))
                if len(cuts):
                    blocked[f] = cuts.tolist()
        return blocked

    def _cut_keys(self, f):
        """Feature ``f``'s cuts as the questions they ask: the threshold (inf for "is the
        value missing?"), or for a categorical column the levels on one side of the answer
        (the side that sorts first, so that a question and its complement are one)."""
        if f not in self._keys:
            feature = self.features[f]
            cuts = np.asarray(feature.cuts, dtype=float)
            if feature.kind != CATEGORY:
                self._keys[f] = np.where(np.isfinite(cuts), cuts, np.inf)
            else:
                levels = self._levels.get(feature.column, set())
                self._keys[f] = [_partition(_levels_above(feature, cut), levels) for cut in cuts]
        return self._keys[f]

    def spend(self, budget, feature):
        """The budget after one use of ``feature`` (and of its siblings)."""
        budget = budget.copy()
        budget[self.siblings[feature]] -= 1
        return budget


def feature_budget(features, max_uses):
    """Stages each candidate feature may fill: ``max_uses`` for a numeric feature with
    more than one candidate cut (a new threshold each time), 1 for the others.

    Returns
    -------
    ndarray of int, shape (n_features,)
    """
    return np.array([min(max_uses, len(f.cuts)) if len(f.cuts) > 1 else 1 for f in features], dtype=np.int64)


def _levels_above(feature, cut):
    """The levels of a categorical family's rows with ``value > cut``: the category of a
    one-vs-rest indicator above its cut, a grouping's levels ranked above it."""
    if feature.levels is None:
        return {feature.category} if 0.0 <= cut < 1.0 else set()
    return {level for rank, level in enumerate(feature.levels) if rank > cut}


def _partition(side, levels):
    """The split of a column's ``levels`` into ``side`` and the rest, as one key whichever
    side is named."""
    side = frozenset(side) & frozenset(levels)
    return min(tuple(sorted(side)), tuple(sorted(frozenset(levels) - side)))
