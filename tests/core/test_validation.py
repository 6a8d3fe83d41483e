"""External validation and recalibration (psl_core.validation) on hand-checkable tables."""

import json

import numpy as np
import pandas as pd
import pytest
from scipy.special import expit, logit

from psl_core import ProbabilisticScoringList
from psl_core.errors import DataError, PSLError
from psl_core.validation import (
    calibration_intercept,
    calibration_slope,
    recalibratable_stages,
    recalibrate,
    stage_rows,
    stage_totals,
    stagewise_validation,
    validation_report,
)
from tests.tables import lab_list


def perfectly_calibrated(n=20000, seed=0):
    """y drawn from p itself: a perfectly calibrated p."""
    rng = np.random.default_rng(seed)
    p = expit(rng.normal(0, 1.5, n))
    return (rng.random(n) < p).astype(int), p


def test_perfect_calibration_has_slope_one_and_intercept_zero():
    y, p = perfectly_calibrated()
    assert calibration_slope(y, p) == pytest.approx(1.0, abs=0.05)
    assert calibration_intercept(y, p) == pytest.approx(0.0, abs=0.05)


def test_a_higher_outcome_rate_moves_the_intercept_by_its_log_odds():
    # Every case's odds doubled at the new site: CITL = log 2, the slope stays 1.
    rng = np.random.default_rng(1)
    p = expit(rng.normal(0, 1.5, 20000))
    y = (rng.random(len(p)) < expit(logit(p) + np.log(2))).astype(int)
    assert calibration_intercept(y, p) == pytest.approx(np.log(2), abs=0.06)
    assert calibration_slope(y, p) == pytest.approx(1.0, abs=0.06)


def test_the_intercept_by_hand():
    # One constant prediction: the offset fit is solved by logit(rate) - logit(p).
    y = np.array([1, 1, 1, 0])
    assert calibration_intercept(y, np.full(4, 0.5)) == pytest.approx(logit(0.75))


def test_too_extreme_risks_have_a_slope_below_one():
    rng = np.random.default_rng(2)
    true = expit(rng.normal(0, 1, 20000))
    y = (rng.random(len(true)) < true).astype(int)
    extreme = expit(2 * logit(true))
    assert calibration_slope(y, extreme) == pytest.approx(0.5, abs=0.03)


@pytest.fixture(scope="module")
def site():
    """A one-question list fitted on a table where x=1 has rate 0.8 and x=0 rate 0.2."""
    x = np.array([1] * 50 + [0] * 50, dtype=float)
    y = np.array([1] * 40 + [0] * 10 + [1] * 10 + [0] * 40)
    X = pd.DataFrame({"x": x})
    model = ProbabilisticScoringList(score_set=(1,), calibration="isotonic", prior_strength=0, min_support=1,
                                     max_stages=1).fit(X, y)
    return model, X, y


def test_stage_totals_keep_missing_answers_missing(site):
    model, _, _ = site
    new = pd.DataFrame({"x": [1.0, np.nan, 0.0]})
    totals, known = stage_totals(model, new)
    assert known.tolist() == [[True, True], [True, False], [True, True]]
    assert totals[:, 1].tolist() == [model.scores_[0], 0, 0]


