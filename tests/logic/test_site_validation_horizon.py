"""External validation of a horizon list (psl_triage.judging.validation_horizon): the site's time and
event columns read with clear refusals, the measures at the horizon equal to
psl_core.survival's on the same predictions, the censored-before-horizon count, and the
recalibration with censoring weights."""

import copy
import dataclasses

import numpy as np
import pytest

from psl_core import survival
from psl_core.errors import DataError
from psl_core.validation import recalibrate
from psl_triage.data import infer_column_types, prepare_training_data
from psl_triage.data.follow_up import FollowUp
from psl_triage.judging.validation import match_columns, needed_columns, save_recalibrated
from psl_triage.judging.validation_horizon import (
    follow_up_defaults,
    horizon_report,
    horizon_site,
    horizon_stages,
    recalibration_part,
)
from psl_triage.model_file.store import load_model
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions
from tests.tables import follow_up_table

HORIZON = 1000.0


@pytest.fixture(scope="module")
def trained():
    frame = follow_up_table(seed=1)
    types = {**infer_column_types(frame), "pid": "ignore"}
    prepared = prepare_training_data(frame, types, "status", [1], "learn", follow_up=FollowUp("rfstime", HORIZON, "days"))
    return train_list(prepared, "study.csv", TrainingOptions())


def site_of(trained, frame, time="rfstime", event="status", positive=(1,)):
    model, metadata = trained
    mapping = match_columns(needed_columns(model, metadata), frame.columns)
    return horizon_site(model, metadata, frame, mapping, time, event, list(positive))


def test_measures_equal_psl_core_survival_on_the_same_predictions(trained):
    model, _ = trained
    frame = follow_up_table(seed=2, n=300)
    site = site_of(trained, frame)
    stage = len(model.literals_)
    report = horizon_report(model, site, stage, 0.1)
    y = survival.survival_outcome(frame["rfstime"], frame["status"])
    risk = model.predict_proba(frame[model.feature_names_in_])[:, 1]
    assert report.n_rows == len(frame) and report.n_missing == 0
    assert report.brier == pytest.approx(survival.ipcw_brier(y, y, risk, HORIZON), abs=1e-12)
    assert report.auc == pytest.approx(survival.time_dependent_auc(y, y, risk, HORIZON), abs=1e-12)
    assert report.observed_expected == pytest.approx(survival.observed_expected(y, y, risk, HORIZON), abs=1e-12)
    assert report.observed == pytest.approx(survival.kaplan_meier_risk(y, HORIZON), abs=1e-12)
    assert report.net_benefit == pytest.approx(survival.net_benefit(y, y, risk, HORIZON, 0.1), abs=1e-12)
    by_total = survival.km_calibration(y, risk, HORIZON, model.total_scores(frame[model.feature_names_in_]))
    assert report.totals["observed"].tolist() == pytest.approx([row["observed"] for row in by_total])
    assert report.deciles["patients"].sum() == len(frame) and report.deciles["group"].min() == 1
    curve = report.curves[report.curves["method"] == "PSL"]
    assert curve["mean"].to_numpy() == pytest.approx(survival.net_benefit(y, y, risk, HORIZON, curve["threshold"].to_numpy()))


def test_censored_before_the_horizon_are_counted(trained):
    frame = follow_up_table(seed=2, n=300)
    report = horizon_report(trained[0], site_of(trained, frame), 1, 0.1)
    before = frame["rfstime"] <= HORIZON
    assert report.counts["censored"] == int((before & (frame["status"] == 0)).sum()) > 0
    assert report.counts["events"] == int((before & (frame["status"] == 1)).sum())
    assert report.counts["beyond"] == int((~before).sum())


def test_the_lists_time_column_is_proposed_by_name(trained):
    frame = follow_up_table(seed=2, n=50)
    assert follow_up_defaults(trained[1], frame) == ("rfstime", "status", [1])
    assert follow_up_defaults(trained[1], frame.rename(columns={"rfstime": "days"}))[0] is None


@pytest.mark.parametrize("change, words", [
    (lambda f: f.assign(rfstime=f["rfstime"].astype(object).where(f.index > 2, "n/a")), "are not numbers"),
    (lambda f: f.assign(rfstime=f["rfstime"].where(f.index > 2, -3)), "negative times"),
    (lambda f: f.assign(status=0), "has only one value"),
    (lambda f: f.drop(columns="rfstime"), "is not in the table"),
    (lambda f: f.assign(rfstime=f["rfstime"] / 365.25), "followed beyond the list's horizon of 1000 days"),
])
def test_a_time_or_event_column_that_cannot_serve_is_named(trained, change, words):
    with pytest.raises(DataError, match=words):
        site_of(trained, change(follow_up_table(seed=2, n=60)))


