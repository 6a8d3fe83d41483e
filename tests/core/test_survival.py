"""Time-to-event lists (psl_core.survival, ProbabilisticScoringList(horizon=...)) and the
sample weights they rest on."""

import warnings

import numpy as np
import pytest
from sklearn.model_selection import ShuffleSplit
from sksurv.metrics import brier_score, cumulative_dynamic_auc

from psl_core import survival
from psl_core.errors import DataError
from psl_core.model import ProbabilisticScoringList
from psl_core.survival import (
    censoring_curve,
    cox_risk,
    held_out_targets,
    horizon_splits,
    ipcw_brier,
    ipcw_targets,
    kaplan_meier_risk,
    km_calibration,
    net_benefit,
    survival_outcome,
    time_dependent_auc,
    training_weights,
)
from tests.tables import cox_failing

HORIZON = 5.0


def follow_up(seed, n=400, binary=True, censor_until=12.0):
    """Exponential event times with a known hazard per patient, uniform censoring."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, 2)).astype(float) if binary else rng.normal(size=(n, 4))
    rate = 0.05 * np.exp(1.0 * X[:, 0] + 0.6 * X[:, 1])
    event_time = rng.exponential(1 / rate)
    censor_time = rng.uniform(0, censor_until, size=n)
    y = survival_outcome(np.minimum(event_time, censor_time), event_time <= censor_time)
    return X, y, 1 - np.exp(-rate * HORIZON)


def test_brier_and_auc_equal_scikit_survival():
    X, y, _ = follow_up(1, n=600, binary=False)
    train, test = y[:400], y[400:]
    rng = np.random.default_rng(2)
    continuous = rng.uniform(size=200)
    tied = np.round(continuous, 1)  # a list's few distinct risks: ties count one half
    for risk in (continuous, tied):
        assert ipcw_brier(train, test, risk, HORIZON) == pytest.approx(
            brier_score(train, test, 1 - risk, HORIZON)[1][0], abs=1e-6)
        assert time_dependent_auc(train, test, risk, HORIZON) == pytest.approx(
            cumulative_dynamic_auc(train, test, risk, HORIZON)[0][0], abs=1e-6)


def test_weights_are_those_of_a_hand_computed_example():
    # Times 1 (event), 2 (censored), 3 (event), 4 (censored), 6 (event); horizon 5.
    y = survival_outcome([1, 2, 3, 4, 6], [1, 0, 1, 0, 1])
    outcome, weight = ipcw_targets(y, 5.0)
    # G: 1 until 2, then 1 - 1/4 = 3/4 until 4, then 3/4 * (1 - 1/2) = 3/8.
    assert censoring_curve(y)[1].tolist() == [1.0, 0.75, 0.75, 0.375, 0.375]
    assert outcome.tolist() == [1, 0, 1, 0, 0]
    assert weight.tolist() == [1.0, 0.0, 1 / 0.75, 0.0, 1 / 0.375]
    # The weighted rate is the Kaplan-Meier risk by the horizon.
    assert weight @ outcome / weight.sum() == pytest.approx(kaplan_meier_risk(y, 5.0))


def test_without_censoring_the_list_is_the_yes_no_list():
    X, y, _ = follow_up(3, censor_until=1e9)
    assert not (~y["event"] & (y["time"] <= HORIZON)).any()
    survival = ProbabilisticScoringList(horizon=HORIZON, max_stages=2).fit(X, y)
    yes_no = ProbabilisticScoringList(max_stages=2).fit(X, (y["time"] <= HORIZON).astype(int))
    assert survival.features_ == yes_no.features_
    np.testing.assert_allclose(survival.predict_proba(X), yes_no.predict_proba(X))


def test_the_list_learns_from_stabilised_weights():
    """Scaled to mean 1 over the patients who take part: the prior's pseudo-cases weigh
    against the observed patients, not against the censored ones' share as well."""
    X, y, _ = follow_up(6, binary=False)
    outcome, weight = training_weights(y, HORIZON)
    raw = ipcw_targets(y, HORIZON)[1]
    kept = weight > 0
    assert np.array_equal(kept, raw > 0) and raw[kept].mean() > 1.1
    assert weight[kept].mean() == pytest.approx(1.0)
    np.testing.assert_allclose(weight[kept] / raw[kept], 1 / raw[kept].mean())
    survival = ProbabilisticScoringList(horizon=HORIZON, max_stages=3).fit(X, y)
    yes_no = ProbabilisticScoringList(max_stages=3).fit(X[kept], outcome[kept], sample_weight=weight[kept])
    assert survival.literals_ == yes_no.literals_
    np.testing.assert_allclose(survival.predict_proba(X), yes_no.predict_proba(X))
    unscaled = ProbabilisticScoringList(max_stages=3).fit(X[kept], outcome[kept], sample_weight=raw[kept])
    assert not np.allclose(survival.predict_proba(X), unscaled.predict_proba(X))


