"""The greedy search against an exhaustive, independent implementation (Sec. 4.1, 4.3)."""

import numpy as np
import pytest
from sklearn.isotonic import IsotonicRegression
from sklearn.metrics import roc_auc_score

from psl_core import PAPER_SETUP, ProbabilisticScoringList
from psl_core.binarization import candidate_features, numeric_cuts, read_columns
from psl_core.candidates import score_tracks
from psl_core.recommend import stratified_folds
from psl_core.search import TIE_TOLERANCE, LabelEvaluator


def entropy_bits(p):
    p = np.clip(p, 1e-300, 1 - 1e-16)
    h = -(p * np.log2(p) + (1 - p) * np.log2(1 - p))
    return np.where((p <= 1e-300) | (p >= 1 - 1e-16), 0.0, h)


def naive_isotonic(totals, y):
    """Calibrated estimates of every row with scikit-learn's own isotonic regression."""
    return IsotonicRegression(increasing=True).fit(totals, y).predict(totals)


def naive_criterion(totals, y, loss, folds=None):
    if loss.startswith("cv_"):
        total = 0.0
        for f in np.unique(folds):
            train, test = folds != f, folds == f
            model = IsotonicRegression(increasing=True, out_of_bounds="clip").fit(totals[train], y[train])
            q = model.predict(totals[test])
            if loss == "cv_brier":
                total += np.sum((q - y[test]) ** 2)
            else:
                q = np.clip(q, 1e-3, 1 - 1e-3)
                total -= np.sum(y[test] * np.log(q) + (1 - y[test]) * np.log(1 - q))
        return total / len(y)
    q = naive_isotonic(totals, y)
    if loss == "entropy":
        return float(np.mean(entropy_bits(q)))
    return 1.0 - roc_auc_score(y, q)


def all_candidates(X, score_set, first_stage, used, max_uses=1, min_support=1):
    """(feature, cut, score, negated, indicator) of every candidate, in enumeration order.

    ``used`` maps a column to the cuts earlier stages took: a binary column is used once,
    a numeric one up to ``max_uses`` times, never twice at the same cut. A cut is a
    candidate when every answer range of its column (between consecutive thresholds of the
    column's used cuts and this one) holds at least ``min_support`` rows; a column's outer
    cuts (constant literals) when some cut of it is.
    """
    tracks = score_tracks(score_set, first_stage)
    for j in range(X.shape[1]):
        column = X[:, j]
        if np.isin(column, (0, 1)).all():
            cuts = np.array([0.5])
        else:
            cuts, _ = numeric_cuts(column)
        taken = used.get(j, [])
        if len(taken) >= (max_uses if len(cuts) > 1 else 1):
            continue
        supported = [
            c for c in range(len(cuts))
            if c not in taken and _smallest_range(column, cuts[taken + [c]]) >= min_support
        ]
        outer = {0, len(cuts) - 1} - set(supported) if len(cuts) > 1 and supported else set()
        for s, negated in tracks:
            for c, cut in enumerate(cuts):
                if c in supported or c in outer:
                    yield j, c, s, negated, ((column > cut) != negated).astype(int)


def _smallest_range(column, thresholds):
    """Rows in the smallest of the ranges into which ``thresholds`` cut ``column``
    (0 when a threshold lies outside the values)."""
    edges = np.concatenate(([-np.inf], np.sort(thresholds), [np.inf]))
    return min(int(np.sum((column > lo) & (column <= hi))) for lo, hi in zip(edges[:-1], edges[1:]))


def random_data(seed, n=40):
    rng = np.random.default_rng(seed)
    X = np.column_stack(
        [
            rng.integers(0, 5, n).astype(float),  # few distinct values
            rng.integers(0, 2, n).astype(float),  # binary
            np.round(rng.normal(size=n), 1),
        ]
    )
    logit = X[:, 0] - 2 + 1.5 * X[:, 1] - X[:, 2]
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    return X, y