def test_a_three_valued_status_counts_the_unchosen_values_as_censored(trained):
    frame = follow_up_table(seed=2, n=60)
    frame["status"] = np.where(frame["status"] == 1, 2, np.arange(len(frame)) % 2)  # 0 censored, 1 other, 2 event
    with pytest.raises(DataError, match="an event column holds two"):
        site_of(trained, frame, positive=())  # no event value chosen: refused as before
    site = site_of(trained, frame, positive=(2,))
    assert "The event column 'status' has 3 values: 2 counts as the event, 0, 1 as censored" in site.table.notes[0]
    assert list(site.outcome["event"]) == list(frame.loc[site.table.X.index, "status"] == 2)
    # The Data page says the same of the training table: the other values count as censored.
    types = {**infer_column_types(frame), "pid": "ignore"}
    prepared = prepare_training_data(frame, types, "status", [2], "learn", follow_up=FollowUp("rfstime", HORIZON, "days"))
    assert any(note.endswith("2 counts as positive, 0, 1 as censored.") for note in prepared.notes)


def test_time_not_chosen_or_chosen_twice(trained):
    frame = follow_up_table(seed=2, n=60)
    with pytest.raises(DataError, match="follow-up time"):
        site_of(trained, frame, time=None)
    with pytest.raises(DataError, match="both the time and the event"):
        site_of(trained, frame, time="status")


def test_rows_without_a_time_are_left_out_with_a_note(trained):
    frame = follow_up_table(seed=2, n=60)
    frame.loc[:4, "rfstime"] = np.nan
    site = site_of(trained, frame)
    assert len(site.outcome) == len(site.table.y) == len(site.table.X) == 55
    assert any("without a follow-up time" in note for note in site.table.notes)


def test_recalibration_weighs_censoring_and_the_file_reopens(trained, tmp_path):
    model, metadata = trained
    frame = follow_up_table(seed=4, n=400)
    site = site_of(trained, frame)
    part, weight = recalibration_part(site)
    outcome, expected = survival.training_weights(site.outcome, HORIZON)
    assert len(part.y) == int((expected > 0).sum()) and weight == pytest.approx(expected[expected > 0])
    # Without pseudo-cases the prior is the weighted rate: the cumulative incidence by the horizon.
    bare = copy.deepcopy(model).set_params(prior_strength=0.0)
    prior = recalibrate(bare, part.X, part.y, 0, sample_weight=weight).stage_probabilities_[0][0]
    assert prior == pytest.approx(np.average(part.y, weights=weight))
    assert abs(prior - np.mean(part.y)) > 1e-3  # the weights matter here
    new, _, stored = save_recalibrated(model, metadata, part, "site.csv", len(model.literals_),
                                       directory=tmp_path, sample_weight=weight)
    reopened = load_model(stored.path)
    assert reopened.horizon == HORIZON
    X = frame[model.feature_names_in_]
    np.testing.assert_allclose(reopened.predict_proba(X), new.predict_proba(X))


def test_unit_weights_recalibrate_as_before(trained):
    model, _ = trained
    frame = follow_up_table(seed=4, n=300)
    X, y = frame[model.feature_names_in_], (frame["status"] == 1).to_numpy(int)
    plain = recalibrate(model, X, y)
    weighted = recalibrate(model, X, y, sample_weight=np.ones(len(y)))
    for a, b in zip(plain.stage_probabilities_, weighted.stage_probabilities_):
        np.testing.assert_allclose(a, b)
    assert [list(c) for c in plain.stage_positives_] == [list(c) for c in weighted.stage_positives_]


def test_every_stage_at_the_horizon_agrees_with_the_report(trained):
    model, _ = trained
    site = site_of(trained, follow_up_table(seed=2, n=300))
    stages = horizon_stages(model, site)
    assert list(stages.index) == list(range(model.n_stages_))
    for stage in (0, model.n_stages_ - 1):
        report = horizon_report(model, site, stage, 0.1)
        assert stages.loc[stage, "brier"] == pytest.approx(report.brier)
        assert stages.loc[stage, "auc"] == pytest.approx(report.auc, nan_ok=True)
        assert stages.loc[stage, "censored"] == report.counts["censored"]


