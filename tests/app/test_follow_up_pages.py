"""Follow-up tables through the pages (AppTest): the Data page proposes the time and event
columns and a horizon, says who is censored before it and never offers the time as a
question; Train fits a list for the risk within the horizon; Triage names that risk; the
saved list loads back with its horizon."""

from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from psl_core import ProbabilisticScoringList
from psl_triage.bedside.session import recommended_length
from psl_triage.data import infer_column_types, prepare_training_data
from psl_triage.data.follow_up import FollowUp, guess_follow_up, horizon_text, proposed_follow_up
from psl_triage.judging.card import report_html
from psl_triage.judging.horizon import horizon_calibration
from psl_triage.model_file.metadata import ListHorizon, list_horizon
from psl_triage.model_file.store import load_model, save_model
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions
from psl_triage.words import shown
from psl_triage.words.lists import HORIZON_MODELS
from tests.apptest import open_page, put_list
from tests.tables import dataset_session, follow_up_table
from ui.state_keys import DATASET


def open_study_page(page, model, metadata, prepared, timeout=60):
    """The app on ``page`` with this list just trained on these data (of the study's table)."""
    return open_page(page, model, metadata, dataset_session(prepared, follow_up_table(seed=1), "study.csv"), timeout)


@pytest.fixture
def app():
    at = AppTest.from_file("../../app.py", default_timeout=60)
    at.run()
    assert not at.exception
    return at


@pytest.fixture(autouse=True)
def empty_store(tmp_path, monkeypatch):
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path / "models"))


def test_time_and_event_are_recognised():
    frame = follow_up_table()
    assert guess_follow_up(frame) == ("rfstime", "status")
    proposed = proposed_follow_up(frame, "status", [1])
    assert proposed.time == "rfstime" and proposed.horizon > 0
    # R's survival tables code the status 1/2 (censored/dead): still a status.
    assert guess_follow_up(frame.assign(status=frame["status"] + 1)) == ("rfstime", "status")
    # "protime" (a lab value) is no follow-up time by name: by its values it is (issue 39);
    # a prothrombin time's values are not. Without a status there is no pair.
    assert guess_follow_up(frame.rename(columns={"rfstime": "protime"})) == ("protime", "status")
    lab = frame.drop(columns="rfstime").assign(protime=np.random.default_rng(0).normal(11, 1, len(frame)).round(1))
    assert guess_follow_up(lab) is None
    assert guess_follow_up(frame.drop(columns="status")) is None


def test_an_event_named_by_its_own_time_is_proposed():
    """medicaldata/cytomegalovirus: cmv with time.to.cmv, agvhd with time.to.agvhd, no outcome
    word in any name: the first such pair is proposed, and each event gets its own time."""
    frame = follow_up_table().drop(columns="status").rename(columns={"rfstime": "time.to.cmv"})
    frame.insert(4, "cmv", (frame["nodes"] > 3).astype(int))
    frame["agvhd"] = (frame["age"] > 60).astype(int)
    frame["time.to.agvhd"] = frame["time.to.cmv"] / 2
    assert guess_follow_up(frame) == ("time.to.cmv", "cmv")
    assert proposed_follow_up(frame, "agvhd", [1]).time == "time.to.agvhd"
    # survival/cgd: tstart/tstop of intervals at risk; the start is never the follow-up time.
    assert guess_follow_up(follow_up_table().rename(columns={"rfstime": "tstop"}).assign(tstart=0)) == ("tstop", "status")


def test_the_data_page_proposes_follow_up_and_keeps_the_time_out(app):
    app.radio(key="w_source").set_value("upload").run()
    data = follow_up_table().to_csv(index=False).encode()
    app.file_uploader(key="w_upload").set_value(("study.csv", data, "application/octet-stream")).run()
    assert not app.exception
    state = app.session_state
    assert DATASET.get(state).active.outcome == "status" and DATASET.get(state).active.follow_up.time == "rfstime"
    assert any("censored before it" in shown(info.value) for info in app.info)
    key = DATASET.get(state).key
    app.number_input(key=key("w_horizon", "status", "rfstime")).set_value(1000.0).run()
    app.text_input(key=key("w_time_unit", "status")).set_value("days").run()
    prepared = DATASET.get(app.session_state).prepared
    assert prepared is not None, DATASET.get(app.session_state).prepare_error
    assert prepared.follow_up == FollowUp("rfstime", 1000.0, "days")
    assert "rfstime" not in prepared.X.columns and "pid" not in prepared.X.columns
    assert prepared.positive_label.endswith("within 1000 days")
    # Switching follow-up off gives the yes/no list back.
    app.checkbox(key=key("w_follow_up", "status")).uncheck().run()
    dataset = DATASET.get(app.session_state)
    assert dataset.active.follow_up is None and dataset.prepared.follow_up is None


