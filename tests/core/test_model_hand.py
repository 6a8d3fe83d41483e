"""A list computed by hand on an eight-row dataset (paper, eqs. 5, 7, 10-13)."""

import numpy as np
import pytest
from scipy.optimize import brentq
from scipy.stats import binom

from psl_core import PAPER_SETUP, ProbabilisticScoringList

# x1, x2, y
ROWS = np.array(
    [
        [1, 0, 1],
        [1, 0, 1],
        [1, 1, 1],
        [1, 1, 0],
        [0, 1, 0],
        [0, 0, 0],
        [0, 0, 1],
        [0, 1, 0],
    ]
)
X, Y = ROWS[:, :2], ROWS[:, 2]


def entropy(p):
    return 0.0 if p in (0, 1) else -(p * np.log2(p) + (1 - p) * np.log2(1 - p))


def cp_lower(k, n, alpha):
    """Clopper–Pearson lower bound solved from the binomial tail, not the beta quantile."""
    if k == 0:
        return 0.0
    return brentq(lambda p: binom.sf(k - 1, n, p) - alpha / 2, 1e-12, 1 - 1e-12)


def cp_upper(k, n, alpha):
    if k == n:
        return 1.0
    return brentq(lambda p: binom.cdf(k, n, p) - alpha / 2, 1e-12, 1 - 1e-12)


@pytest.fixture(scope="module")
def psl():
    return ProbabilisticScoringList(**{**PAPER_SETUP, "score_set": (-2, -1, 1, 2)}).fit(X, Y)


def test_the_list_is_the_hand_computed_one(psl):
    # Stage 1 may only use |s| = 2. x1 with +2 gives rates 1/4 (T=0) and 3/4 (T=2):
    # E = H(1/4) = 0.811; x1 with -2 would pool both to 1/2 (E = 1). x2 with -2 ties
    # x1 with +2; x1 comes first in the enumeration, so it wins.
    # Stage 2: x2 with -2 gives totals -2 (0/2 positive), 0 (2/4), 2 (2/2): E = 0.5,
    # tied with -1 (totals -1, 0, 1, 2 with rates 0, 1/2, 1/2, 1); -2 is enumerated first.
    assert psl.n_stages_ == 3
    assert psl.features_ == [0, 1]
    assert psl.scores_ == [2, -2]
    assert psl.thresholds_ == [None, None]
    assert list(psl.classes_) == [0, 1]
    expected_criterion = [entropy(0.5), entropy(0.25), 0.5]
    np.testing.assert_allclose(psl.stage_criterion_, expected_criterion)


def test_probabilities_per_stage(psl):
    np.testing.assert_array_equal(psl.stage_totals_[0], [0])
    np.testing.assert_allclose(psl.stage_probabilities_[0], [0.5])
    np.testing.assert_array_equal(psl.stage_totals_[1], [0, 2])
    np.testing.assert_allclose(psl.stage_probabilities_[1], [0.25, 0.75])
    np.testing.assert_array_equal(psl.stage_totals_[2], [-2, 0, 2])
    np.testing.assert_allclose(psl.stage_probabilities_[2], [0.0, 0.5, 1.0])
    np.testing.assert_array_equal(psl.stage_positives_[2], [0, 2, 2])
    np.testing.assert_array_equal(psl.stage_negatives_[2], [2, 2, 0])
    expected = {0: [0.5] * 8, 1: [0.75] * 4 + [0.25] * 4, 2: [1, 1, 0.5, 0.5, 0, 0.5, 0.5, 0]}
    for stage, p in expected.items():
        np.testing.assert_allclose(psl.predict_proba(X, stage=stage)[:, 1], p)
    np.testing.assert_array_equal(psl.predict(X), [1, 1, 0, 0, 0, 0, 0, 0])


def test_intervals_by_hand(psl):
    alpha = 0.05 / 3  # Bonferroni over |Sigma_2| = 3 totals
    raw_lower = [cp_lower(0, 2, alpha), cp_lower(2, 4, alpha), cp_lower(2, 2, alpha)]
    raw_upper = [cp_upper(0, 2, alpha), cp_upper(2, 4, alpha), cp_upper(2, 2, alpha)]
    # eqs. 10-11: running max of the lower bounds from below, running min of the upper from above
    lower = np.maximum.accumulate(raw_lower)
    upper = np.minimum.accumulate(raw_upper[::-1])[::-1]
    # eqs. 12-13: cover the point estimate
    q = np.array([0.0, 0.5, 1.0])
    lower, upper = np.minimum(lower, q), np.maximum(upper, q)
    assert raw_upper[0] == pytest.approx(1 - (alpha / 2) ** 0.5)
    totals, got_lower, got_q, got_upper = psl.stage_interval(2, confidence=0.95)
    np.testing.assert_allclose(got_lower, lower, atol=1e-9)
    np.testing.assert_allclose(got_upper, upper, atol=1e-9)
    rows = psl.predict_interval(X, stage=2)
    index = np.searchsorted(totals, psl.total_scores(X, 2))
    np.testing.assert_allclose(rows, np.column_stack([lower[index], q[index], upper[index]]), atol=1e-9)


def test_stage_table_is_table_one(psl):
    table = psl.stage_table()
    assert list(table.index) == [0, 1, 2]
    assert list(table["score"].iloc[1:]) == [2, -2]
    assert table.loc[2, -2] == 0.0 and table.loc[2, 2] == 1.0
    assert np.isnan(table.loc[1, -2])  # -2 is not reachable at stage 1
    assert table.loc[1, "condition"] == "0 = yes"  # stage 1 is column 0 (x1), +2


def test_first_score_takes_the_sign_that_fits():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 2, size=(200, 3))
    y = 1 - x[:, 1]
    psl = ProbabilisticScoringList(**{**PAPER_SETUP, "score_set": (-2, -1, 1, 2)}).fit(x, y)
    assert psl.features_[0] == 1
    assert psl.scores_[0] == -2
    np.testing.assert_allclose(psl.predict_proba(x, stage=1)[:, 1], y)


def test_positive_only_score_set_uses_the_complement():
    rng = np.random.default_rng(1)
    x = rng.integers(0, 2, size=(200, 2))
    y = 1 - x[:, 0]
    psl = ProbabilisticScoringList(**{**PAPER_SETUP, "score_set": (1, 2, 3)}, max_stages=1).fit(x, y)
    assert psl.scores_ == [3]
    assert psl.literals_[0].negated
    assert psl.literals_[0].describe() == "0 = no"
    np.testing.assert_allclose(psl.predict_proba(x)[:, 1], y)


def test_a_large_or_small_threshold_is_written_without_scientific_notation():
    from psl_core.binarization import Literal

    assert Literal("BL.AA", "numeric", threshold=152512.5).describe() == "BL.AA > 152500"
    assert Literal("dose", "numeric", threshold=1.2e-05, negated=True).describe(unit="g") == "dose ≤ 0.000012 g"
    assert Literal("hr", "numeric", threshold=147.5).describe() == "hr > 147.5"