def test_the_horizon_report_says_how_missing_answers_were_judged(trained):
    """As a yes/no list's report (medicaldata/opt): a missing answer the list learned no
    direction for leaves the patient out, counted and named; one it learned a direction for
    would be judged as not measured."""
    from psl_triage.words.validate import horizon_sentences

    model, _ = trained
    frame = follow_up_table(seed=2, n=300)
    first = str(model.literals_[0].column)
    frame.loc[:29, first] = np.nan
    report = horizon_report(model, site_of(trained, frame), 1, 0.1)
    assert model.literals_[0].not_measured is None  # no missing training value: nothing learned
    assert (report.n_rows, report.n_missing, report.n_not_measured, report.undirected) == (270, 30, 0, (first,))
    said = horizon_sentences(report, "1000 days", "")[0]
    assert said.startswith("Judged at stage 1 on 270 patients: ") and "30 patients with a missing answer to " in said
    learned = copy.deepcopy(model)
    learned.literals_[0] = dataclasses.replace(learned.literals_[0], missing=True, missing_learned=True)
    report = horizon_report(learned, site_of(trained, frame), 1, 0.1)
    assert (report.n_rows, report.n_missing, report.n_not_measured) == (300, 0, 30)
    assert ("30 of them have a missing answer to a question whose column had missing values in training: it counts "
            'as "not recorded"') in horizon_sentences(report, "1000 days", "")[0]


def test_a_site_with_other_censoring_is_judged_by_its_own_and_the_report_says_so(trained):
    """Issue 37: from one trial to the next the censoring at the horizon moved from 0.956 to
    0.672. A site's patients are weighted by the site's own censoring, never the training
    rows', and the report says when the two differ."""
    from psl_triage.words.validate import horizon_sentences

    model, metadata = trained
    frame = follow_up_table(seed=3, n=400)
    rng = np.random.default_rng(3)
    early = np.where(rng.random(len(frame)) < 0.4, rng.uniform(100, 900, len(frame)), np.inf)
    frame["status"] = np.where(early < frame["rfstime"], 0, frame["status"])  # a shorter follow-up here
    frame["rfstime"] = np.minimum(frame["rfstime"], early).round()
    site = site_of(trained, frame)
    report = horizon_report(model, site, len(model.literals_), 0.1)
    y = survival.survival_outcome(frame["rfstime"], frame["status"])
    trained_g = metadata["follow_up"]["uncensored_at_horizon"]
    assert report.uncensored_trained == trained_g and report.uncensored == survival.uncensored_at_horizon(y, HORIZON)
    assert report.uncensored < trained_g - 0.15 and report.censoring_differs
    risk = model.predict_proba(frame[model.feature_names_in_])[:, 1]
    assert report.brier == pytest.approx(survival.ipcw_brier(y, y, risk, HORIZON), abs=1e-12)
    said = " ".join(horizon_sentences(report, "1000 days", ""))
    assert "Follow-up here differs from the training table's" in said
    assert f"against {round(100 * trained_g)} % in training" in said
    alike = horizon_report(model, site_of(trained, follow_up_table(seed=2, n=300)), 1, 0.1)
    assert not alike.censoring_differs
    assert "Follow-up here differs" not in " ".join(horizon_sentences(alike, "1000 days", ""))


def test_a_horizon_site_gives_intervals_and_decision_curve_bands(trained):
    """Issue 39: Validate showed a horizon list's O/E, Brier and AUC without intervals and its
    decision curve without bands, as the yes/no page has them."""
    from psl_core.evaluation import PSL
    from psl_triage.judging.horizon import horizon_calibration
    from psl_triage.words.validate import horizon_measures_table

    model, metadata = trained
    report = horizon_report(model, site_of(trained, follow_up_table(seed=2, n=300)), len(model.literals_), 0.1)
    for measure in survival.MEASURES:
        low, high = report.intervals[measure]
        assert low < getattr(report, measure) < high, measure
    band = report.curves[report.curves["method"] == PSL]
    assert (band["upper"] - band["lower"] > 0).any() and (band["lower"] <= band["upper"]).all()
    table = horizon_measures_table(report)
    assert table["95 % interval"].str.match(r"^-?\d+\.\d+ to -?\d+\.\d+$").all()
    frame = follow_up_table(seed=1)
    types = {**infer_column_types(frame), "pid": "ignore"}
    prepared = prepare_training_data(frame, types, "status", [1], "learn", follow_up=FollowUp("rfstime", HORIZON, "days"))
    at_horizon = horizon_calibration(model, metadata, prepared)
    for measure in survival.MEASURES:
        low, high = at_horizon["intervals"][measure]
        assert low <= at_horizon[measure] <= high, measure