def test_train_triage_save_and_load_a_horizon_list(project_root):
    frame = follow_up_table(seed=1)
    types = {**infer_column_types(frame), "pid": "ignore"}
    prepared = prepare_training_data(
        frame, types, "status", [1], "learn", follow_up=FollowUp("rfstime", 1000.0, "days"),
        class_names=("recurrence", "no recurrence"),
    )
    # The user's names are kept, with the horizon said (a follow-up list's risk is always within it).
    assert prepared.positive_label == "recurrence within 1000 days"
    model, metadata = train_list(prepared, "study.csv", TrainingOptions())
    assert model.horizon == 1000.0 and "rfstime" not in model.features_
    recorded = dict(metadata["follow_up"])
    recorded_uncensored = recorded.pop("uncensored_at_horizon")
    assert 0 < recorded_uncensored <= 1  # G(tau) of the training rows, for Validate
    assert recorded == {"time": "rfstime", "unit": "days"}  # the horizon is the list's own (model.horizon)
    assert 0.5 < metadata["performance"]["test"]["auc"][-1] <= 1
    # Triage names the risk within the horizon.
    at = AppTest.from_file(str(project_root / "app.py"), default_timeout=60)
    put_list(at, model, metadata)
    at.switch_page("pages/2_Triage.py").run()
    assert not at.exception
    shown_texts = [shown(m.label) for m in at.metric] + [shown(m.value) for m in at.markdown]
    assert any("within 1000 days" in text for text in shown_texts)
    # Calibration shows the risk within the horizon per total against Kaplan-Meier on the held-out rows.
    at_horizon = horizon_calibration(model, metadata, prepared)
    assert at_horizon["n_test"] == metadata["training_options"]["n_test"]
    assert at_horizon["totals"]["patients"].sum() == at_horizon["deciles"]["patients"].sum() == at_horizon["n_test"]
    assert 0.5 < at_horizon["observed_expected"] < 2 and at_horizon["auc"] == pytest.approx(
        metadata["performance"]["test"]["auc"][-1], abs=1e-9)
    # At every stage its Brier and AUC are the Train page's test ones (same rows, same weights).
    for stage in range(model.n_stages_):
        at_stage = horizon_calibration(model, metadata, prepared, stage)
        assert at_stage["stage"] == stage and at_stage["brier"] == pytest.approx(
            metadata["performance"]["test"]["brier"][stage], abs=1e-12)
        assert at_stage["auc"] == pytest.approx(metadata["performance"]["test"]["auc"][stage], abs=1e-9, nan_ok=True)
    calibration = open_study_page("pages/3_Calibration.py", model, metadata, prepared)
    assert not calibration.exception
    # The stage slider starts at the recommended stage, as for a yes/no list, and the figure is drawn.
    slider = next(s for s in calibration.slider if s.key.startswith("calibration_stage"))
    assert slider.value == recommended_length(model)
    assert any(f"after {recommended_length(model)} feature" in m.value for m in calibration.markdown)
    assert [c for c in calibration.get("plotly_chart")]
    assert any("Kaplan-Meier risk observed" in m.value for m in calibration.markdown)
    assert any(m.value.startswith("Risk within 1000 days on") for m in calibration.markdown)  # with its unit
    assert len(calibration.dataframe) == 2
    # Evaluation compares the list with Cox and the naive list at the horizon.
    evaluation = open_study_page("pages/5_Evaluation.py", model, metadata, prepared, timeout=120)
    evaluation.number_input(key="evaluation_horizon_splits").set_value(2)
    evaluation.button(key="evaluation_horizon_run").click().run()
    assert not evaluation.exception
    assert any("within 1000 days (follow-up data)" in m.value for m in evaluation.markdown)
    assert not any("logistic regression" in m.value for m in evaluation.markdown)  # compared with Cox
    table = evaluation.session_state["evaluation_horizon"]["table"]
    assert evaluation.session_state["evaluation_horizon"]["n_splits"] == 2  # the report names it (test_horizon_report)
    # The lists are compared at the recommended stage, as a yes/no list's evidence is.
    assert evaluation.session_state["evaluation_horizon"]["stage"] == min(recommended_length(model), model.n_stages_ - 1)
    assert list(table["model"]) == list(HORIZON_MODELS.values()) and "Brier at the horizon" in table.columns
    # The decision curves at the horizon: every threshold of the range, not only 1/(1+M).
    curves = evaluation.session_state["evaluation_horizon"]["curves"]
    assert set(curves["method"]) >= {"PSL", *list(HORIZON_MODELS.values())[1:], "Treat all", "Treat none"}
    assert curves[curves["method"] == "PSL"]["threshold"].nunique() >= 40
    assert evaluation.get("plotly_chart")
    # Intervals and Card show such a list as any other.
    for page in ("pages/4_Intervals.py", "pages/7_Card.py"):
        other = open_study_page(page, model, metadata, prepared)
        assert not other.exception and not other.error, page
    # The model report names the horizon, the time column and how censoring counts.
    report = report_html(model, metadata)
    assert "within 1000 days of follow-up" in report and "column rfstime" in report and "censoring weights" in report
    # Validate judges such a list at the horizon (tests/app/test_validate_horizon_page.py): no refusal.
    other = open_study_page("pages/6_Validate.py", model, metadata, prepared)
    assert not other.exception and not any("does not weigh censoring yet" in i.value for i in other.info)
    # Saved and loaded, the list keeps its horizon and its risks.
    saved = save_model(model, "Recurrence", metadata)
    loaded = load_model(saved.path)
    assert list_horizon(loaded) == ListHorizon(1000.0, "days", "rfstime", recorded_uncensored)
    np.testing.assert_allclose(loaded.predict_proba(prepared.X), model.predict_proba(prepared.X))


