"""Issue 26's journey: train, validate at another site whose table codes a category otherwise
and names a column otherwise, recalibrate and save; then, in a fresh browser session, the saved
version opens on Triage, Validate, Card and Train, and triages a patient."""

from __future__ import annotations

import re

import pandas as pd
from playwright.sync_api import expect
from psl_flows import (
    HUNGARIAN,
    AnswerPolicy,
    choose_option,
    expected_triage,
    go_to_demo_landing,
    recalibrate_and_save,
    run_triage,
    set_cost_ratio,
    train,
)
from test_journey import saved_model_path

from psl_triage.judging.validation import coding_mismatches, match_columns, needed_columns
from psl_triage.model_file.store import load_model

CHEST_PAIN = {1: "typical", 2: "atypical", 3: "non-anginal", 4: "none"}  # the site's own words for cp


def test_a_recalibrated_list_reopens_in_a_new_session_on_every_page(app, new_app, tmp_path):
    go_to_demo_landing(app)
    train(app, max_stages=6)
    original = load_model(saved_model_path(app))
    assert "cp" in {literal.column for literal in original.literals_}

    frame = pd.read_csv(HUNGARIAN).rename(columns={"slope": "ST slope"})
    frame["cp"] = frame["cp"].map(CHEST_PAIN)
    upload = tmp_path / "site-b.csv"
    frame.to_csv(upload, index=False)

    app.navigate("Validate")
    expect(app.page.get_by_text(re.compile(r"^Validating .*\(version \d+")).first).to_be_visible()
    app.upload("validate_upload", str(upload))
    app.assert_no_exception()
    choose_option(app, app.widget("validate_map_slope"), "ST slope")
    # cp is coded in words here: an error names the column and both codings until each is mapped.
    coding = app.widget("validate_coding_cp")
    expect(coding.get_by_test_id("stAlertContentError")).to_contain_text("Column 'cp' (for Chest pain type)")
    mapping = dict(match_columns(needed_columns(original, original.metadata_), frame.columns), slope="ST slope")
    (mismatch,) = coding_mismatches(original, original.metadata_, frame, mapping)
    labels = original.metadata_["columns"]["cp"]["category_labels"]
    for index, value in enumerate(mismatch.site_values):
        code = next(str(k) for k, word in CHEST_PAIN.items() if word == value)
        choose_option(app, app.widget(f"validate_value_cp_{index}"), f"{code} ({labels[code]})")
    expect(coding.get_by_test_id("stAlertContentSuccess")).to_be_visible()
    choose_option(app, app.widget("validate_outcome"), "num")
    app.assert_no_exception()
    expect(app.alerts("error")).to_have_count(0)
    expect(app.page.get_by_test_id("stTable")).to_be_visible()

    path, version = recalibrate_and_save(app)
    recalibrated = load_model(path)  # the file loads
    name = recalibrated.metadata_["name"]
    option = re.compile(rf"^{re.escape(name)} \(v{version}, ")

    fresh = new_app()
    fresh.open()
    fresh.navigate("Triage")
    choose_option(fresh, fresh.widget("triage_model_choice"), option)
    fresh.assert_no_exception()
    expect(fresh.page.get_by_text(f"{name} (version {version})").first).to_be_visible()
    cost_ratio = 1.0
    expected = expected_triage(recalibrated, recalibrated.metadata_, cost_ratio)
    set_cost_ratio(fresh, cost_ratio)
    fresh.wait_idle()
    patient = frame.rename(columns={"ST slope": "slope"}).iloc[0].to_dict()  # the list's column names
    run_triage(fresh, expected, AnswerPolicy(patient=patient, unknown_at=frozenset()))
    expect(fresh.page.get_by_text(re.compile("Result|rule|uncertain", re.IGNORECASE)).first).to_be_visible()

    fresh.navigate("Validate")
    choose_option(fresh, fresh.widget("validate_model_choice"), option)
    fresh.assert_no_exception()
    expect(fresh.page.get_by_text(re.compile(rf"^Validating {re.escape(name)} \(version {version}, .*recalibrated at site-b\.csv"))
           .first).to_be_visible()

    fresh.navigate("Card")
    choose_option(fresh, fresh.widget("card_model_choice"), option)
    fresh.assert_no_exception()
    expect(fresh.widget("card_view").locator("iframe")).to_be_visible()

    fresh.navigate("Train")
    choose_option(fresh, fresh.widget("w_train_open_choice"), option)
    fresh.widget("w_train_open").get_by_role("button").click()
    fresh.wait_idle()
    fresh.assert_no_exception()
    expect(fresh.page.get_by_text("Opened from the model store").first).to_be_visible()
    expect(fresh.page.locator("[data-testid=stDataFrame] >> visible=true").first).to_be_visible()
    assert app.page_errors == [] and fresh.page_errors == []
