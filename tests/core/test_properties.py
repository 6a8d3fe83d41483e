"""Properties that must hold for every list on many random datasets."""

import warnings

import numpy as np
import pandas as pd
import pytest

import psl_core.chance
from psl_core import PAPER_SETUP, ProbabilisticScoringList
from psl_triage.training.tables import list_table


def random_table(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 250))
    frame = pd.DataFrame(
        {
            "age": rng.integers(20, 90, n).astype(float),
            "marker": np.round(rng.lognormal(size=n), 2),
            "smoker": rng.integers(0, 2, n),
            "ward": rng.choice(["north", "south", "east"], n),
        }
    )
    logit = (frame["age"] - 55) / 15 + np.log(frame["marker"]) + frame["smoker"] - 0.5
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    if y.min() == y.max():
        y[:2] = [0, 1]
    return frame, y


CONFIGS = [
    {},
    {"calibration": "beta"},
    {"calibration": "sigmoid", "prior_strength": 1.0},
    {"threshold_search": "brute"},
    {"binarization": "preprocess"},
    {"score_set": (1, 2, 3)},
    {"loss": "soft_rank"},
    {"calibration_size": 0.3, "random_state": 0},
    {"interval_correction": "sidak", "prior_strength": 2.0},
    {"loss": "cv_brier", "random_state": 0},
]


