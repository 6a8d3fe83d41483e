"""Ordered categories in the browser: an uploaded text column whose categories carry numbers
("4 or less hours" .. "10 or more hours") is proposed as ordered, one click declares it, the list
asks it as a range of its order and the bedside lists its answers in that order."""

from __future__ import annotations

from playwright.sync_api import expect
from psl_flows import choose_option, expect_trained, expect_triage_state, expected_triage, open_triage, start_training
from test_uploads import upload_table

from psl_triage.data import DEFAULT_MISSING_HANDLING, infer_column_types, load_table, prepare_training_data
from psl_triage.training.fit import train_list
from psl_triage.training.options import DEFAULT_SETUP, SETUPS, TrainingOptions
from tests.tables import SLEEP_LEVELS, sleep_table

MAX_STAGES = 2


def test_an_ordered_column_is_proposed_declared_and_asked_in_its_order(app, tmp_path):
    path = tmp_path / "sleep.csv"
    sleep_table().to_csv(path, index=False)
    app.open()
    upload_table(app, path)
    proposal = app.alerts("info").filter(has_text="show an order")
    expect(proposal).to_contain_text(" < ".join(SLEEP_LEVELS))
    app.choice_widget("w_use_order").get_by_role("button").click()
    app.wait_idle()
    app.assert_no_exception()
    expect(proposal).to_have_count(0)
    expect(app.page.get_by_text("Order: " + " < ".join(SLEEP_LEVELS))).to_be_visible()

    start_training(app, max_stages=MAX_STAGES)
    expect_trained(app)
    df = load_table(path.read_bytes(), path.name).frame
    prepared = prepare_training_data(df, infer_column_types(df, {}), "Outcome", [1], DEFAULT_MISSING_HANDLING, {},
                                     orders={"Sleep": SLEEP_LEVELS})
    model, metadata = train_list(prepared, path.name, TrainingOptions(**SETUPS[DEFAULT_SETUP], max_stages=MAX_STAGES))

    open_triage(app, 2.0)
    expected = expected_triage(model, metadata, 2.0)
    expect_triage_state(app, expected)
    question = expected.next_question
    assert question.column == "Sleep" and question.condition.startswith("Sleep: ")  # a range of the order
    form = app.page.get_by_test_id("stForm")
    expect(form).to_contain_text(question.condition)
    box = app.widget(f"triage_q{question.stage - 1}")
    box.get_by_role("combobox").click()
    box.get_by_role("combobox").press("ArrowDown")
    shown = app.page.get_by_role("option").all_inner_texts()
    assert [text for text in shown if text in SLEEP_LEVELS] == list(SLEEP_LEVELS), shown
    box.get_by_role("combobox").press("Escape")
    choose_option(app, box, "5 hours")
    app.widget("triage_next").get_by_role("button").click()
    app.wait_idle()
    expected.answer("5 hours")
    expect_triage_state(app, expected)
