"""The evidence measures against independent computations and published references.

Net benefit: by hand on a tiny table, and ``dcurves``' values on the same predictions
(recorded by ``bench/crosscheck_references.py``). Calibration intercept and slope: a
logistic recalibration fitted with ``statsmodels``. Riley's development criteria: the four
binary examples of ``pmsampsize``'s tests; validation criteria: ``pmvalsampsize``.
"""

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import expit, logit
from scipy.stats import norm

from psl_core.calibration_measures import (
    calibration_hierarchy,
    flexible_calibration,
    intercept_and_slope,
    observed_expected,
)
from psl_core.decision_curve import (
    interventions_avoided,
    net_benefit,
    net_benefit_of_actions,
    treat_all_net_benefit,
)
from psl_core.errors import DataError, PSLError
from psl_core.sample_size import (
    cox_snell_from_c_statistic,
    development_sample_size,
    max_cox_snell,
    validation_sample_size,
)

REFERENCES = json.loads((Path(__file__).parent / "data" / "evidence_references.json").read_text())


# ---------------------------------------------------------------------------- decision curves
def test_net_benefit_by_hand_on_a_tiny_table():
    y = np.array([1, 1, 0, 0, 1, 0])
    p = np.array([0.9, 0.4, 0.35, 0.1, 0.2, 0.6])
    # t = 0.3: acted on 0.9, 0.4, 0.35, 0.6 -> TP 2, FP 2; NB = 2/6 - 2/6 * 0.3/0.7
    # t = 0.5: acted on 0.9, 0.6 -> TP 1, FP 1; NB = 1/6 - 1/6 * 1
    # t = 0.4: strictly above 0.4 only -> 0.9, 0.6 as at 0.5, odds 0.4/0.6
    expected = [2 / 6 - 2 / 6 * 0.3 / 0.7, 1 / 6 - 1 / 6 * 0.4 / 0.6, 0.0]
    assert net_benefit(y, p, [0.3, 0.4, 0.5]) == pytest.approx(expected, abs=1e-12)
    assert treat_all_net_benefit(0.5, [0.3]) == pytest.approx([0.5 - 0.5 * 0.3 / 0.7])
    acted = p > 0.3
    assert net_benefit_of_actions(y, acted, 0.3) == pytest.approx(expected[0], abs=1e-12)
    assert net_benefit(y, p, [0.3], harm=0.05)[0] == pytest.approx(expected[0] - 0.05)
    avoided = interventions_avoided(expected[0], treat_all_net_benefit(0.5, 0.3), 0.3)
    assert avoided[0] == pytest.approx(100 * (expected[0] - (0.5 - 0.5 * 0.3 / 0.7)) * 0.7 / 0.3)


def test_net_benefit_equals_dcurves():
    ref = REFERENCES["dcurves"]
    y, p, t = np.array(ref["y"]), np.array(ref["p"]), np.array(ref["thresholds"])
    assert not np.isin(p, t).any()  # dcurves acts at p >= t, the list at p > t: no ties here
    np.testing.assert_allclose(net_benefit(y, p, t), ref["net_benefit"]["p"], rtol=0, atol=1e-9)
    np.testing.assert_allclose(treat_all_net_benefit(y.mean(), t), ref["net_benefit"]["all"], rtol=0, atol=1e-9)
    np.testing.assert_allclose(ref["net_benefit"]["none"], 0.0)


def test_thresholds_must_be_inside_zero_one():
    with pytest.raises(PSLError, match="thresholds"):
        net_benefit([0, 1], [0.2, 0.8], [0.0, 0.5])


# ---------------------------------------------------------------------------- calibration
def _miscalibrated(n, seed, intercept=-0.4, slope=0.7):
    rng = np.random.default_rng(seed)
    p = expit(rng.normal(-1.0, 1.2, n))
    y = rng.binomial(1, expit(intercept + slope * logit(p)))
    return y, p


