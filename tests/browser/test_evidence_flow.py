"""The evidence a researcher reports, through the browser: decision curves, the calibration
curve with its band and the subgroup table on Evaluation and Validate, and the model report
carrying their numbers."""

from __future__ import annotations

import pandas as pd
from playwright.sync_api import expect
from psl_flows import HUNGARIAN, choose_option, download, go_to_demo_landing, train, upload_site_table


def chart(app, key: str):
    plot = app.widget(key).locator(".js-plotly-plot")
    expect(plot).to_be_visible(timeout=120_000)
    return plot


def expect_legend(plot, *names: str) -> None:
    for name in names:
        expect(plot.locator("text.legendtext", has_text=name).first).to_be_attached()


def test_evaluation_and_validate_show_the_evidence_and_the_report_carries_it(app, tmp_path):
    go_to_demo_landing(app)
    train(app, max_stages=4)
    app.navigate("Evaluation")
    splits = app.widget("evaluation_splits").locator("input")
    splits.fill("5")
    splits.press("Enter")
    app.widget("evaluation_run").get_by_role("button").click()
    app.wait_idle(timeout_ms=180_000)  # the splits take long on a loaded machine
    app.assert_no_exception()
    curves = chart(app, "evaluation_decision_curve")
    expect_legend(curves, "the list", "LR (C = 1)", "Treat all", "Treat none", "bedside stop rule",
                  "threshold 1/(1+M)")
    expect_legend(chart(app, "evaluation_calibration_curve"), "flexible calibration curve", "95% band of the curve")
    expect(app.page.get_by_text("net benefit is").first).to_be_visible()
    choose_option(app, app.widget("evaluation_subgroup_column"), "sex")
    app.assert_no_exception()
    expect(app.widget("evaluation_subgroups")).to_be_visible()
    expect(app.alerts("error")).to_have_count(0)

    frame = pd.read_csv(HUNGARIAN)
    frame["heart_disease"] = (frame["num"] > 0).astype(int)
    upload_site_table(app, frame, tmp_path / "hungary.csv")
    expect_legend(chart(app, "validate_decision_curve"), "the list", "Treat all", "Treat none")
    expect_legend(chart(app, "validate_calibration_curve"), "95% band of the curve",
                  "observed rate per total (Clopper–Pearson 95%)")
    expect(app.widget("validate_sample_size")).to_be_visible()
    choose_option(app, app.widget("validate_subgroup_column"), "sex")
    app.assert_no_exception()
    expect(app.widget("validate_subgroups")).to_be_visible()

    app.navigate("Card")
    app.assert_no_exception()
    report = download(app, "card_download_report")
    assert "Sample size justification" in report and "Riley" in report
    assert "O/E: observed over expected events" in report and "net benefit is" in report
    assert "By sex, on" in report and "All patients" in report
    assert app.page_errors == [], f"JavaScript errors in the tab: {app.page_errors}"
