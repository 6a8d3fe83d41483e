"""psl_core.monitoring: Vergouwe et al.'s closed test against statsmodels' likelihood-ratio
tests, and Steiner et al.'s risk-adjusted CUSUM against its recursion and its false-alarm rate."""

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from scipy.special import expit, logit

from psl_core.errors import PSLError
from psl_core.logistic import fit_logistic
from psl_core.monitoring import (
    INTERCEPT,
    KEEP,
    RECALIBRATE,
    REFIT,
    chart_weights,
    closed_test,
    cusum_limit,
    cusum_path,
    cusum_weights,
    risk_adjusted_cusum,
    slope_weights,
)

POINTS = np.array([2, 1, -1, 3])
BASE = -2.0


def _patients(n, seed, intercept=0.0, slope=1.0, effects=None):
    """n patients with four yes/no answers, the list's risks from POINTS (a score's log-odds,
    rounded to the list's probabilities) and outcomes drawn from a changed truth."""
    rng = np.random.default_rng(seed)
    answers = (rng.random((n, 4)) < [0.5, 0.3, 0.4, 0.2]).astype(int)
    lp = BASE + 0.5 * answers @ POINTS
    p = expit(lp)
    truth = intercept + slope * lp if effects is None else BASE + 0.5 * answers @ effects
    y = (rng.random(n) < expit(truth)).astype(int)
    return y, p, answers


def _glm(y, design, offset=None):
    return sm.GLM(y, design, family=sm.families.Binomial(), offset=offset).fit(tol=1e-14, maxiter=200)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_closed_test_statistics_equal_statsmodels_likelihood_ratios(seed):
    y, p, answers = _patients(3000, seed, intercept=0.4, slope=0.8)
    result = closed_test(y, p, answers @ POINTS)
    lp = logit(p)
    ones = np.ones((len(y), 1))
    keep = float(np.sum(y * lp - np.logaddexp(0, lp)))
    intercept = _glm(y, ones, offset=lp).llf
    recalibrate = _glm(y, sm.add_constant(lp)).llf
    totals = answers @ POINTS
    refit = _glm(y, pd.get_dummies(totals).to_numpy(float)).llf  # one risk per total
    n_totals = len(np.unique(totals))
    expected = {KEEP: 2 * (refit - keep), INTERCEPT: 2 * (refit - intercept), RECALIBRATE: 2 * (refit - recalibrate)}
    tests = result.tests.set_index("update")
    for update, statistic in expected.items():
        assert tests.loc[update, "statistic"] == pytest.approx(statistic, abs=1e-6)
    assert list(tests["df"]) == [n_totals, n_totals - 1, n_totals - 2]
    assert result.models.loc[REFIT, "log_likelihood"] == pytest.approx(refit, abs=1e-7)
    assert result.n == 3000 and result.events == y.sum()


def _tested(n, seed, **shift):
    y, p, answers = _patients(n, seed, **shift)
    return closed_test(y, p, answers @ POINTS).recommendation


def test_closed_test_names_the_kind_of_change():
    assert _tested(4000, 10) == KEEP
    assert _tested(4000, 11, intercept=0.7) == INTERCEPT
    assert _tested(4000, 12, slope=0.5) == RECALIBRATE
    changed = POINTS * np.array([1, 1, 1, -1])  # the fourth question's effect turned round, the others kept
    assert _tested(4000, 13, effects=changed) == REFIT


def test_a_refit_has_one_risk_per_total_and_alpha_is_checked():
    y, p, answers = _patients(1000, 3)
    totals = answers @ POINTS
    result = closed_test(y, p, totals)
    assert result.models.loc[REFIT, "parameters"] == len(np.unique(totals))
    with pytest.raises(PSLError, match="alpha"):
        closed_test(y, p, totals, alpha=1.5)


def test_weighted_fit_equals_the_fit_on_repeated_rows():
    y, p, answers = _patients(500, 4)
    rows, counts = np.unique(np.column_stack([y, answers]), axis=0, return_counts=True)
    grouped = fit_logistic(rows[:, 1:].astype(float), rows[:, 0], C=np.inf, tol=1e-14, sample_weight=counts)
    assert grouped == pytest.approx(fit_logistic(answers.astype(float), y, C=np.inf, tol=1e-14), abs=1e-8)


def test_cusum_path_is_steiners_recursion():
    y, p, _ = _patients(400, 5, intercept=0.5)
    weights = cusum_weights(y, p, 2.0)
    expected, s = [], 0.0
    for w in weights:
        s = max(0.0, s + w)
        expected.append(s)
    assert cusum_path(weights) == pytest.approx(expected)
    assert weights[y == 1] == pytest.approx(np.log(2) - np.log1p(p[y == 1]))


def test_the_limit_keeps_its_false_alarm_rate_on_calibrated_risks():
    """Fresh calibrated outcomes cross the simulated limit on any of the four charts in about
    false_alarm of the runs."""
    _, p, _ = _patients(600, 6)
    limit = cusum_limit(p, false_alarm=0.1, n_simulations=2000, seed=1)
    rng = np.random.default_rng(7)
    crossed = 0
    for _ in range(400):
        y = (rng.random(len(p)) < p).astype(int)
        crossed += cusum_path(chart_weights(y, p)).max() > limit
    assert 0.06 <= crossed / 400 <= 0.14