def test_intercept_and_slope_equal_statsmodels():
    sm = pytest.importorskip("statsmodels.api")
    y, p = _miscalibrated(800, 3)
    lp = logit(p)
    ours = intercept_and_slope(y, p)
    offset_fit = sm.GLM(y, np.ones((len(y), 1)), family=sm.families.Binomial(), offset=lp).fit(tol=1e-12)
    slope_fit = sm.GLM(y, sm.add_constant(lp), family=sm.families.Binomial()).fit(tol=1e-12)
    assert ours["intercept"][0] == pytest.approx(offset_fit.params[0], abs=1e-6)
    assert ours["slope"][0] == pytest.approx(slope_fit.params[1], abs=1e-6)
    low, high = slope_fit.conf_int()[1]
    assert ours["slope"][1:] == pytest.approx((low, high), abs=1e-6)
    low, high = offset_fit.conf_int()[0]
    assert ours["intercept"][1:] == pytest.approx((low, high), abs=1e-6)


def test_observed_expected_interval():
    y = np.array([1] * 20 + [0] * 80)
    p = np.full(100, 0.25)
    ratio, low, high = observed_expected(y, p)
    half = 1.959964 * np.sqrt(1 / 20 - 1 / 100)
    assert ratio == pytest.approx(0.8)
    assert (low, high) == pytest.approx((0.8 * np.exp(-half), 0.8 * np.exp(half)), rel=1e-5)


def test_flexible_curve_band_covers_a_known_miscalibration():
    """Property (a smaller version of bench/calibration_coverage.py's 200 data sets):
    the simultaneous band holds the true curve in most simulated data sets."""
    covered = 0
    for seed in range(30):
        y, p = _miscalibrated(600, 100 + seed)
        curve = flexible_calibration(y, p, n_boot=100, seed=seed)
        truth = expit(-0.4 + 0.7 * logit(curve.risk))
        covered += np.all((curve.lower <= truth) & (truth <= curve.upper))
    assert covered >= 25


def test_calibration_numbers_of_a_calibrated_model_are_small():
    rng = np.random.default_rng(5)
    p = expit(rng.normal(-1, 1, 5000))
    y = rng.binomial(1, p)
    numbers = calibration_hierarchy(y, p)
    assert numbers["ici"][0] < 0.02
    assert numbers["observed_expected"][1] < 1 < numbers["observed_expected"][2]
    assert numbers["slope"][1] < 1 < numbers["slope"][2]


def test_flexible_curve_on_a_list_with_few_distinct_probabilities():
    rng = np.random.default_rng(1)
    p = rng.choice([0.1, 0.3, 0.7], 300)
    y = rng.binomial(1, p)
    curve = flexible_calibration(y, p, n_boot=50)
    assert len(curve.knots) <= 3
    assert np.all(curve.lower <= curve.observed) and np.all(curve.observed <= curve.upper)
    with pytest.raises(DataError, match="with and without"):
        flexible_calibration(np.zeros(10, dtype=int), np.full(10, 0.2))


# ---------------------------------------------------------------------------- sample size
@pytest.mark.parametrize(
    ("r2", "parameters", "prevalence", "expected", "epp"),
    [  # pmsampsize's tests (R package, tests/testthat/test_bin.R): criteria 1-3 and final
        (0.288, 24, 0.174, (623, 662, 221, 662), 4.8),
        (0.55, 24, 0.174, (255, 532, 221, 532), 3.86),
        (0.288, 36, 0.174, (934, 992, 221, 992), 4.79),
        (0.288, 24, 0.25, (623, 590, 289, 623), 6.49),
    ],
)
def test_riley_development_criteria_equal_pmsampsize(r2, parameters, prevalence, expected, epp):
    size = development_sample_size(parameters, prevalence, cox_snell=r2)
    assert (*size.criteria.values(), size.minimum) == expected
    assert round(size.events_per_parameter, 2) == epp


