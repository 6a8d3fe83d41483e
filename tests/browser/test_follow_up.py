"""Follow-up data in a real browser (issue 29): upload a table with a follow-up time and a
status, take the proposed time and event columns, type the horizon, train, triage a patient and
read the risk within the horizon; validate the list on another site's table at the horizon and
recalibrate it there; save the list and open it again in a new session.

The table is made here (tmp_path), never checked in.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect
from psl_flows import (
    AnswerPolicy,
    choose_option,
    expected_triage,
    recalibrate_and_save,
    run_triage,
    set_cost_ratio,
    set_horizon,
    train,
    upload_own_table,
    upload_site_table,
)
from test_journey import saved_model_path

from psl_core.cost_ratio import decision_threshold
from psl_triage.judging.validation import match_columns, needed_columns
from psl_triage.judging.validation_horizon import horizon_report, horizon_site
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.model_file.store import load_model
from tests.tables import follow_up_table

HORIZON = 1000


def test_upload_follow_up_train_triage_save_and_reopen(app, new_app, tmp_path):
    frame = follow_up_table(500)
    path = tmp_path / "follow_up.csv"
    frame.to_csv(path, index=False)
    upload_own_table(app, path)

    # Proposed: status as the event, rfstime as the time (never a question), a horizon.
    expect(app.choice_widget("w_follow_up").locator("input[type=checkbox]")).to_be_checked()
    expect(app.choice_widget("w_time").get_by_role("combobox")).to_have_value("rfstime")
    set_horizon(app, HORIZON, "days")
    sentence = app.alerts("info").filter(has_text="censored before it")
    expect(sentence).to_contain_text(f"within {HORIZON} days")
    expect(app.alerts("success").filter(has_text="Ready")).to_contain_text("3 features")

    train(app, max_stages=3)
    path = saved_model_path(app)
    model = load_model(path)
    assert model.horizon == HORIZON and "rfstime" not in model.features_
    app.navigate("Evaluation")  # the comparison with Cox says about how long before it runs
    expect(app.page.get_by_text(re.compile(r"^About .* for 20 splits one after another"))).to_be_visible()

    app.navigate("Triage")
    label = f"within {HORIZON} days"
    cost_ratio = 2.0
    set_cost_ratio(app, cost_ratio)
    app.wait_idle()
    patient = frame.iloc[0].to_dict()
    run_triage(app, expected_triage(model, model.metadata_, cost_ratio), AnswerPolicy(patient=patient, unknown_at=frozenset()))
    risk = app.metric_value(label)
    expect(risk).to_have_text(re.compile(r"\d+(\.\d+)?\s*%"))
    validate_at_another_site(app, model, tmp_path)

    fresh = new_app()
    fresh.open()
    fresh.navigate("Triage")
    name = model.metadata_["name"]
    choose_option(fresh, fresh.widget("triage_model_choice"), re.compile(rf"^{re.escape(name)} \(v{model.metadata_['version']},"))
    fresh.assert_no_exception()
    expect(fresh.metric_value(label)).to_be_visible()
    assert app.page_errors == [] and fresh.page_errors == []


def validate_at_another_site(app, model, tmp_path):
    """Validate: the list's time and event columns found by name, the measures at the horizon
    as psl_triage.judging.validation_horizon computes them, recalibrated and saved with its horizon."""
    site = follow_up_table(300, seed=5)
    upload_site_table(app, site, tmp_path / "site.csv")
    expect(app.widget("validate_time").get_by_role("combobox")).to_have_value("rfstime")
    expect(app.page.get_by_text("censored before it").first).to_be_visible()
    stage_text = app.widget("validate_stage").get_by_role("combobox").input_value()
    stage = int(re.match(r"(\d+) \(\d+ patients", stage_text)[1])
    mapping = match_columns(needed_columns(model, model.metadata_), site.columns)
    followed = horizon_site(model, model.metadata_, site, mapping, "rfstime", "status", [1])
    report = horizon_report(model, followed, stage, decision_threshold(ModelMetadata.coerce(model.metadata_).cost_ratio))
    table = app.page.get_by_test_id("stTable")
    expect(table.get_by_text(f"{report.brier:.3f}", exact=True).first).to_be_visible()
    path, _ = recalibrate_and_save(app)
    assert load_model(path).horizon == HORIZON