def test_a_missing_answer_at_the_site_goes_where_the_list_learned_as_at_the_bedside():
    """medicaldata/opt, a list trained on three clinics judged on the fourth: 87 of 167
    patients were left out for a missing lab the list had learned a direction for. They are
    judged as "not measured", with the list's own probabilities; only a missing answer the list
    learned nothing about leaves a patient out, and the report says which column."""
    model, X = lab_list()
    site = X.iloc[:200].copy()
    site.loc[site.index[:10], "age"] = np.nan  # no direction: these are left out
    y = (np.arange(200) % 3 == 0).astype(int)
    lab_missing = site["lab"].isna().to_numpy()
    report = validation_report(model, site, y, stage=2, n_boot=20)
    age_known = site["age"].notna().to_numpy()
    assert (report.n_rows, report.n_missing) == (190, 10) and report.undirected == ("age",)
    assert report.n_not_measured == int((lab_missing & age_known).sum()) > 0
    np.testing.assert_allclose(report.p, model.predict_proba(site[age_known], stage=2)[:, 1])
    first = validation_report(model, site, y, stage=1, n_boot=20)
    assert (first.n_rows, first.n_missing, first.undirected) == (200, 0, ())
    judged = stage_rows(model, site, 1)
    assert (judged.n_not_measured, int((~judged.rows).sum()), judged.undirected) == (int(lab_missing.sum()), 0, ())
    np.testing.assert_array_equal(judged.totals, stage_totals(model, site, 1)[0][:, 1])


def test_validation_on_the_training_table_is_calibrated(site):
    model, X, y = site
    report = validation_report(model, X[["x"]], y, stage=1, n_boot=50)
    m = report.measures["estimate"]
    assert m["observed_minus_expected"] == pytest.approx(0.0, abs=1e-12)
    assert m["citl"] == pytest.approx(0.0, abs=1e-6)
    assert m["slope"] == pytest.approx(1.0, abs=1e-6)
    assert m["brier"] == pytest.approx(0.16)  # 0.8 * 0.2 in both groups
    assert m["auc"] == pytest.approx(0.8 * 0.8 + 0.5 * (0.8 * 0.2 + 0.2 * 0.8))  # pairs above + half the ties
    lower, upper = report.measures.loc["brier", ["lower", "upper"]]
    assert lower <= 0.16 <= upper
    assert report.n_rows == 100 and report.n_missing == 0


def test_a_shifted_site_moves_citl_and_recalibration_takes_its_counts(site):
    model, _, _ = site
    # New site: x=1 has rate 0.9 (45 of 50), x=0 rate 0.5 (15 of 30); 10 rows miss x.
    x = np.array([1.0] * 50 + [0.0] * 30 + [np.nan] * 10)
    y = np.array([1] * 45 + [0] * 5 + [1] * 15 + [0] * 15 + [1] * 5 + [0] * 5)
    new = pd.DataFrame({"x": x})
    report = validation_report(model, new, y, stage=1, n_boot=50)
    assert report.n_rows == 80 and report.n_missing == 10
    assert report.measures.loc["observed_minus_expected", "estimate"] == pytest.approx(60 / 80 - (0.8 * 50 + 0.2 * 30) / 80)
    assert report.measures.loc["citl", "estimate"] > 0.5
    fitted = recalibrate(model, new, y)
    assert fitted.literals_ == model.literals_ and fitted.scores_ == model.scores_
    # Stage 0 uses all 90 rows; stage 1 the 80 with x known: totals 0 and 1.
    assert fitted.stage_positives_[0].tolist() == [65] and fitted.stage_negatives_[0].tolist() == [25]
    assert fitted.stage_positives_[1].tolist() == [15, 45] and fitted.stage_negatives_[1].tolist() == [15, 5]
    np.testing.assert_allclose(fitted.stage_probabilities_[1], [0.5, 0.9])
    after = validation_report(fitted, new, y, stage=1, n_boot=20).measures["estimate"]
    assert after["citl"] == pytest.approx(0.0, abs=1e-6) and after["slope"] == pytest.approx(1.0, abs=1e-6)
    assert model.stage_probabilities_[1].tolist() == pytest.approx([0.2, 0.8])  # the original is unchanged
    assert fitted.to_json() and fitted.recommended_stages_ is None


def test_recalibration_refuses_stages_without_enough_rows(site):
    model, _, _ = site
    new = pd.DataFrame({"x": [1.0] * 5 + [np.nan] * 40})
    y = np.array([1, 0] * 22 + [1])
    assert recalibratable_stages(model, new, y) == 0
    with pytest.raises(PSLError, match="stage 1 cannot be recalibrated.*at most 0 questions"):
        recalibrate(model, new, y)
    assert recalibrate(model, new, y, n_stages=0).n_stages_ == 1


