"""Calibration (Sec. 4.2) and intervals (Sec. 4.4) against independent computations."""

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.isotonic import IsotonicRegression

from psl_core import ProbabilisticScoringList
from psl_core.calibration import (
    beta_probabilities,
    calibrated_probabilities,
    isotonic_probabilities,
    reachable_totals,
    tau_of_total,
)
from psl_core.intervals import clopper_pearson_band


@pytest.mark.parametrize("seed", range(20))
def test_isotonic_on_counts_equals_isotonic_on_rows(seed):
    rng = np.random.default_rng(seed)
    totals = np.arange(-4, 5)
    pos = rng.integers(0, 6, len(totals))
    neg = rng.integers(0, 6, len(totals))
    pos[0] = neg[0] = 0  # an empty total at the edge
    if seed % 3 == 0:
        pos[4] = neg[4] = 0  # and one inside
    rows_t = np.repeat(totals, pos + neg)
    rows_y = np.concatenate([[1] * p + [0] * n for p, n in zip(pos, neg)])
    reference = IsotonicRegression(increasing=True, out_of_bounds="clip").fit(rows_t, rows_y)
    np.testing.assert_allclose(isotonic_probabilities(totals, pos, neg), reference.predict(totals), atol=1e-12)


def beta_reference(tau, pos, neg):
    """Eq. 9 fitted by scipy's bounded optimizer on the log-loss."""

    def loss(params):
        a, b, c = params
        z = a * np.log(tau) - b * np.log(1 - tau) + c
        return np.sum(pos * np.logaddexp(0, -z) + neg * np.logaddexp(0, z))

    result = minimize(loss, [1.0, 1.0, 0.0], bounds=[(0, None), (0, None), (None, None)], method="L-BFGS-B",
                      options={"ftol": 1e-14, "gtol": 1e-10})
    a, b, c = result.x
    return 1 / (1 + np.exp(-(a * np.log(tau) - b * np.log(1 - tau) + c))), result.fun


def logistic_counts(seed, totals, slopes, sizes):
    """(positives, rows) per total: a random number of rows from ``sizes`` and outcomes from a
    logistic truth whose slope is drawn from ``slopes``."""
    rng = np.random.default_rng(seed)
    true = 1 / (1 + np.exp(-(totals * rng.uniform(*slopes))))
    n = rng.integers(*sizes, len(totals))
    return rng.binomial(n, true), n


@pytest.mark.parametrize("seed", range(15))
def test_beta_calibration_matches_a_bounded_optimizer(seed):
    totals = np.arange(-3, 4)
    pos, n = logistic_counts(seed, totals, (-0.5, 1.0), (5, 40))
    neg = n - pos
    got, (a, b, c) = beta_probabilities(totals, pos, neg, totals[0], totals[-1])
    tau = tau_of_total(totals, totals[0], totals[-1])
    expected, best_loss = beta_reference(tau, pos, neg)
    z = a * np.log(tau) - b * np.log(1 - tau) + c
    our_loss = np.sum(pos * np.logaddexp(0, -z) + neg * np.logaddexp(0, z))
    assert a >= 0 and b >= 0
    assert our_loss <= best_loss + 1e-6
    np.testing.assert_allclose(got, expected, atol=2e-3)
    assert np.all(np.diff(got) >= -1e-12)


def test_tau_maps_the_reachable_range_into_the_open_interval():
    tau = tau_of_total(np.arange(-3, 4), -3, 3)
    assert tau[0] == pytest.approx(1 / 8) and tau[-1] == pytest.approx(7 / 8)
    assert np.all(np.diff(tau) > 0)


def test_reachable_totals_are_subset_sums():
    assert reachable_totals([]).tolist() == [0]
    assert reachable_totals([3, -2]).tolist() == [-2, 0, 1, 3]
    assert reachable_totals([1, 1, 1]).tolist() == [0, 1, 2, 3]