def test_integer_weights_equal_repeated_rows():
    X, y, _ = follow_up(4, binary=False)
    labels = (y["time"] <= HORIZON).astype(int)
    repeat = np.where(labels == 1, 3, 1)
    settings = dict(loss="entropy", min_support=1, max_stages=3, calibration="isotonic")
    weighted = ProbabilisticScoringList(**settings).fit(X, labels, sample_weight=repeat)
    repeated = ProbabilisticScoringList(**settings).fit(np.repeat(X, repeat, axis=0), np.repeat(labels, repeat))
    assert weighted.features_ == repeated.features_ and weighted.thresholds_ == repeated.thresholds_
    np.testing.assert_allclose(weighted.predict_proba(X), repeated.predict_proba(X))


def test_rows_of_weight_zero_take_no_part_with_or_without_a_horizon():
    X, y, _ = follow_up(7, binary=False)
    labels = (y["time"] <= HORIZON).astype(int)
    given = np.where(np.arange(len(y)) % 5 == 0, 0.0, 1.0 + (np.arange(len(y)) % 3))
    kept = given > 0
    settings = dict(max_stages=3, random_state=0)
    weighted = ProbabilisticScoringList(**settings).fit(X, labels, sample_weight=given)
    dropped = ProbabilisticScoringList(**settings).fit(X[kept], labels[kept], sample_weight=given[kept])
    assert weighted.literals_ == dropped.literals_
    np.testing.assert_allclose(weighted.predict_proba(X), dropped.predict_proba(X))
    # With a horizon the censoring weights (from every patient) multiply the given ones.
    outcome, censoring = training_weights(y, HORIZON)
    both = censoring * given
    survival = ProbabilisticScoringList(horizon=HORIZON, **settings).fit(X, y, sample_weight=given)
    on_kept = ProbabilisticScoringList(**settings).fit(X[both > 0], outcome[both > 0], sample_weight=both[both > 0])
    assert survival.literals_ == on_kept.literals_
    np.testing.assert_allclose(survival.predict_proba(X), on_kept.predict_proba(X))
    assert survival.horizon_summary_["n"] == len(y)


def test_weights_only_on_patients_censored_before_the_horizon_are_refused():
    X, y, _ = follow_up(8)
    censored_early = ~y["event"] & (y["time"] <= HORIZON)
    with pytest.raises(DataError, match="no row has a weight > 0.*censored before the horizon"):
        ProbabilisticScoringList(horizon=HORIZON, max_stages=2).fit(
            X, y, sample_weight=censored_early.astype(float))


def test_censoring_changes_the_risks_a_yes_no_list_would_give():
    # Heavy censoring: "event during follow-up" underestimates the risk by the horizon.
    X, y, truth = follow_up(5, n=2000, censor_until=8.0)
    survival = ProbabilisticScoringList(horizon=HORIZON, max_stages=2).fit(X, y)
    naive = ProbabilisticScoringList(max_stages=2).fit(X, y["event"].astype(int))
    survival_error = abs(survival.predict_proba(X)[:, 1].mean() - truth.mean())
    naive_error = abs(naive.predict_proba(X)[:, 1].mean() - truth.mean())
    assert survival_error < 0.02 < naive_error


def test_intervals_cover_the_true_risk_under_censoring():
    """In >= 95 % of 200 simulated data sets (known hazards, a third censored before the
    horizon) every total's interval holds the true risk by the horizon of its patients.
    Measured: 0.975 with the default learner and with the paper's setup."""
    covered = 0
    for seed in range(200):
        X, y, truth = follow_up(seed)
        model = ProbabilisticScoringList(horizon=HORIZON, max_stages=2).fit(X, y)
        totals, lower, _, upper = model.stage_interval()
        row_totals = model.total_scores(X)
        covered += all(
            lo <= truth[row_totals == t].mean() <= hi
            for t, lo, hi in zip(totals, lower, upper) if np.any(row_totals == t)
        )
    assert covered / 200 >= 0.95


def test_the_model_file_keeps_the_horizon():
    X, y, _ = follow_up(6)
    model = ProbabilisticScoringList(horizon=HORIZON, max_stages=2, recommend_folds=3).fit(X, y)
    loaded = ProbabilisticScoringList.from_json(model.to_json())
    assert loaded.horizon == HORIZON and survival.is_horizon_list(loaded)
    assert not survival.is_horizon_list(None)
    np.testing.assert_allclose(loaded.predict_proba(X), model.predict_proba(X))
    risks = model.stage_probabilities_[-1]
    assert np.all(np.diff(risks) >= 0)