@pytest.mark.parametrize("max_uses, min_support", [(1, 1), (2, 1), (2, 6)])
@pytest.mark.parametrize("loss", ["entropy", "soft_rank", "cv_brier", "cv_log_loss"])
@pytest.mark.parametrize("seed", range(6))
def test_each_stage_is_the_exhaustive_minimizer(seed, loss, max_uses, min_support):
    X, y = random_data(seed)
    score_set = (-2, -1, 1, 2)
    psl = ProbabilisticScoringList(
        score_set=score_set, calibration="isotonic", prior_strength=0.0, threshold_search="brute",
        loss=loss, cv_folds=3, random_state=seed, max_feature_uses=max_uses, min_support=min_support,
    ).fit(X, y)
    folds = stratified_folds(y, 3, seed, list(X.T))
    totals = np.zeros(len(y), dtype=int)
    used = {}
    for k, (literal, score) in enumerate(zip(psl.literals_, psl.scores_)):
        values = []
        for j, c, s, negated, hit in all_candidates(X, score_set, k == 0, used, max_uses, min_support):
            values.append(((j, c, s, negated), naive_criterion(totals + s * hit, y, loss, folds)))
        best = min(v for _, v in values)
        first = next(key for key, v in values if v <= best + 1e-9)
        chosen_hit = literal.evaluate(X[:, literal.column])
        chosen_value = naive_criterion(totals + score * chosen_hit, y, loss, folds)
        # the greedy choice minimizes the criterion; ties go to the first in enumeration order
        assert chosen_value == pytest.approx(best, abs=1e-9)
        assert psl.stage_criterion_[k + 1] == pytest.approx(chosen_value, abs=1e-9)
        assert (literal.column, score, literal.negated) == (first[0], first[2], first[3])
        totals = totals + score * chosen_hit
        cuts = np.array([0.5]) if literal.threshold is None else numeric_cuts(X[:, literal.column])[0]
        chosen_cut = 0 if literal.threshold is None else int(np.flatnonzero(cuts == literal.threshold)[0])
        used.setdefault(literal.column, []).append(chosen_cut)


def is_quasi_convex(values, tol=TIE_TOLERANCE):
    """No value above the larger of two values on either side of it."""
    values = np.asarray(values)
    for i in range(1, len(values) - 1):
        if values[i] > max(values[: i].min(), values[i + 1 :].min()) + tol:
            return False
    return True


def test_bisect_equals_brute_where_the_criterion_is_quasi_convex():
    checked = sum(_compare_bisect_with_brute(seed) for seed in range(30))
    assert checked >= 20  # enough quasi-convex curves to make the comparison meaningful


def _compare_bisect_with_brute(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(30, 300))
    X = np.column_stack([rng.normal(size=n), rng.integers(0, 40, n), rng.integers(0, 2, n)])
    y = (rng.random(n) < 1 / (1 + np.exp(-(X[:, 0] + X[:, 1] / 20 - 1)))).astype(int)
    features = candidate_features(read_columns(X))
    evaluator = LabelEvaluator(features, y, (-3, -2, -1, 1, 2, 3), 0, 0)
    totals = np.where(X[:, 2] > 0.5, 2, 0) if seed % 2 else np.zeros(n, dtype=int)
    evaluator.set_totals(totals, 0, 2)
    tracks = score_tracks((-3, -2, -1, 1, 2, 3), first_stage=False)
    scores = np.array([s for s, _ in tracks])
    negated = np.array([n for _, n in tracks])
    checked = 0
    for f, feature in enumerate(features[:2]):
        brute_cut, brute_value = evaluator.search(f, feature.positions, scores, negated, brute=True)
        bisect_cut, bisect_value = evaluator.search(f, feature.positions, scores, negated, brute=False)
        for t in range(len(tracks)):
            curve = [
                evaluator.search(f, feature.positions[[c]], scores[[t]], negated[[t]], True)[1][0]
                for c in range(len(feature.positions))
            ]
            assert brute_value[t] == pytest.approx(min(curve), abs=1e-12)
            if is_quasi_convex(curve):
                checked += 1
                assert bisect_cut[t] == brute_cut[t]
                assert bisect_value[t] == pytest.approx(brute_value[t], abs=1e-12)
            else:
                assert bisect_value[t] >= brute_value[t] - 1e-12
    return checked


