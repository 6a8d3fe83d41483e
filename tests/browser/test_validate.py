"""External validation through the page: the demo list judged on the Hungarian table,
recalibrated there and saved as a new version; numbers checked against psl_core."""

from __future__ import annotations

import json
import re

import pandas as pd
from playwright.sync_api import expect
from psl_flows import (
    HUNGARIAN,
    choose_option,
    demo_model,
    go_to_demo_landing,
    recalibrate_and_save,
    train,
    upload_site_table,
)
from test_journey import saved_model_path

from psl_core.validation import recalibrate, validation_report
from psl_triage.judging.validation import match_columns, needed_columns, site_table
from psl_triage.model_file.store import load_model


def test_validate_the_demo_list_at_hungary_and_recalibrate(app, tmp_path):
    go_to_demo_landing(app)
    trained, _ = demo_model()
    train(app, expected_stages=trained.n_stages_ - 1)
    original_path = saved_model_path(app)
    original = load_model(original_path)

    # Hungary's table as published (outcome num, 0/1 there), with the chest pain type under another name.
    frame = pd.read_csv(HUNGARIAN).rename(columns={"cp": "chest pain type"})
    upload_site_table(app, frame, tmp_path / "hungary.csv")
    # The mapping step: the unmatched column and the outcome, which the saved list calls heart_disease.
    choose_option(app, app.widget("validate_map_cp"), "chest pain type")
    expect(app.alerts("info").filter(has_text="Choose the outcome column")).to_be_visible()
    choose_option(app, app.widget("validate_outcome"), "num")
    app.assert_no_exception()
    expect(app.alerts("error")).to_have_count(0)
    expect(app.page.get_by_test_id("stTable")).to_be_visible()
    expect(app.widget("validate_reliability").locator(".js-plotly-plot")).to_be_visible()

    # What psl_core says about the same table at the stage the page judges.
    mapping = dict(match_columns(needed_columns(original, original.metadata_), frame.columns), cp="chest pain type")
    table = site_table(original, original.metadata_, frame, mapping, "num", [1])
    stage_text = app.widget("validate_stage").get_by_role("combobox").input_value()
    stage = int(re.match(r"(\d+) \(\d+ patients", stage_text)[1])
    report = validation_report(original, table.X, table.y, stage)
    expect(app.page.get_by_text(f"on {report.n_rows} patients ({report.n_positive} positive")).to_be_visible()
    cell = f"{report.measures.loc['brier', 'estimate']:.3f}"
    expect(app.page.get_by_test_id("stTable").get_by_text(cell, exact=True).first).to_be_visible()

    keep = int(app.widget("validate_keep").locator("input").input_value())
    path, version = recalibrate_and_save(app)
    assert version == original.metadata_["version"] + 1
    stored = json.loads(path.read_text())
    assert stored["metadata"]["origin"]["recalibrated_from"]["version"] == original.metadata_["version"]
    assert stored["metadata"]["origin"]["table"] == {"name": "hungary.csv", "n_rows": len(frame)}
    expected = json.loads(recalibrate(original, table.X, table.y, keep).to_json({}))
    assert stored["stages"] == expected["stages"]
    assert stored["calibration"] == expected["calibration"]
    assert app.page_errors == [], f"JavaScript errors in the tab: {app.page_errors}"


def test_a_second_site_table_opens_at_the_lists_outcome(app, tmp_path):
    """The walk on rpart/stagec: after a first table without the list's outcome, a second one
    holding it opened with no outcome chosen. In the browser, not only in the session: the
    select box shows the outcome and the page judges the list."""
    go_to_demo_landing(app)
    train(app, max_stages=3)
    frame = pd.read_csv(HUNGARIAN)
    upload_site_table(app, frame, tmp_path / "hungary.csv")  # num, no heart_disease
    expect(app.alerts("info").filter(has_text="Choose the outcome column")).to_be_visible()
    upload_site_table(app, frame.assign(heart_disease=(frame["num"] > 0).astype(int)), tmp_path / "hu.csv")
    expect(app.widget("validate_outcome").get_by_role("combobox")).to_have_value("heart_disease")
    expect(app.page.get_by_test_id("stTable")).to_be_visible()
    app.assert_no_exception()