def test_calibration_per_total_and_the_cox_reference():
    X, y, _ = follow_up(7, n=900, binary=False)
    model = ProbabilisticScoringList(horizon=HORIZON, max_stages=3).fit(X[:600], y[:600])
    risk = model.predict_proba(X[600:])[:, 1]
    rows = km_calibration(y[600:], risk, HORIZON, model.total_scores(X[600:]))
    assert sum(r["n"] for r in rows) == 300
    assert all(abs(r["predicted"] - r["observed"]) < 0.2 for r in rows if r["n"] >= 30)
    cox = cox_risk(X[:600], y[:600], X[600:], HORIZON)
    assert ipcw_brier(y[:600], y[600:], cox, HORIZON) < ipcw_brier(y[:600], y[600:], np.full(300, 0.3), HORIZON)


@pytest.mark.parametrize("bad, message", [
    (lambda y: (y["time"] <= 5).astype(int), "structured array"),
    (lambda y: survival_outcome(y["time"] - 100, y["event"]), ">= 0"),
    (lambda y: survival_outcome(y["time"], np.zeros(len(y))), "no patient has the event"),
])
def test_bad_outcomes_are_named(bad, message):
    X, y, _ = follow_up(8, n=50)
    with pytest.raises(DataError, match=message):
        ProbabilisticScoringList(horizon=HORIZON).fit(X, bad(y))


def test_a_horizon_beyond_follow_up_is_named():
    X, y, _ = follow_up(9, n=100, censor_until=3.0)
    with pytest.raises(DataError, match="censored before the horizon"):
        ProbabilisticScoringList(horizon=50.0).fit(X, y)


def test_held_out_splits_compare_the_list_with_cox_and_the_naive_list():
    X, y, _ = follow_up(10, n=900, binary=False, censor_until=8.0)
    results = horizon_splits(X, y, HORIZON, lambda: ProbabilisticScoringList(max_stages=3), n_splits=2,
                             threshold=0.3)
    measures = ("brier", "auc", "observed_expected", "net_benefit")
    assert set(results) == {f"{m}_{k}" for m in ("list", "cox", "naive") for k in measures} | {"cox_fitted"}
    assert all(len(v) == 2 for v in results.values()) and results["cox_fitted"].all()
    curves = horizon_splits(X, y, HORIZON, lambda: ProbabilisticScoringList(max_stages=3), n_splits=2,
                            thresholds=[0.1, 0.3])
    assert {f"{m}_decision_curve" for m in ("list", "cox", "naive", "all")} <= set(curves)
    assert curves["list_decision_curve"].shape == (2, 2)
    np.testing.assert_allclose(curves["list_decision_curve"][:, 1], results["list_net_benefit"])
    assert np.all(np.abs(results["list_brier"] - results["cox_brier"]) < 0.02)
    # Heavy censoring: "event during follow-up" underestimates the risk by the horizon.
    assert np.all(np.abs(results["list_observed_expected"] - 1) < np.abs(results["naive_observed_expected"] - 1))


def test_held_out_splits_judge_the_lists_at_the_stage_asked():
    """The Evaluation page compared only the whole list; it now judges both lists at the stage
    the user chose (a split's shorter list at its last stage)."""
    X, y, _ = follow_up(10, n=600, binary=False, censor_until=8.0)
    make = lambda: ProbabilisticScoringList(max_stages=3)  # noqa: E731
    whole = horizon_splits(X, y, HORIZON, make, n_splits=2)
    first = horizon_splits(X, y, HORIZON, make, n_splits=2, stage=1)
    beyond = horizon_splits(X, y, HORIZON, make, n_splits=2, stage=99)
    np.testing.assert_allclose(beyond["list_brier"], whole["list_brier"])
    assert not np.allclose(first["list_brier"], whole["list_brier"])
    np.testing.assert_allclose(first["cox_brier"], whole["cox_brier"])
    train, test = next(ShuffleSplit(n_splits=2, test_size=1 / 3, random_state=0).split(np.zeros(len(y))))
    fitted = make().set_params(horizon=HORIZON).fit(X[train], y[train])
    risk = fitted.predict_proba(X[test], stage=1)[:, 1]
    assert first["list_brier"][0] == pytest.approx(ipcw_brier(y[train], y[test], risk, HORIZON), abs=1e-12)


def separated_follow_up(seed=1, n=120):
    """Follow-up whose last column orders the times exactly: the Cox partial likelihood has no
    finite maximum, and scikit-survival's Newton steps fail with a tiny ridge penalty."""
    rng = np.random.default_rng(seed)
    time, event = rng.exponential(50, n), rng.random(n) < 0.3
    X = np.c_[rng.normal(size=(n, 2)), time < np.sort(time)[5], -time]
    return X, survival_outcome(time, event)