def test_bisect_on_a_monotone_relation_finds_the_true_cut():
    rng = np.random.default_rng(3)
    x = rng.uniform(0, 100, 2000)
    y = (rng.random(2000) < np.where(x > 61.0, 0.9, 0.1)).astype(int)
    psl = ProbabilisticScoringList(max_stages=1).fit(x.reshape(-1, 1), y)
    brute = ProbabilisticScoringList(max_stages=1, threshold_search="brute").fit(x.reshape(-1, 1), y)
    assert psl.thresholds_ == brute.thresholds_
    assert abs(psl.thresholds_[0] - 61.0) < 3


@pytest.mark.parametrize("seed", range(4))
def test_lookahead_never_ends_stage_two_worse_than_greedy(seed):
    X, y = random_data(seed, n=80)
    greedy = ProbabilisticScoringList(max_stages=2).fit(X, y)
    ahead = ProbabilisticScoringList(max_stages=2, lookahead=2).fit(X, y)
    assert ahead.stage_criterion_[2] <= greedy.stage_criterion_[2] + 1e-12


def test_preprocess_fixes_each_threshold_beforehand():
    X, y = random_data(7, n=120)
    psl = ProbabilisticScoringList(**PAPER_SETUP, binarization="preprocess", threshold_search="brute").fit(X, y)
    for literal in psl.literals_:
        if literal.kind != "numeric":
            continue
        column = X[:, literal.column]
        cuts, _ = numeric_cuts(column)
        values = []
        for cut in cuts:
            for s in (-3, 3):
                values.append((naive_criterion(s * (column > cut), y, "entropy"), cut))
        best = min(v for v, _ in values)
        assert literal.threshold == next(cut for v, cut in values if v <= best + 1e-9)