def test_stagewise_validation_counts_rows_per_stage(site):
    model, _, _ = site
    new = pd.DataFrame({"x": [1.0, 0.0, np.nan, 1.0]})
    table = stagewise_validation(model, new, np.array([1, 0, 1, 1]))
    assert table["n_rows"].tolist() == [4, 3] and table["n_positive"].tolist() == [3, 2]


def test_bad_input_names_the_problem(site):
    model, _, _ = site
    with pytest.raises(DataError, match="no column 'x'"):
        validation_report(model, pd.DataFrame({"z": [1.0]}), [1])
    with pytest.raises(DataError, match="no row has all answers .*learned a direction"):
        validation_report(model, pd.DataFrame({"x": [np.nan, np.nan]}), [1, 0], stage=1)
    with pytest.raises(DataError, match="different lengths"):
        validation_report(model, pd.DataFrame({"x": [1.0]}), [1, 0])


def test_pseudo_cases_pull_toward_the_original_list(site):
    model, X, y = site
    shrunk = ProbabilisticScoringList(score_set=(1,), calibration="isotonic", prior_strength=2, min_support=1,
                                      max_stages=1).fit(X, y)
    old = shrunk.stage_probabilities_[1]
    new_x = pd.DataFrame({"x": [1.0] * 50 + [0.0] * 30})
    new_y = np.array([1] * 45 + [0] * 5 + [1] * 15 + [0] * 15)
    fitted = recalibrate(shrunk, new_x, new_y)
    # Two pseudo-cases at the old estimate of each total join the new site's counts.
    np.testing.assert_allclose(fitted.stage_probabilities_[1], [(15 + 2 * old[0]) / 32, (45 + 2 * old[1]) / 52])
    assert fitted.stage_positives_[1].tolist() == [15, 45]  # the intervals count real patients only


def test_separated_outcomes_have_an_infinite_slope_and_no_interval(site):
    model, _, _ = site
    new = pd.DataFrame({"x": [1.0] * 10 + [0.0] * 10})
    y = np.array([1] * 10 + [0] * 10)  # x answers the outcome exactly here
    assert calibration_slope(y, model.predict_proba(new, stage=1)[:, 1]) == np.inf
    report = validation_report(model, new, y, stage=1, n_boot=20)
    assert report.measures.loc["slope", "estimate"] == np.inf
    assert np.isnan(report.measures.loc["slope", ["lower", "upper"]].astype(float)).all()


def test_categorical_columns_may_be_pandas_categoricals_with_missing_answers():
    X = pd.DataFrame({"c": pd.Categorical(["a", "b", "a", "b"] * 10), "n": np.arange(40.0)})
    y = np.array([1, 0, 1, 0] * 10)  # distinct rows: the internal folds can hold some out
    model = ProbabilisticScoringList(min_support=1, forbidden=["n"]).fit(X, y)
    new = pd.DataFrame({"c": pd.Categorical(["a", None, "b"], categories=["a", "b"])})
    _, known = stage_totals(model, new)
    assert known[:, 1].tolist() == [True, False, True]


def test_recalibration_drops_the_old_sites_shrinkage():
    rng = np.random.default_rng(4)
    X = pd.DataFrame({"a": rng.normal(0, 1, 120).round(2), "b": rng.normal(0, 1, 120).round(2)})
    y = (rng.random(120) < 1 / (1 + np.exp(-X["a"]))).astype(int)
    model = ProbabilisticScoringList(recommend_folds=3).fit(X, y)
    assert model.shrinkage_ is not None
    fitted = recalibrate(model, X, y)
    assert fitted.shrinkage_ is None and model.shrinkage_ is not None
    assert "shrinkage" not in (json.loads(fitted.to_json())["validation"] or {})
