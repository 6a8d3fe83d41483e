"""The internal folds drawn more than once on few rows of the rarer class (recommend_repeats)."""

import numpy as np
import pytest
from sklearn.base import clone

from psl_core import ProbabilisticScoringList
from psl_core.errors import DataError
from psl_core.recommend import MAX_DRAWS, RARER_CLASS_TARGET, n_draws, recommended_stage, stratified_folds


def labels(positives, negatives):
    return np.r_[np.ones(positives, dtype=int), np.zeros(negatives, dtype=int)]


@pytest.mark.parametrize("positives, expected", [
    (11, MAX_DRAWS),  # MGUS's survivors: as many draws as allowed
    (30, 4), (34, 3), (50, 2), (99, 2),
    (RARER_CLASS_TARGET, 1), (400, 1),
])
def test_auto_draws_until_the_held_out_rows_hold_enough_of_the_rarer_class(positives, expected):
    y = labels(positives, 1000)
    assert n_draws(y, "auto") == expected
    assert n_draws(1 - y, "auto") == expected  # whichever class is rarer
    assert n_draws(y, 2) == 2  # a number is taken as given


def test_each_draw_is_a_seeded_cross_validation_and_the_scores_average_them():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((120, 4))
    y = (rng.random(120) < 1 / (1 + np.exp(-1.5 * X[:, 0] - 1.5))).astype(int)  # about 25 negatives
    model = ProbabilisticScoringList(recommend_folds=4, recommend_repeats="auto", random_state=5).fit(X, y)
    draws = model.recommend_draws_
    assert draws == n_draws(y, "auto") > 1
    inner = clone(model).set_params(recommend_folds=None, max_stages=model.n_stages_ - 1)
    rows = []
    for draw in range(draws):
        folds = stratified_folds(y, 4, 5 + draw, list(X.T))
        for fold in range(4):
            fitted = clone(inner).fit(X[folds != fold], y[folds != fold])
            p = fitted.stagewise_intervals(X[folds == fold])[:, :, 1]
            row = np.full(model.n_stages_, np.nan)
            row[: fitted.n_stages_] = np.mean((p - y[folds == fold, None]) ** 2, axis=0)[: model.n_stages_]
            rows.append(row)
    mean, se, stage = recommended_stage(np.array(rows), draws)
    np.testing.assert_allclose(model.validation_brier_, mean)
    np.testing.assert_allclose(model.validation_brier_se_, se)
    assert model.recommended_stages_ == stage
    # One draw alone is another estimate: the draws are not copies of each other.
    assert not np.allclose(np.nanmean(rows[:4], axis=0), mean, equal_nan=True)


def test_the_standard_error_is_that_of_one_draw_s_folds():
    scores = np.array([[0.20, 0.10], [0.22, 0.14], [0.18, 0.12], [0.20, 0.08]])
    mean, se, stage = recommended_stage(scores, draws=2)  # two draws of two folds
    assert mean == pytest.approx([0.20, 0.11]) and stage == 1
    spread = scores.std(axis=0, ddof=1)
    assert se == pytest.approx(spread / np.sqrt(2))  # two folds a draw, not four
    assert recommended_stage(scores)[1] == pytest.approx(spread / 2)  # one draw of four folds


def test_the_draws_made_are_recorded():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((150, 3))
    y = (rng.random(150) < 0.5).astype(int)
    one = ProbabilisticScoringList(recommend_folds=5, recommend_repeats=1).fit(X, y)
    assert one.recommend_draws_ == 1
    assert ProbabilisticScoringList().fit(X, y).recommend_draws_ is None  # no internal folds at all


@pytest.mark.parametrize("wrong", [0, -1, "many", 1.5])
def test_a_wrong_number_of_draws_names_the_parameter(wrong):
    X, y = np.arange(40.0).reshape(-1, 1), np.r_[np.zeros(20, int), np.ones(20, int)]
    with pytest.raises((ValueError, DataError), match="recommend_repeats"):
        ProbabilisticScoringList(recommend_folds=5, recommend_repeats=wrong).fit(X, y)
