"""A new table after a list: Train says the list is the previous table's, its options start
afresh, and one click trains a list on the new table (Chromium)."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from psl_flows import demo, expect_trained, go_to_demo_landing, train, upload_own_table

DEMO_NAME = "Heart disease (UCI, Cleveland)"


def test_a_new_table_is_not_shown_as_the_lists_and_trains_with_one_click(app, tmp_path):
    go_to_demo_landing(app)
    train(app, max_stages=2, expected_stages=2)
    path = tmp_path / "half_the_patients.csv"
    df, _ = demo()
    df.iloc[::2].to_csv(path, index=False)  # the same columns, other rows
    upload_own_table(app, path, new_session=False)
    app.navigate("Train")
    note = app.alerts("warning").filter(has_text="This list was trained on")
    expect(note).to_contain_text(f"This list was trained on {DEMO_NAME}, not on the table loaded now, {path.name}")
    expect(app.widget("w_train_max_stages").locator("input")).to_have_value("")  # the default, not 2
    app.widget("w_train_on_loaded").get_by_role("button").click()
    expect_trained(app)
    expect(note).to_have_count(0)
    expect(app.page.get_by_text(re.compile(rf"Trained on {re.escape(path.name)}"))).to_be_visible()
