"""The leak guard in a real browser: a study export's identifier, follow-up time and a planted
leak are proposed out with their evidence; a leak put back makes a list too good to be true,
the Train page says so, names it, and one click retrains without it.

The file is made here from the bundled demo data (tmp_path), never checked in.
"""

from __future__ import annotations

import re

import numpy as np
from playwright.sync_api import expect
from psl_flows import TRAIN_TIMEOUT_MS, demo, start_training


def study_export():
    """The demo as a study would export it: a patient number, a follow-up time, a planted leak."""
    df, meta = demo()
    rng = np.random.default_rng(3)
    positive = df[meta.outcome] == meta.positive_class
    return df.drop(columns=["num"]).assign(
        pid=rng.permutation(5000)[: len(df)] + 1,
        futime=rng.integers(30, 3000, len(df)),
        echo_result=np.where(positive, rng.uniform(0.6, 1.0, len(df)), rng.uniform(0.0, 0.4, len(df))).round(3),
    )


def test_a_planted_leak_is_stopped_named_and_one_click_retrains_without_it(app, tmp_path):
    path = tmp_path / "study.csv"
    study_export().to_csv(path, index=False)
    app.open()
    app.widget("w_source").get_by_text("Upload my own table").click()
    app.wait_idle()
    app.upload("w_upload", path)
    app.assert_no_exception()
    page = app.page
    warnings = app.alerts("warning")
    expect(warnings.filter(has_text="futime")).to_contain_text("time or date")
    expect(warnings.filter(has_text="pid")).to_contain_text("identifier")
    leak = warnings.filter(has_text="echo_result")
    expect(leak).to_contain_text("possible leak")
    expect(leak).to_contain_text("held-out rows")

    app.wait_quiet()
    page.locator('[class*="st-key-w_put_back_v"][class*="echo_result"]').get_by_role("button").click()
    app.wait_idle()
    expect(app.alerts("warning").filter(has_text="echo_result")).to_have_count(0)
    expect(app.alerts("success").filter(has_text="Ready")).to_contain_text("14 features")

    app.wait_quiet()
    start_training(app, max_stages=3)
    app.wait_idle(TRAIN_TIMEOUT_MS)
    stop = app.alerts("error").filter(has_text="Too good to be true")
    expect(stop).to_be_visible(timeout=TRAIN_TIMEOUT_MS)
    expect(stop).to_contain_text("echo_result")
    app.assert_no_exception()

    app.wait_quiet()
    app.widget("w_train_retrain_without").get_by_role("button", name=re.compile("Retrain without echo_result")).click()
    app.wait_idle(TRAIN_TIMEOUT_MS)
    expect(page.get_by_test_id("stProgress")).to_contain_text("Done", timeout=TRAIN_TIMEOUT_MS)
    expect(app.alerts("error")).to_have_count(0)
    expect(page.get_by_text(re.compile(r"study\.csv \(\d+ training rows"))).to_be_visible()
    app.assert_no_exception()

    app.navigate("Data")
    expect(app.alerts("warning").filter(has_text="echo_result")).to_contain_text("too good to be true")
    expect(app.alerts("success").filter(has_text="Ready")).to_contain_text("13 features")
    assert app.page_errors == [], f"JavaScript errors in the tab: {app.page_errors}"