def test_band_takes_bounds_of_empty_totals_from_neighbours():
    q = np.array([0.1, 0.2, 0.3, 0.6])
    lower, upper = clopper_pearson_band([1, 0, 3, 6], [9, 0, 7, 4], q, 0.9)
    # the empty total gets the lower bound of the total below and the upper of the one above
    assert lower[1] == pytest.approx(min(lower[0], q[1]))
    assert upper[1] == pytest.approx(upper[2])


@pytest.mark.slow
def test_simultaneous_coverage_reaches_the_nominal_level():
    """Sample counts from known monotone rates; all m intervals cover at >= 95 %."""
    rng = np.random.default_rng(2024)
    true = np.array([0.02, 0.1, 0.3, 0.5, 0.55, 0.8, 0.97])
    n = np.array([15, 40, 8, 60, 25, 30, 12])
    hits = 0
    trials = 2000
    for _ in range(trials):
        pos = rng.binomial(n, true)
        q = isotonic_probabilities(np.arange(len(true)), pos, n - pos)
        lower, upper = clopper_pearson_band(pos, n - pos, q, 0.95)
        hits += np.all((lower <= true) & (true <= upper))
    assert hits / trials >= 0.95


@pytest.mark.slow
def test_coverage_of_a_learned_list():
    """A list learned from data drawn from a known one-feature model covers its rates."""
    rng = np.random.default_rng(7)
    truth = {0: 0.2, 1: 0.7}
    covered = 0
    trials = 300
    for _ in range(trials):
        x = rng.integers(0, 2, 120)
        y = (rng.random(120) < np.where(x == 1, truth[1], truth[0])).astype(int)
        psl = ProbabilisticScoringList(max_stages=1).fit(x.reshape(-1, 1), y)
        lower, _, upper = psl.predict_interval(np.array([[0], [1]]), confidence=0.95).T
        covered += np.all((lower <= [truth[0], truth[1]]) & ([truth[0], truth[1]] <= upper))
    assert covered / trials >= 0.95


def test_sidak_is_never_wider_than_bonferroni_and_several_levels_agree():
    rng = np.random.default_rng(3)
    for _ in range(50):
        m = int(rng.integers(2, 30))
        n = rng.integers(0, 30, m) * (rng.random(m) < 0.6)
        pos = rng.binomial(n, 0.4)
        q = isotonic_probabilities(np.arange(m), pos, n - pos) if n.sum() else np.full(m, 0.4)
        for level in (0.8, 0.95):
            b_low, b_up = clopper_pearson_band(pos, n - pos, q, level, "bonferroni")
            s_low, s_up = clopper_pearson_band(pos, n - pos, q, level, "sidak")
            assert np.all(s_low >= b_low - 1e-12) and np.all(s_up <= b_up + 1e-12)
        many_low, many_up = clopper_pearson_band(pos, n - pos, q, np.array([0.8, 0.95]), "sidak")
        one_low, one_up = clopper_pearson_band(pos, n - pos, q, 0.95, "sidak")
        np.testing.assert_allclose(many_low[1], one_low)
        np.testing.assert_allclose(many_up[1], one_up)


@pytest.mark.slow
def test_sidak_keeps_simultaneous_coverage_on_many_synthetic_lists():
    """Sparse lists (many reachable totals without cases): all intervals cover at >= 95 %."""
    rng = np.random.default_rng(11)
    lists, misses, trials = 40, 0, 0
    for _ in range(lists):
        m = int(rng.integers(4, 25))
        true = np.sort(rng.uniform(0, 1, m))
        n = rng.integers(1, 25, m) * (rng.random(m) < 0.5)  # about half the totals empty
        for _ in range(100):
            pos = rng.binomial(n, true)
            q = isotonic_probabilities(np.arange(m), pos, n - pos) if n.sum() else np.full(m, 0.5)
            lower, upper = clopper_pearson_band(pos, n - pos, q, 0.95, "sidak")
            misses += not np.all((lower <= true) & (true <= upper))
            trials += 1
    assert 1 - misses / trials >= 0.95