def test_a_cox_fit_without_a_finite_maximum_takes_a_larger_ridge():
    from sksurv.linear_model import CoxPHSurvivalAnalysis

    X, y = separated_follow_up()
    standardized = (X - X.mean(axis=0)) / X.std(axis=0)
    with pytest.raises(ValueError, match="search direction contains NaN"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        CoxPHSurvivalAnalysis(alpha=1e-4, ties="breslow").fit(standardized, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow warnings either
        risk = cox_risk(X[:80], y[:80], X[80:], 20.0)
    assert risk.shape == (40,) and np.all((risk >= 0) & (risk <= 1))


def test_a_cox_model_that_cannot_be_fitted_is_named(monkeypatch):
    X, y = separated_follow_up()
    monkeypatch.setattr(survival, "MAX_RIDGE", 1e-3)
    with pytest.raises(DataError, match="Cox model could not be fitted, not even with a ridge penalty of 0.0001"):
        cox_risk(X[:80], y[:80], X[80:], 20.0)


def test_held_out_splits_keep_the_list_where_cox_cannot_be_fitted(monkeypatch):
    X, y, _ = follow_up(12, n=300, binary=False)
    cox_failing(monkeypatch, 1)
    results = horizon_splits(X, y, HORIZON, _ConstantRisk, n_splits=2, threshold=0.3, thresholds=[0.1, 0.3])
    assert results["cox_fitted"].tolist() == [False, True]
    assert np.isnan(results["cox_brier"][0]) and np.isnan(results["cox_decision_curve"][0]).all()
    assert np.isfinite(results["cox_brier"][1]) and np.isfinite(results["list_brier"]).all()
    assert np.isfinite(results["list_decision_curve"]).all()


class _ConstantRisk:
    """A stand-in for a list in horizon_splits: the same risk for every patient, no fit."""

    def set_params(self, **params):
        return self

    def fit(self, X, y):
        return self

    def predict_proba(self, X):
        return np.column_stack([np.full(len(X), 0.7), np.full(len(X), 0.3)])


def test_held_out_splits_estimate_the_censoring_once_per_split(monkeypatch):
    X, y, _ = follow_up(12, n=300, binary=False)
    calls = []
    monkeypatch.setattr(survival, "censoring_curve", lambda y: calls.append(len(y)) or censoring_curve(y))
    results = horizon_splits(X, y, HORIZON, _ConstantRisk, n_splits=3, threshold=0.3, thresholds=[0.1, 0.3])
    assert calls == [200, 200, 200]  # G of each split's training part, nothing else
    train, test = next(ShuffleSplit(n_splits=3, test_size=1 / 3, random_state=0).split(np.zeros(len(y))))
    targets = held_out_targets(y[train], y[test], HORIZON)
    risk = np.full(len(test), 0.3)
    assert results["list_brier"][0] == pytest.approx(ipcw_brier(y[train], y[test], risk, HORIZON), abs=1e-12)
    assert results["list_observed_expected"][0] == pytest.approx(targets.observed_expected(risk), abs=1e-12)
    np.testing.assert_allclose(results["all_decision_curve"][0],
                               net_benefit(y[train], y[test], np.ones(len(test)), HORIZON, np.array([0.1, 0.3])))


def test_measures_at_the_horizon_refuse_risks_of_another_length():
    y = survival_outcome([1, 2, 3, 4, 6], [1, 0, 1, 0, 1])
    with pytest.raises(DataError, match="one predicted risk per patient: 5 patients"):
        held_out_targets(y, y, 5.0).brier([0.1, 0.2])


def test_net_benefit_is_a_sum_over_patients():
    y = survival_outcome([1, 2, 3, 4, 6], [1, 0, 1, 0, 1])
    risk = np.array([0.5, 0.5, 0.1, 0.6, 0.7])
    # Treated above 0.25: patients 1 (event, weight 1), 2 (weight 0), 4 (weight 0), 5 (control, 8/3).
    expected = (1.0 - (1 / 0.375) * 0.25 / 0.75) / 5
    assert net_benefit(y, y, risk, 5.0, 0.25) == pytest.approx(expected)


def test_the_decision_curve_at_the_horizon_is_the_net_benefit_at_each_threshold():
    X, y, _ = follow_up(11, n=300, binary=False)
    risk = np.random.default_rng(3).uniform(size=len(y))
    grid = np.array([0.05, 0.25, 0.5, 0.75])
    curve = net_benefit(y, y, risk, HORIZON, grid)
    assert curve.shape == (4,)
    np.testing.assert_allclose(curve, [net_benefit(y, y, risk, HORIZON, t) for t in grid])
    # Treat all: the IPCW event rate by the horizon minus the rest at the threshold's odds.
    outcome, weight = ipcw_targets(y, HORIZON)
    rate = weight @ outcome / len(y)
    rest = weight @ (1 - outcome) / len(y)
    np.testing.assert_allclose(net_benefit(y, y, np.ones(len(y)), HORIZON, grid), rate - rest * grid / (1 - grid))
