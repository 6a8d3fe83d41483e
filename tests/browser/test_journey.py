"""The whole journey on the demo data: landing, Train, Save, Triage with M = 1, record, plots.

Every number the app shows is checked against psl_core on the saved model file.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from psl_flows import (
    AnswerPolicy,
    demo,
    demo_model,
    demo_prepared,
    download_record_text,
    expect_trained,
    expected_triage,
    go_to_demo_landing,
    open_triage,
    run_triage,
    start_training,
    train,
)

from psl_triage.model_file.store import load_model
from psl_triage.training.fit import train_list
from psl_triage.training.options import SETUPS, TrainingOptions
from psl_triage.words.decision import outcome_text

COST_RATIO = 1.0  # threshold 50 %: with the default M = 10 the demo's prior already decides


def saved_model_path(app) -> Path:
    """Press Save on the Train page and read where the model went from the success message."""
    app.widget("w_train_save").get_by_role("button").click()
    app.wait_idle()
    saved = app.alerts("success").filter(has_text="Saved as")
    expect(saved).to_be_visible()
    match = re.search(r"Saved as (\S+\.json) \(version (\d+)\) in (.+?)\.?$", saved.inner_text().strip())
    assert match, f"unexpected save message: {saved.inner_text()!r}"
    path = Path(match[3]) / match[1]
    assert path.is_file(), f"the save message names {path}, which does not exist"
    return path


def test_demo_journey_train_save_triage_record(app):
    go_to_demo_landing(app)

    trained, trained_metadata = demo_model()
    train(app, expected_stages=trained.n_stages_ - 1)
    path = saved_model_path(app)
    model = load_model(path)
    metadata = model.metadata_
    # The Train page learned what psl_core learns with the same (default) options.
    stored, retrained = json.loads(model.to_json(metadata)), json.loads(trained.to_json(trained_metadata))
    assert stored["stages"] == retrained["stages"]
    assert stored["calibration"] == retrained["calibration"]

    open_triage(app, COST_RATIO)
    page = app.page
    expect(page.get_by_text(re.compile(rf"{re.escape(metadata['name'])} \(version {metadata['version']}\)"))
           .first).to_be_visible()
    expected = expected_triage(model, metadata, COST_RATIO)
    assert expected.next_question is not None, "with M = 1 the demo list should ask at least one question"
    df, _ = demo()
    # The first question "unknown", then the first answer offered or the first patient's number.
    policy = AnswerPolicy(patient=df.iloc[0].to_dict(), unknown_at=frozenset({0}))
    run_triage(app, expected, policy)
    assert expected.stage >= 2, "the journey should answer more than one question"
    assert app.page_errors == [], f"JavaScript errors in the tab: {app.page_errors}"

    record = download_record_text(app)
    assert metadata["name"] in record
    for number, (question, answer) in enumerate(expected.recorded(), start=1):
        assert f"{number}. {question}: {answer}" in record, f"answer {number} missing from the record:\n{record}"
    assert "unknown" in record
    final = expected.current
    assert f"Result: {outcome_text(final, 'upper').upper()}" in record
    assert final.stop_reason in record


def test_recommended_setup_trains_its_list_and_asks_a_reused_measurement_once(app):
    go_to_demo_landing(app)
    _, meta = demo()
    model, metadata = train_list(demo_prepared(), meta.name, TrainingOptions(**SETUPS["recommended"]))
    columns = [literal.column for literal in model.literals_]
    # Whether the list uses a column twice is the data's: since later questions must beat chance
    # (psl_core.chance) the demo's recommended list may not; each column is asked once either way.
    reused = len(set(columns)) < len(columns)

    app.navigate("Train")
    app.widget("w_train_setup").get_by_text(re.compile("^Recommended")).click()
    app.wait_idle()
    expect(app.widget("w_train_calibration").get_by_role("radio", name=re.compile("^Sigmoid"))).to_be_checked()
    expect(app.widget("w_train_loss").get_by_role("radio", name=re.compile("cross-validated"))).to_be_checked()
    start_training(app, navigate=False)
    expect_trained(app, expected_stages=model.n_stages_ - 1)
    expect(app.page.get_by_text("the recommended setup").first).to_be_visible()

    open_triage(app, COST_RATIO)
    if len(model.literals_) > model.recommended_stages_:  # else the whole list is the default length
        app.widget("triage_length").get_by_text(re.compile("^The whole list")).click()
        app.wait_idle()
    expected = expected_triage(model, metadata, COST_RATIO, length=len(model.literals_))
    # Demo row 8 with the first answer unknown runs to the end of the list (psl_core says so
    # below): every reused measurement is answered from its first question.
    policy = AnswerPolicy(patient=demo()[0].iloc[8].to_dict(), unknown_at=frozenset({0}))
    run_triage(app, expected, policy)
    answered = columns[: expected.stage]
    assert (len(set(answered)) < len(answered)) == reused, "the triage should pass every second use of a column"
    assert policy.asked == len(set(answered)), "each column is asked once"
    assert app.page_errors == [], f"JavaScript errors in the tab: {app.page_errors}"


@pytest.mark.parametrize("page_name", ["Calibration", "Intervals"])
def test_plot_pages_render_a_chart_after_training(app, page_name):
    go_to_demo_landing(app)
    if not app.sidebar_link(page_name).count():
        pytest.skip(f"the app has no {page_name} page yet")
    train(app, max_stages=4)
    app.navigate(page_name)
    page = app.page
    chart = page.get_by_test_id("stPlotlyChart").first
    expect(chart).to_be_visible(timeout=60_000)
    expect(chart.locator(".js-plotly-plot")).to_be_visible()
    app.wait_idle()
    app.assert_no_exception()
    errors = app.alerts("error")
    assert errors.count() == 0, f"{page_name} shows errors: {errors.all_inner_texts()}"
    assert app.page_errors == [], f"JavaScript errors in the tab: {app.page_errors}"


def test_evaluation_page_runs_monte_carlo_splits_and_renders_its_charts(app):
    go_to_demo_landing(app)
    train(app, max_stages=4)
    app.navigate("Evaluation")
    page = app.page
    splits = app.widget("evaluation_splits").locator("input")
    splits.fill("5")
    splits.press("Enter")
    app.widget("evaluation_run").get_by_role("button").click()
    app.wait_idle()
    chart = page.get_by_test_id("stPlotlyChart").first
    expect(chart).to_be_visible(timeout=120_000)
    expect(chart.locator(".js-plotly-plot")).to_be_visible()
    app.assert_no_exception()
    errors = app.alerts("error")
    assert errors.count() == 0, f"Evaluation shows errors: {errors.all_inner_texts()}"
    assert app.page_errors == [], f"JavaScript errors in the tab: {app.page_errors}"