def test_development_default_r2_and_c_statistic():
    size = development_sample_size(10, 0.2)
    assert size.cox_snell == pytest.approx(0.15 * max_cox_snell(0.2))
    assert size.met(size.minimum) == dict.fromkeys(size.criteria, True)
    assert not all(size.met(size.criteria["overall risk"] - 1).values())
    # The C-statistic's R²: a large simulated population fitted the same way agrees.
    rng = np.random.default_rng(0)
    n, mu = 400_000, np.sqrt(2) * norm.ppf(0.8)
    y = rng.binomial(1, 0.2, n)
    lp = rng.normal(mu * y, 1.0)
    sm = pytest.importorskip("statsmodels.api")
    fit = sm.GLM(y, sm.add_constant(lp), family=sm.families.Binomial()).fit()
    simulated = 1 - np.exp(-(fit.null_deviance - fit.deviance) / n)
    assert cox_snell_from_c_statistic(0.8, 0.2) == pytest.approx(simulated, abs=0.003)
    with pytest.raises(PSLError, match="parameters"):
        development_sample_size(0, 0.2)


@pytest.mark.parametrize("case", REFERENCES["pmvalsampsize"])
def test_validation_criteria_equal_pmvalsampsize(case):
    m = 400_000  # pmvalsampsize simulates its LP; a fine grid of the same normal here
    lp = norm.ppf((np.arange(m) + 0.5) / m, loc=case["lp_mean"], scale=case["lp_sd"])
    size = validation_sample_size(case["prevalence"], case["c_statistic"], lp,
                                  {"observed_expected": case["oe_width"]})
    assert size.criteria["c_statistic"] == case["c_statistic_rows"]
    # pmvalsampsize steps its O/E standard error by 1e-4 and simulates the slope's LP: 1 %.
    assert size.criteria["observed_expected"] == pytest.approx(case["observed_expected"], rel=0.01)
    assert size.criteria["slope"] == pytest.approx(case["slope"], rel=0.01)


# ---------------------------------------------------------------------------- Monte Carlo
COST_RATIO = 2.0  # threshold 1/3


@pytest.fixture(scope="module")
def cv_split(demo_prepared):
    from sklearn.model_selection import StratifiedShuffleSplit

    from psl_core import ProbabilisticScoringList
    from psl_core.evaluation import monte_carlo_cv

    def make_list():
        return ProbabilisticScoringList(max_stages=5)

    X, y = demo_prepared.X, demo_prepared.y
    result = monte_carlo_cv(X, y, make_list, n_splits=2, seed=3, cost_ratio=COST_RATIO, n_jobs=1)
    train, test = next(StratifiedShuffleSplit(n_splits=2, test_size=1 / 3, random_state=3).split(np.zeros(len(y)), y))
    return result, make_list().fit(X.iloc[train], y[train]), X.iloc[test], y[test]


def _by_hand(y, p, t):
    """Net benefit with a loop over patients: acted on when p > t."""
    tp = sum(1 for yi, pi in zip(y, p) if pi > t and yi == 1)
    fp = sum(1 for yi, pi in zip(y, p) if pi > t and yi == 0)
    return tp / len(y) - fp / len(y) * t / (1 - t)


def test_held_out_net_benefit_equals_a_computation_by_hand(cv_split):
    result, model, X_test, y_test = cv_split
    table = result.net_benefit[result.net_benefit["split"] == 0]
    probabilities = model.stagewise_intervals(X_test)[:, :, 1]
    for k in range(model.n_stages_):
        rows = table[(table["stage"] == k) & (table["method"] == "PSL")]
        assert 1 / (1 + COST_RATIO) in rows["threshold"].to_numpy()  # M's threshold is on the curve
        expected = [_by_hand(y_test, probabilities[:, k], t) for t in rows["threshold"]]
        np.testing.assert_allclose(rows["value"], expected, rtol=0, atol=1e-9)
    treat_all = table[table["method"] == "Treat all"]
    np.testing.assert_allclose(
        treat_all["value"], [_by_hand(y_test, np.ones(len(y_test)), t) for t in treat_all["threshold"]], atol=1e-9)
    bedside = table[table["method"] == "bedside stop rule"]
    assert len(bedside) == 1 and bedside["threshold"].iloc[0] == pytest.approx(1 / 3)
    assert set(table["method"]) >= {"PSL", "LR (C = 1)", "LR (unregularized)"}