def test_slope_weights_are_the_log_likelihood_ratio_of_the_recalibrated_risk():
    y, p, _ = _patients(300, 12)
    centre = float(np.mean(logit(p)))
    q = expit(centre + 0.5 * (logit(p) - centre))
    expected = np.where(y == 1, np.log(q / p), np.log((1 - q) / (1 - p)))
    assert slope_weights(y, p, 0.5, centre) == pytest.approx(expected, abs=1e-12)
    assert chart_weights(y, p)[2] == pytest.approx(expected, abs=1e-12)


def test_the_slope_chart_signals_a_weakened_effect_the_odds_charts_miss():
    """Outcomes from a truth with calibration slope 0.4 about the mean log-odds: the mean odds
    barely move, the flatter chart signals after the change and not before."""
    y0, p0, _ = _patients(1500, 8)
    _, p1, answers = _patients(1500, 9)
    centre = float(np.mean(logit(np.concatenate([p0, p1]))))
    rng = np.random.default_rng(3)
    y1 = (rng.random(1500) < expit(centre + 0.4 * (logit(p1) - centre))).astype(int)
    chart = risk_adjusted_cusum(np.concatenate([y0, y1]), np.concatenate([p0, p1]), n_simulations=300)
    assert chart.first_signal["up"] is None and chart.first_signal["steeper"] is None
    assert chart.first_signal["flatter"] >= 1500
    with pytest.raises(PSLError, match="slopes"):
        risk_adjusted_cusum(y0, p0, slopes=(0.5, 0.8))


def test_cusum_signals_an_odds_shift_after_it_starts_and_not_before():
    y0, p0, _ = _patients(1500, 8)
    y1, p1, _ = _patients(1500, 9, intercept=np.log(2.5))
    chart = risk_adjusted_cusum(np.concatenate([y0, y1]), np.concatenate([p0, p1]), n_simulations=300)
    assert chart.first_signal["down"] is None
    assert 1500 <= chart.first_signal["up"] < 2000
    assert chart.up[chart.first_signal["up"]] > chart.limit >= chart.up[: chart.first_signal["up"]].max()
    with pytest.raises(PSLError, match="odds_ratios"):
        risk_adjusted_cusum(y0, p0, odds_ratios=(2.0, 3.0))


def _stacked(y, totals, q, n):
    """The monitored patients and each total's n q training outcomes of n as weighted rows: the
    statsmodels fits of the closed test with the list's training counts."""
    levels = np.unique(totals)
    rows_y, rows_total, rows_now, weights = [], [], [], []
    for j, total in enumerate(levels):
        here = totals == total
        for outcome, count in ((1, y[here].sum()), (0, (1 - y[here]).sum()), (1, n[j] * q[j]), (0, n[j] * (1 - q[j]))):
            rows_y.append(outcome)
            rows_total.append(j)
            weights.append(count)
        rows_now += [1, 1, 0, 0]
    dummies = np.eye(len(levels))[rows_total]
    return np.array(rows_y, float), dummies, np.array(rows_now, float), np.array(weights, float)


def test_closed_test_with_training_counts_equals_statsmodels_likelihood_ratios():
    """Keep, intercept and refit with the list's training counts are GLMs of the stacked rows;
    the recalibration's fit lies between the intercept's and the refit's."""
    y, p, answers = _patients(2000, 4, intercept=0.3)
    totals = answers @ POINTS
    levels, first = np.unique(totals, return_index=True)
    q = p[first]
    n = np.linspace(40, 400, len(levels))
    result = closed_test(y, p, totals, training=(levels, n))
    outcome, dummies, now, weights = _stacked(y, totals, q, n)

    def fitted(design):
        return sm.GLM(outcome, design, family=sm.families.Binomial(), freq_weights=weights).fit(tol=1e-14, maxiter=200)

    keep = fitted(dummies)
    intercept = fitted(np.column_stack([dummies, now]))
    refit = fitted(np.column_stack([dummies, dummies * now[:, None]]))
    tests = result.tests.set_index("update")
    assert tests.loc[KEEP, "statistic"] == pytest.approx(2 * (refit.llf - keep.llf), abs=1e-6)
    assert tests.loc[INTERCEPT, "statistic"] == pytest.approx(2 * (refit.llf - intercept.llf), abs=1e-6)
    assert 0 <= tests.loc[RECALIBRATE, "statistic"] <= tests.loc[INTERCEPT, "statistic"]
    assert list(tests["df"]) == [len(levels), len(levels) - 1, len(levels) - 2]
    exact = closed_test(y, p, totals).tests.set_index("update")
    assert tests.loc[KEEP, "statistic"] < exact.loc[KEEP, "statistic"]
    huge = closed_test(y, p, totals, training=(levels, np.full(len(levels), 1e9))).tests.set_index("update")
    assert huge["statistic"].to_numpy() == pytest.approx(exact["statistic"].to_numpy(), abs=1e-3)