@pytest.mark.parametrize("config", CONFIGS, ids=[str(c) for c in CONFIGS])
@pytest.mark.parametrize("seed", range(8))
def test_list_invariants(seed, config):
    X, y = random_table(seed)
    psl = ProbabilisticScoringList(**config).fit(X, y)
    for k in range(psl.n_stages_):
        q = psl.stage_probabilities_[k]
        assert np.all(np.diff(q) >= -1e-12), "q(k, .) must be monotone in the total"
        assert np.all((q >= 0) & (q <= 1))
        for confidence in (0.8, 0.95, 0.99):
            _, lower, point, upper = psl.stage_interval(k, confidence)
            assert np.all(lower <= point + 1e-12) and np.all(point <= upper + 1e-12)
            assert np.all(np.diff(lower) >= -1e-12) and np.all(np.diff(upper) >= -1e-12)
        rows = psl.predict_interval(X, stage=k)
        assert np.all(rows[:, 0] <= rows[:, 1]) and np.all(rows[:, 1] <= rows[:, 2])
        np.testing.assert_array_equal(psl.stagewise_intervals(X)[:, k], rows)
        proba = psl.predict_proba(X, stage=k)
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    # wider confidence, wider intervals
    narrow = psl.predict_interval(X, confidence=0.8)
    wide = psl.predict_interval(X, confidence=0.99)
    assert np.all(wide[:, 0] <= narrow[:, 0] + 1e-12) and np.all(wide[:, 2] >= narrow[:, 2] - 1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_json_round_trip_gives_identical_predictions(seed):
    X, y = random_table(seed)
    psl = ProbabilisticScoringList(calibration="beta" if seed % 2 else "isotonic").fit(X, y)
    loaded = ProbabilisticScoringList.from_json(psl.to_json())
    assert loaded.to_json() == psl.to_json()
    for k in range(psl.n_stages_):
        np.testing.assert_array_equal(loaded.predict_proba(X, stage=k), psl.predict_proba(X, stage=k))
        np.testing.assert_array_equal(loaded.predict_interval(X, stage=k), psl.predict_interval(X, stage=k))
    assert loaded.get_params() == psl.get_params() | {"score_set": list(psl.score_set)}


@pytest.mark.parametrize("seed", range(8))
def test_predictions_are_invariant_to_row_order(seed):
    X, y = random_table(seed)
    order = np.random.default_rng(seed + 100).permutation(len(y))
    a = ProbabilisticScoringList().fit(X, y)
    b = ProbabilisticScoringList().fit(X.iloc[order].reset_index(drop=True), y[order])
    assert a.literals_ == b.literals_ and a.scores_ == b.scores_
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    np.testing.assert_array_equal(a.predict_interval(X), b.predict_interval(X))


def test_labels_of_any_kind_negative_first():
    X, y = random_table(3)
    labels = np.where(y == 1, "sick", "healthy")
    psl = ProbabilisticScoringList(max_stages=2).fit(X, labels)
    assert list(psl.classes_) == ["healthy", "sick"]
    reference = ProbabilisticScoringList(max_stages=2).fit(X, y)
    np.testing.assert_array_equal(psl.predict_proba(X), reference.predict_proba(X))
    assert set(psl.predict(X)) <= {"healthy", "sick"}


def test_categorical_columns_become_readable_one_hot_features():
    rng = np.random.default_rng(0)
    n = 300
    pain = rng.choice(["typical angina", "atypical angina", "asymptomatic"], n)
    X = pd.DataFrame({"chest pain": pd.Categorical(pain), "noise": rng.normal(size=n)})
    y = (rng.random(n) < np.where(pain == "asymptomatic", 0.85, 0.15)).astype(int)
    psl = ProbabilisticScoringList(max_stages=1).fit(X, y)
    literal = psl.literals_[0]
    assert psl.features_ == ["chest pain"] and literal.category == "asymptomatic"
    assert psl.thresholds_ == [None]
    assert literal.describe() == "chest pain = asymptomatic"
    assert psl.stage_table().loc[1, "condition"] == "chest pain = asymptomatic"


def test_max_stages_limits_the_list():
    X, y = random_table(1)
    two = ProbabilisticScoringList(max_stages=2).fit(X, y)
    assert (two.n_stages_, two.end_reason_) == (3, "length")
    assert ProbabilisticScoringList(max_stages=0).fit(X, y).n_stages_ == 1
    full = ProbabilisticScoringList(loss="entropy", max_feature_uses=1, group_categories=False).fit(X, y)
    assert full.n_stages_ == 1 + 3 + 3  # age, marker, smoker and one feature per ward
    assert full.end_reason_ == "length"


def _smallest_answer(psl, X):
    """Training rows of the smallest answer range of any question of a fitted list."""
    smallest = len(X)
    cuts = {}
    for literal in psl.literals_:
        hit = literal.evaluate(X[literal.column])
        smallest = min(smallest, hit.sum(), len(hit) - hit.sum())
        if literal.threshold is not None:
            cuts.setdefault(literal.column, []).append(literal.threshold)
    for column, thresholds in cuts.items():
        ranges = np.searchsorted(np.sort(thresholds), X[column].to_numpy(), side="left")
        smallest = min(smallest, np.bincount(ranges, minlength=len(thresholds) + 1).min())
    return smallest


@pytest.mark.parametrize(
    "config", [{}, {"binarization": "preprocess"}, {"beam_width": 3}, {"loss": "entropy", "max_feature_uses": 3}],
    ids=["default", "preprocess", "beam", "entropy, 3 uses"],
)
@pytest.mark.parametrize("min_support", [1, 10, 40])
@pytest.mark.parametrize("seed", range(6))
def test_every_answer_holds_min_support_training_rows(seed, min_support, config):
    """Each indicator is true and false for at least min_support training rows, and the
    thresholds of a numeric column cut it into ranges of at least that many rows."""
    X, y = random_table(seed)
    psl = ProbabilisticScoringList(min_support=min_support, **config).fit(X, y)
    assert _smallest_answer(psl, X) >= min_support
    if min_support > len(y) / 2:
        assert psl.n_stages_ == 1  # no question splits the rows: the prior alone
        assert psl.end_reason_ == "support"


def test_min_support_changes_a_list_only_where_it_binds():
    """With brute-force threshold search, a list whose answers all hold at least m rows is
    the list min_support=m finds too; one with a smaller answer is not."""
    outcomes = set()
    for seed in range(12):
        X, y = random_table(seed)
        free = ProbabilisticScoringList(min_support=1, threshold_search="brute").fit(X, y)
        bound = ProbabilisticScoringList(min_support=8, threshold_search="brute").fit(X, y)
        same = free.literals_ == bound.literals_ and free.scores_ == bound.scores_
        binds = _smallest_answer(free, X) < 8
        assert same != binds
        assert _smallest_answer(bound, X) >= 8
        outcomes.add(binds)
    assert outcomes == {True, False}  # both cases occur


@pytest.mark.parametrize("loss", ["cv_brier", "cv_log_loss", "nested_cv_brier", "nested_cv_log_loss"])
@pytest.mark.parametrize("seed", range(4))
def test_cross_validated_lists_end_when_no_question_helps(loss, seed):
    """With a held-out criterion every stage improves it: the list ends when none can."""
    X, y = random_table(seed)
    psl = ProbabilisticScoringList(loss=loss).fit(X, y)
    assert np.all(np.diff(psl.stage_criterion_) < 0)
    # By default a list has at most one stage per candidate feature (age, marker, smoker, one
    # per ward and one grouping of the wards): shorter, it ended because no question helped.
    assert (psl.end_reason_ == "length") == (psl.n_stages_ - 1 == 7)
    assert psl.end_reason_ in ("length", "no_gain")


def test_progress_is_reported_per_stage():
    X, y = random_table(2)
    calls = []
    ProbabilisticScoringList(max_stages=3).fit(X, y, progress=lambda k, n: calls.append((k, n)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_recommended_stages_by_internal_validation(demo_csv_path):
    frame = pd.read_csv(demo_csv_path).dropna()
    y = (frame.pop("num") > 0).astype(int).to_numpy()
    psl = ProbabilisticScoringList(recommend_folds=5, random_state=0, max_stages=8).fit(frame, y)
    k = psl.recommended_stages_
    assert 1 <= k <= 8
    brier, se = psl.validation_brier_, psl.validation_brier_se_
    # past the recommended stage the list keeps the questions that beat chance (psl_core.chance)
    assert k < psl.n_stages_ <= 9 and psl.end_reason_ in ("length", "chance")
    assert brier.shape == (psl.n_stages_,) and np.all(np.isfinite(brier))
    # the recommended stage has the lowest mean held-out Brier score, every shorter list a higher one
    assert brier[k] == brier.min()
    assert np.all(brier[:k] > brier[k])
    assert se.shape == (psl.n_stages_,) and np.all(se > 0)
    table = psl.stage_table()
    assert table["recommended"].sum() == 1 and table.loc[k, "recommended"]
    np.testing.assert_allclose(table["validation_brier"], brier)
    loaded = ProbabilisticScoringList.from_json(psl.to_json())
    assert loaded.recommended_stages_ == k
    np.testing.assert_allclose(loaded.validation_brier_, brier)
    # the prior of the held-out folds scores about p(1 - p)
    assert brier[0] == pytest.approx(y.mean() * (1 - y.mean()), abs=0.01)


@pytest.mark.parametrize("seed", [1, 16, 21])
def test_only_a_stage_every_internal_fold_reached_is_recommended(seed, monkeypatch):
    # On 80 rows with 11 noise columns the folds' lists end at different lengths; a stage
    # that only some folds reached has the mean of those folds alone (one fold: no standard
    # error). With these seeds the lowest such mean lies beyond what every fold reached.
    # (The whole list, without the chance rule that would end it before those stages.)
    monkeypatch.setattr(psl_core.chance, "REQUIRED_Z", -np.inf)
    from sklearn.base import clone

    from psl_core.recommend import stratified_folds

    rng = np.random.default_rng(seed)
    X = rng.standard_normal((80, 12))
    y = (rng.random(80) < 1 / (1 + np.exp(-1.2 * X[:, 0]))).astype(int)
    psl = ProbabilisticScoringList(recommend_folds=5, recommend_repeats=1).fit(X, y)
    folds = stratified_folds(y, 5, 0, list(X.T))
    inner = clone(psl).set_params(recommend_folds=None, max_stages=len(psl.literals_))
    every_fold_reached = min(inner.fit(X[folds != f], y[folds != f]).n_stages_ for f in range(5)) - 1
    k = psl.recommended_stages_
    assert k <= every_fold_reached
    assert psl.validation_brier_[k] == np.min(psl.validation_brier_[: every_fold_reached + 1])
    assert np.nanmin(psl.validation_brier_) < psl.validation_brier_[k]  # a later stage looked better


def test_a_stage_no_fold_reaches_has_no_held_out_score_and_no_warning():
    # Ten positive cases have a rare marker: the whole training set may ask about it
    # (min_support=10), no fold's 4/5 of it can, so no fold's list reaches the last stage.
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    y = (X[:, 0] + rng.normal(size=200) > 0).astype(int)
    rare = np.zeros(200)
    rare[np.flatnonzero(y == 1)[:10]] = 1
    X = np.column_stack([X, rare])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        psl = ProbabilisticScoringList(
            **{**PAPER_SETUP, "min_support": 10}, recommend_folds=5, recommend_repeats=1
        ).fit(X, y)
    assert 2 in psl.features_
    brier, se = psl.validation_brier_, psl.validation_brier_se_
    assert np.isnan(brier[-1]) and np.isnan(se[-1])
    assert np.all(np.isfinite(brier[:-1])) and np.all(np.isfinite(se[:-1]))
    assert psl.recommended_stages_ < psl.n_stages_ - 1
    assert list_table(psl)["Brier score (cross-validated)"].iloc[-1] == "not reached"
    loaded = ProbabilisticScoringList.from_json(psl.to_json())
    np.testing.assert_array_equal(loaded.validation_brier_, brier)