@pytest.mark.parametrize("seed", range(10))
def test_sigmoid_calibration_matches_a_bounded_optimizer(seed):
    totals = np.arange(-4, 5)
    pos, n = logistic_counts(seed, totals, (-0.6, 0.9), (3, 30))
    got = calibrated_probabilities(totals, pos, n - pos, "sigmoid")
    tau = tau_of_total(totals, totals[0], totals[-1])

    def loss(params):
        z = params[0] * tau + params[1]
        return np.sum(pos * np.logaddexp(0, -z) + (n - pos) * np.logaddexp(0, z))

    best = minimize(loss, [1.0, 0.0], bounds=[(0, None), (None, None)], method="L-BFGS-B",
                    options={"ftol": 1e-14, "gtol": 1e-10}).x
    np.testing.assert_allclose(got, 1 / (1 + np.exp(-(best[0] * tau + best[1]))), atol=2e-3)
    assert np.all(np.diff(got) >= -1e-12)


def _newton_to_convergence(tau, pos, neg, start):
    """The free (unconstrained in the slope) optimum of the sigmoid fit's loss, by 60 plain
    Newton steps in numpy: a reference for the compiled fit."""
    from psl_core.calibration_kernels import _BETA_RIDGE

    x = np.array(start, dtype=float)
    w = pos + neg
    for _ in range(60):
        p = 1 / (1 + np.exp(-(x[0] * tau + x[1])))
        r, h = p * w - pos, w * p * (1 - p)
        gradient = np.array([r @ tau + _BETA_RIDGE * x[0], r.sum()])
        hessian = np.array([[h @ (tau * tau) + _BETA_RIDGE, h @ tau], [h @ tau, h.sum()]])
        x = x - np.linalg.solve(hessian, gradient)
    return x


@pytest.mark.parametrize("seed", range(5))
def test_compiled_sigmoid_fit_reaches_the_optimum_and_spots_a_clipped_slope(seed):
    # The search's fit (calibration_kernels._sigmoid_fit) stops once Newton's decrement is small and
    # takes that last step unchecked; a slope the constraint a >= 0 clips is recognised
    # from the gradient at the constant fit, without Newton steps. Both must give the
    # constrained optimum: within 1e-7 of a converged reference in every probability.
    from psl_core.calibration_kernels import _constant_fit, _sigmoid_fit, _slope_clipped

    rng = np.random.default_rng(seed)
    clipped_seen = free_seen = 0
    for _ in range(200):
        m = int(rng.integers(2, 15))
        tau = np.sort(rng.choice(np.linspace(0.05, 0.95, 40), m, replace=False))
        w = rng.integers(1, 80, m).astype(float)
        pos = rng.binomial(w.astype(int), 1 / (1 + np.exp(-rng.normal(0, 2) * (tau - 0.5)))).astype(float)
        neg = w - pos
        if pos.sum() == 0 or neg.sum() == 0:
            continue
        total, constant = _constant_fit(pos, neg)
        free = _newton_to_convergence(tau, pos, neg, [0.0, constant])
        clipped = _slope_clipped(tau, pos, neg, total, constant)
        if abs(free[0]) > 1e-6:  # the sign of a slope this close to 0 is not the test's business
            assert clipped == (free[0] < 0)
        reference = np.array([0.0, constant]) if free[0] < 0 else free
        for start in (np.full(2, np.nan), reference + rng.normal(0, 0.5, 2)):
            a, c = _sigmoid_fit(tau, pos, neg, start)
            got = 1 / (1 + np.exp(-(a * tau + c)))
            np.testing.assert_allclose(got, 1 / (1 + np.exp(-(reference[0] * tau + reference[1]))), atol=1e-7)
        clipped_seen += clipped
        free_seen += not clipped
    assert clipped_seen > 10 and free_seen > 10  # both branches were exercised
