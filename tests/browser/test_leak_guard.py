"""The leak guard in a real browser: a study export's identifier, follow-up time and a planted
leak are proposed out with their evidence; a leak put back makes a list too good to be true,
the Train page says so, names it, and one click retrains without it.

The file is made here from the bundled demo data (tmp_path), never checked in.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from playwright.sync_api import expect
from psl_flows import TRAIN_TIMEOUT_MS, choose_option, demo, download, expect_trained, start_training, upload_own_table

PREDICTORS = {"age", "size", "grade", "nodes", "er", "meno", "hormon", "clinic"}
NOT_AT_TRIAGE = {"pid", "rfstime", "death", "cause_of_death", "surgery_date", "surname", "pstat", "ptime"}


def trained_questions(app) -> set:
    """Train a list of at most 6 questions with the page's options; the columns it asks about,
    read from its downloaded model file."""
    app.wait_quiet()
    start_training(app, max_stages=6)
    expect_trained(app)
    model = json.loads(download(app, "w_train_download"))
    return {stage["feature"] for stage in model["stages"]}


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
    upload_own_table(app, path)
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


def cohort_export(n: int = 600) -> pd.DataFrame:
    """A breast-cancer cohort as a study exports it: predictors known at surgery, and next to
    them a patient number, a surgery date, a surname, the follow-up time, a second outcome, a
    cause of death filled in only for those who died, and (as survival/mgus2 has) a progression
    status with its own time, named by no outcome word."""
    rng = np.random.default_rng(21)
    age = rng.normal(56, 11, n).round()
    size = rng.gamma(3, 9, n).round()
    grade = rng.integers(1, 4, n)
    nodes = rng.poisson(3, n)
    er = rng.gamma(1.5, 60, n).round()
    risk = 1 / (1 + np.exp(-(-1.2 + 0.5 * (nodes - 3) + 1.2 * (grade - 2) + 0.04 * (size - 27) - 0.008 * (er - 90))))
    status = (rng.random(n) < risk).astype(int)
    death = np.where(status == 1, rng.random(n) < 0.7, rng.random(n) < 0.08).astype(int)
    surgery = pd.Timestamp("2004-01-01") + pd.to_timedelta(rng.integers(0, 2000, n), unit="D")
    return pd.DataFrame({
        "pid": rng.permutation(9000)[:n] + 1000,
        "surgery_date": surgery.strftime("%Y-%m-%d"),
        "surname": rng.choice(["Meier", "Rossi", "Dubois", "Novak", "Jensen", "Silva", "Smith"], n),
        "clinic": rng.choice([f"Clinic {chr(65 + i)}" for i in range(8)], n),
        "age": age, "meno": (age > 50).astype(int), "size": size, "grade": grade, "nodes": nodes,
        "er": er, "hormon": rng.integers(0, 2, n),
        "rfstime": np.where(status == 1, rng.integers(60, 1500, n), rng.integers(1200, 3000, n)),
        "status": status, "death": death,
        "cause_of_death": np.where(death == 1, rng.choice(["breast cancer", "cardiac", "other"], n), None),
        "pstat": np.where(rng.random(n) < 0.25, 1 - status, status),
        "ptime": np.where(status == 1, rng.integers(30, 1200, n), rng.integers(600, 3000, n)),
    })


def write_export(df: pd.DataFrame, tmp_path, kind: str):
    if kind == "xlsx":
        path = tmp_path / "cohort.xlsx"
        df.to_excel(path, index=False, engine="openpyxl")
    elif kind == "european":
        path = tmp_path / "cohort_eu.csv"
        path.write_bytes(df.to_csv(index=False, sep=";", decimal=",").encode("cp1252"))
    else:
        path = tmp_path / "cohort.csv"
        df.to_csv(path, index=False)
    return path


@pytest.mark.parametrize("kind", ["csv", "xlsx", "european"])
def test_a_study_export_with_every_proposal_accepted_asks_only_about_predictors(app, tmp_path, kind):
    path = write_export(cohort_export(), tmp_path, kind)
    upload_own_table(app, path)
    choose_option(app, app.choice_widget("w_outcome"), "status")
    expect(app.alerts("success").filter(has_text="Ready")).to_be_visible()
    # rfstime next to status makes it a follow-up table: rfstime is the follow-up time (never a
    # question), not a warning; dates as text are not even a type.
    expect(app.choice_widget("w_time").get_by_role("combobox")).to_have_value("rfstime")
    for name in NOT_AT_TRIAGE - {"surgery_date", "rfstime"}:
        expect(app.alerts("warning").filter(has_text=re.compile(rf"^{name}:"))).to_have_count(1)

    asked = trained_questions(app)
    assert not asked & NOT_AT_TRIAGE, asked
    assert len(asked & PREDICTORS) >= 2, asked
    assert app.page_errors == [], f"JavaScript errors in the tab: {app.page_errors}"


def lab_tests(n: int = 3000) -> pd.DataFrame:
    """A laboratory's test export: a PCR result with three values, the cycle threshold that
    defines it, subject ids, names, turnaround times, the day of the pandemic and the clinic."""
    rng = np.random.default_rng(33)
    age = rng.integers(0, 95, n)
    drive_thru = rng.integers(0, 2, n)
    clinic = rng.choice([f"clinic {i}" for i in range(40)], n, p=np.arange(40, 0, -1) / 820)
    risk = 1 / (1 + np.exp(-(-2.6 + 0.025 * (age - 40) + 1.0 * drive_thru)))
    result = np.where(rng.random(n) < 0.03, "invalid", np.where(rng.random(n) < risk, "positive", "negative"))
    return pd.DataFrame({
        "subject_id": rng.permutation(10 * n)[:n], "first_name": rng.choice([f"name{i}" for i in range(300)], n),
        "last_name": rng.choice(["stark", "lannister", "tully", "arryn", "tyrell"], n),
        "gender": rng.choice(["female", "male"], n), "pan_day": rng.integers(1, 100, n), "clinic_name": clinic,
        "age": age, "drive_thru_ind": drive_thru,
        "ct_result": np.where(result == "positive", rng.uniform(14, 40, n), 45.0).round(1),
        "result": result, "col_rec_tat": rng.gamma(2, 1.5, n).round(1),
    })


def test_a_lab_export_asks_nothing_the_result_is_defined_by(app, tmp_path):
    path = tmp_path / "lab_tests.csv"
    lab_tests().to_csv(path, index=False)
    upload_own_table(app, path)
    expect(app.choice_widget("w_outcome").get_by_role("combobox")).to_have_value("result")  # proposed
    choose_option(app, app.choice_widget("w_positive_multi"), re.compile("^positive"))
    app.page.keyboard.press("Escape")  # a multiselect stays open after a pick
    app.wait_idle()
    expect(app.alerts("warning").filter(has_text=re.compile(r"^ct_result:"))).to_contain_text("possible leak")
    expect(app.alerts("success").filter(has_text="Ready")).to_be_visible()

    asked = trained_questions(app)
    assert not asked & {"subject_id", "first_name", "last_name", "pan_day", "ct_result", "col_rec_tat"}, asked
    assert len(asked & {"gender", "clinic_name", "age", "drive_thru_ind"}) >= 2, asked
    assert app.page_errors == [], f"JavaScript errors in the tab: {app.page_errors}"