def test_horizon_sentence_counts_the_censored():
    text = horizon_text(np.array([1, 2, 3, 4, 6.0]), np.array([1, 0, 1, 0, 1.0]), 5, "years")
    assert text.startswith("Of 5 patients, 2 had the event within 5 years, 1 patient was followed beyond it and 2 patients were censored")


def test_a_yes_no_list_is_unchanged():
    X = follow_up_table()[["age", "nodes"]]
    y = follow_up_table()["status"]
    assert ProbabilisticScoringList().fit(X, y).horizon is None


def test_evaluation_of_a_horizon_list_says_how_long_before_it_runs():
    """A yes/no list's Evaluation said about how long its run takes before it ran; a horizon
    list's comparison with Cox said nothing. It says so too, by the same estimate: the list
    and the naive list fitted on each split, one split after another."""
    from psl_triage.training.runs import horizon_seconds, inner_fits
    from tests.tables import follow_up_study

    frame, with_time, _ = follow_up_study()
    model, metadata = train_list(with_time, "study.csv", TrainingOptions(max_stages=2))
    at = AppTest.from_file("../../app.py", default_timeout=60)
    put_list(at, model, metadata).fit_seconds = 30.0
    DATASET.put(at.session_state, dataset_session(with_time, frame, "study.csv"))
    at.switch_page("pages/5_Evaluation.py").run()
    assert not at.exception and not at.error
    n_splits = at.number_input(key="evaluation_horizon_splits").value
    assert horizon_seconds(30.0, inner_fits(model), n_splits) > horizon_seconds(30.0, inner_fits(model), 2)
    assert any(c.value.startswith("About ") and f"for {n_splits} splits" in c.value for c in at.caption)
    at.number_input(key="evaluation_horizon_splits").set_value(2)
    at.button(key="evaluation_horizon_run").click().run()  # the estimate follows the splits sent
    assert any(c.value.startswith("About ") and "for 2 splits" in c.value for c in at.caption)
