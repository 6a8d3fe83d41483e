""""Known at triage?" in the browser: a column plainly recorded after the outcome (a birth
weight, outcome preterm birth) passes every test of the data and gets into the list; the
researcher marks it "recorded later", trains again in one click, and the new list does not ask it.

The table is made here (tmp_path), never checked in.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
from playwright.sync_api import expect
from psl_flows import expect_trained, start_training
from test_uploads import expected_preparation, upload_table

from tests.paths import ROOT

SHOTS = ROOT / "test-artifacts"
RECORDED_LATER = "birth_weight"


def birth_table(path, n: int = 500) -> None:
    """Mothers' findings at booking, preterm birth, and the baby's weight, recorded at birth."""
    rng = np.random.default_rng(4)
    smoker, prior = rng.integers(0, 2, n), rng.integers(0, 2, n)
    bmi = rng.normal(26, 5, n).round(1)
    preterm = (rng.random(n) < 1 / (1 + np.exp(-(-2.2 + 0.8 * smoker + 2.0 * prior + 0.05 * (bmi - 26))))).astype(int)
    pd.DataFrame({
        "age": rng.integers(17, 44, n), "bmi": bmi, "smoker": smoker, "prior_preterm": prior,
        "birth_weight": np.where(preterm == 1, rng.normal(2700, 450, n), rng.normal(3400, 450, n)).round(),
        "preterm": preterm,
    }).to_csv(path, index=False)


def known_widgets(app):
    """The "known at triage?" radios of the current list, by column."""
    app.wait_idle()
    radios = app.page.locator('[class*="st-key-w_train_known_v"]')
    # The class is the key with "::" as "--" (the column names here are plain).
    return {re.search(r"st-key-w_train_known_v\d+-+(\S+)", radios.nth(i).get_attribute("class"))[1]: radios.nth(i)
            for i in range(radios.count())}


def shoot(app, name: str) -> None:
    """A screenshot of the "known at triage?" section, to look at (test-artifacts/)."""
    app.page.get_by_role("heading", name="Known at triage?").scroll_into_view_if_needed()
    app.page.screenshot(path=str(SHOTS / f"known-at-triage-{name}.png"))


def downloaded_model(app) -> dict:
    with app.page.expect_download() as download:
        app.widget("w_train_download").get_by_role("button").click()
    return json.loads(download.value.path().read_text(encoding="utf-8"))


def test_a_column_recorded_later_is_marked_and_the_list_trained_again_does_not_ask_it(app, tmp_path):
    path = tmp_path / "births.csv"
    birth_table(path)
    _, prepared = expected_preparation(path)
    assert prepared.outcome == "preterm" and RECORDED_LATER in prepared.X  # no data test takes it out
    app.open()
    upload_table(app, path)
    expect(app.alerts("success").filter(has_text="Ready")).to_contain_text("5 features")
    app.wait_quiet()
    start_training(app, max_stages=4)
    expect_trained(app)
    expect(app.alerts("info").filter(has_text="Not confirmed yet")).to_be_visible()
    widgets = known_widgets(app)
    assert RECORDED_LATER in widgets, f"the list should ask about the birth weight: {sorted(widgets)}"
    shoot(app, "1-asked")

    for column, widget in widgets.items():
        app.wait_quiet()
        widget.get_by_text("recorded later" if column == RECORDED_LATER else "known at triage").click()
        app.wait_idle()
    warning = app.alerts("warning").filter(has_text="Recorded later")
    expect(warning).to_contain_text(RECORDED_LATER)
    shoot(app, "2-marked")
    app.assert_no_exception()

    app.wait_quiet()
    app.widget("w_train_without_later").get_by_role("button", name=re.compile(f"Train again without {RECORDED_LATER}")).click()
    expect_trained(app)
    expect(app.page.get_by_text(f"never asked: '{RECORDED_LATER}'")).to_be_visible()
    assert RECORDED_LATER not in known_widgets(app)
    model = downloaded_model(app)
    assert RECORDED_LATER not in {stage["feature"] for stage in model["stages"]}
    kept = model["metadata"].get("known_at_triage", {})  # the answers given stay for the questions still asked
    assert RECORDED_LATER not in kept and set(kept.values()) <= {"known"}
    assert set(kept) == {column for column in widgets if column != RECORDED_LATER} & set(known_widgets(app))
    shoot(app, "3-retrained")

    for widget in known_widgets(app).values():  # the rest confirmed: the card says so
        app.wait_quiet()
        widget.get_by_text("known at triage").click()
        app.wait_idle()
    expect(app.alerts("success").filter(has_text="Confirmed")).to_be_visible()
    app.navigate("Card")
    expect(app.page.frame_locator("iframe").first.locator("body")).to_contain_text(
        "The researcher confirmed that each question of the list is known at triage")
    app.assert_no_exception()
    assert app.page_errors == [], f"JavaScript errors in the tab: {app.page_errors}"