def test_entropy_criterion_is_the_training_entropy_of_the_estimates():
    X, y = random_data(11, n=150)
    psl = ProbabilisticScoringList(**PAPER_SETUP).fit(X, y)
    for k in range(psl.n_stages_):
        p = psl.predict_proba(X, stage=k)[:, 1]
        assert psl.stage_criterion_[k] == pytest.approx(np.mean(entropy_bits(p)), abs=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_beam_search_keeps_the_greedy_list_within_reach(seed):
    X, y = random_data(seed, n=80)
    greedy = ProbabilisticScoringList(max_stages=2).fit(X, y)
    same = ProbabilisticScoringList(max_stages=2, beam_width=1).fit(X, y)
    assert same.literals_ == greedy.literals_ and same.scores_ == greedy.scores_
    # a beam wide enough to keep every stage-1 option extends the greedy one too, so its
    # best two-stage list is at least as good by the summed criteria
    wide = ProbabilisticScoringList(max_stages=2, beam_width=1000).fit(X, y)
    assert wide.stage_criterion_[1:].sum() <= greedy.stage_criterion_[1:].sum() + 1e-12


def naive_score(q, y, loss):
    """Brier score or clipped log-loss summed over rows."""
    if "brier" in loss:
        return np.sum((q - y) ** 2)
    q = np.clip(q, 1e-3, 1 - 1e-3)
    return -np.sum(y * np.log(q) + (1 - y) * np.log(1 - q))


def naive_nested(totals, hits, y, loss, folds):
    """Nested cross-validated criterion of one (feature, score, polarity): ``hits[c]`` is
    the shifted totals at cut c. In each fold the cut minimizing the in-sample score of
    isotonic estimates on the other folds is taken (first on ties) and the held-out fold
    scored; also returns the cut chosen the same way on all rows."""
    def fit(rows, t):
        return IsotonicRegression(increasing=True, out_of_bounds="clip").fit(t[rows], y[rows])

    total = 0.0
    for f in np.unique(folds):
        train, test = folds != f, folds == f
        inner = [naive_score(fit(train, t).predict(t[train]), y[train], loss) for t in hits]
        c = int(np.flatnonzero(np.asarray(inner) <= min(inner) + 1e-9)[0])
        total += naive_score(fit(train, hits[c]).predict(hits[c][test]), y[test], loss)
    rows = np.ones(len(y), dtype=bool)
    inner = [naive_score(fit(rows, t).predict(t), y, loss) for t in hits]
    return total / len(y), int(np.flatnonzero(np.asarray(inner) <= min(inner) + 1e-9)[0])


@pytest.mark.parametrize("loss", ["nested_cv_brier", "nested_cv_log_loss"])
@pytest.mark.parametrize("seed", range(4))
def test_nested_criterion_is_the_exhaustive_nested_cross_validation(seed, loss):
    """Each stage's feature, score and threshold against a direct implementation of the
    nested cross-validation (threshold chosen inside each fold), and the list ends exactly
    when no candidate improves the held-out score of the list as it is."""
    X, y = random_data(seed, n=60)
    score_set = (-2, -1, 1, 2)
    psl = ProbabilisticScoringList(
        score_set=score_set, calibration="isotonic", prior_strength=0.0, threshold_search="brute",
        loss=loss, cv_folds=3, random_state=seed, max_feature_uses=1, min_support=1,
    ).fit(X, y)
    folds = stratified_folds(y, 3, seed, list(X.T))
    totals = np.zeros(len(y), dtype=int)
    used = {}
    for k in range(len(psl.literals_) + 1):
        tracks = {}
        for j, _c, s, negated, hit in all_candidates(X, score_set, k == 0, used):
            tracks.setdefault((j, s, negated), []).append(totals + s * hit)
        if not tracks:
            break  # every feature is asked
        values = [(key, *naive_nested(totals, hits, y, loss, folds)) for key, hits in tracks.items()]
        best = min(v for _, v, _ in values)
        current = naive_nested(totals, [totals], y, loss, folds)[0]
        if k == len(psl.literals_):
            assert best >= current - 1e-9  # the list ended early: nothing improves it
            break
        (j, s, negated), value, cut = next(item for item in values if item[1] <= best + 1e-9)
        literal = psl.literals_[k]
        assert value < current
        assert (literal.column, psl.scores_[k], literal.negated) == (j, s, negated)
        assert psl.stage_criterion_[k + 1] == pytest.approx(value, abs=1e-9)
        cuts = np.array([0.5]) if literal.threshold is None else numeric_cuts(X[:, j])[0]
        assert cuts[cut] == (0.5 if literal.threshold is None else literal.threshold)
        totals = totals + s * literal.evaluate(X[:, j])
        used[j] = [cut]


@pytest.mark.filterwarnings("error")
def test_cuts_between_values_near_the_float_limits_are_finite_and_ordered():
    """Mid-points of values near +-1.8e308 are halved before adding (no overflow to inf)."""
    values = np.array([-1.7e308, 0.0, 1.7e308, 1.79e308])
    cuts, positions = numeric_cuts(values)
    assert np.isfinite(cuts).all()
    assert cuts[0] < values.min() and cuts[-1] > values.max()
    assert np.all(np.diff(cuts) > 0)
    assert [np.sum(values <= cut) for cut in cuts] == positions.tolist()
    # Ordinary values keep their exact mid-points.
    assert numeric_cuts(np.array([1.0, 2.0, 3.5]))[0].tolist() == [0.375, 1.5, 2.75, 4.125]


def test_candidate_features_keep_row_indices_in_half_the_memory():
    # A fit holds every feature's sort order and cut positions through the search: on a
    # table of a million rows int64 would take twice the memory (bench/README, 1M x 10).
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.normal(size=500), rng.integers(0, 2, 500)])
    for feature in candidate_features(read_columns(X)):
        assert feature.order.dtype == np.int32 and feature.positions.dtype == np.int32
        assert np.array_equal(np.sort(feature.order), np.arange(500))
