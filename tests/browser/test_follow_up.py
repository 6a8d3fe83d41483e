"""Follow-up data in a real browser (issue 29): upload a table with a follow-up time and a
status, take the proposed time and event columns, type the horizon, train, triage a patient and
read the risk within the horizon; save the list and open it again in a new session.

The table is made here (tmp_path), never checked in.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect
from psl_flows import AnswerPolicy, choose_option, expected_triage, run_triage, set_cost_ratio, train
from test_journey import saved_model_path

from psl_triage.store import load_model
from tests.tables import follow_up_table

HORIZON = 1000


def test_upload_follow_up_train_triage_save_and_reopen(app, new_app, tmp_path):
    frame = follow_up_table(500)
    path = tmp_path / "follow_up.csv"
    frame.to_csv(path, index=False)
    app.open()
    app.widget("w_source").get_by_text("Upload my own table").click()
    app.wait_idle()
    app.upload("w_upload", path)
    app.assert_no_exception()

    # Proposed: status as the event, rfstime as the time (never a question), a horizon.
    expect(app.choice_widget("w_follow_up").locator("input[type=checkbox]")).to_be_checked()
    expect(app.choice_widget("w_time").get_by_role("combobox")).to_have_value("rfstime")
    horizon = app.choice_widget("w_horizon").locator("input")
    horizon.fill(str(HORIZON))
    horizon.press("Enter")
    app.wait_idle()
    unit = app.choice_widget("w_time_unit").locator("input")
    unit.fill("days")
    unit.press("Enter")
    app.wait_idle()
    sentence = app.alerts("info").filter(has_text="censored before it")
    expect(sentence).to_contain_text(f"within {HORIZON} days")
    expect(app.alerts("success").filter(has_text="Ready")).to_contain_text("3 features")

    train(app, max_stages=3)
    path = saved_model_path(app)
    model = load_model(path)
    assert model.horizon == HORIZON and "rfstime" not in model.features_

    app.navigate("Triage")
    label = f"within {HORIZON} days"
    cost_ratio = 2.0
    set_cost_ratio(app, cost_ratio)
    app.wait_idle()
    patient = frame.iloc[0].to_dict()
    run_triage(app, expected_triage(model, model.metadata_, cost_ratio), AnswerPolicy(patient=patient, unknown_at=frozenset()))
    risk = app.metric_value(label)
    expect(risk).to_have_text(re.compile(r"\d+(\.\d+)?\s*%"))

    fresh = new_app()
    fresh.open()
    fresh.navigate("Triage")
    name = model.metadata_["name"]
    choose_option(fresh, fresh.widget("triage_model_choice"), re.compile(rf"^{re.escape(name)} \(v"))
    fresh.assert_no_exception()
    expect(fresh.metric_value(label)).to_be_visible()
    assert app.page_errors == [] and fresh.page_errors == []