def test_held_out_calibration_equals_the_hierarchy_on_the_split(cv_split):
    result, model, X_test, y_test = cv_split
    p = model.stagewise_intervals(X_test)[:, -1, 1]
    rows = result.calibration[(result.calibration["split"] == 0) & (result.calibration["method"] == "PSL")
                              & (result.calibration["stage"] == model.n_stages_ - 1)]
    ours = rows.set_index("measure")["value"]
    expected = calibration_hierarchy(y_test, p)
    for measure in ("observed_expected", "intercept", "slope", "ici", "emax"):
        assert ours[measure] == pytest.approx(expected[measure][0], abs=1e-6), measure
    curve = result.calibration_curves[(result.calibration_curves["split"] == 0)
                                      & (result.calibration_curves["stage"] == model.n_stages_ - 1)]
    assert len(curve) and curve["risk"].between(p.min() - 1e-9, p.max() + 1e-9).all()


def test_evidence_can_be_left_out(demo_prepared):
    from psl_core import ProbabilisticScoringList
    from psl_core.evaluation import monte_carlo_cv

    result = monte_carlo_cv(demo_prepared.X, demo_prepared.y, lambda: ProbabilisticScoringList(max_stages=2),
                            n_splits=1, n_jobs=1, evidence=False)
    assert result.net_benefit is None and result.calibration is None


# ---------------------------------------------------------------------------- subgroups
def test_a_group_miscalibrated_alone_is_named_and_a_tiny_group_is_too_small():
    from psl_core.subgroups import differing_groups, subgroup_measures

    rng = np.random.default_rng(11)
    n = 1500
    group = rng.choice(["men", "women"], n).astype(object)
    p = expit(rng.normal(-1.0, 1.0, n))
    truth = np.where(group == "women", expit(logit(p) + 1.2), p)  # the list under-estimates women's risk
    y = rng.binomial(1, truth)
    group[:5] = "transgender"  # five patients: too small to judge
    table = subgroup_measures(y, p, group, threshold=0.2, n_boot=100)
    assert table.loc["transgender", "too_small"] and np.isnan(table.loc["transgender", "observed_expected"])
    assert table.loc["transgender", "n"] == 5
    named = differing_groups(table)
    assert list(named) == ["women"]
    assert "observed_expected" in named["women"]
    assert table.loc["All patients", "n"] == n


def test_the_bedside_point_of_a_list_with_costs_subtracts_the_cost_asked(demo_prepared):
    from psl_core import ProbabilisticScoringList
    from psl_core.evaluation import STEPWISE, STEPWISE_COSTED, monte_carlo_cv

    costs = dict.fromkeys(demo_prepared.X.columns, 1.0)  # every question costs 1: cost asked = questions asked

    def make_list():
        return ProbabilisticScoringList(max_stages=4, max_feature_uses=1, question_costs=costs)

    value = 20.0
    result = monte_carlo_cv(demo_prepared.X, demo_prepared.y, make_list, n_splits=2, cost_ratio=COST_RATIO,
                            n_jobs=1, change_value=value, bedside_stages=4)
    table = result.net_benefit
    plain = table[table["method"] == STEPWISE].set_index("split")["value"]
    costed = table[table["method"] == STEPWISE_COSTED].set_index("split")["value"]
    asked = result.three_way[(result.three_way["rule"] == "bedside stop rule")
                             & (result.three_way["confidence"] == 0.95)
                             & (result.three_way["measure"] == "questions")].set_index("split")["value"]
    assert (asked > 0).all()
    np.testing.assert_allclose(plain - costed, asked / value, atol=1e-12)


@settings(max_examples=60)
@given(
    data=st.lists(st.tuples(st.integers(0, 1), st.floats(0, 1)), min_size=1, max_size=40),
    thresholds=st.lists(st.floats(0.001, 0.999), min_size=1, max_size=8),
)
def test_net_benefit_equals_a_loop_on_any_table(data, thresholds):
    y = np.array([d[0] for d in data])
    p = np.array([d[1] for d in data])
    expected = [_by_hand(y, p, t) for t in thresholds]
    np.testing.assert_allclose(net_benefit(y, p, thresholds), expected, rtol=0, atol=1e-12)
