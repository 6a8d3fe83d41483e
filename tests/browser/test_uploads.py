"""Uploads: a CSV and an Excel file become trainable data; bad tables and bad model files are
refused with a clear message, no traceback, and the app keeps working.

The files are made here from the bundled demo data (tmp_path), never checked in.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import expect
from psl_flows import choose_option, demo, demo_model, demo_prepared, go_to_demo_landing, train

from psl_triage.data import (
    DEFAULT_MISSING_HANDLING,
    guess_outcome,
    guess_positive_class,
    infer_column_types,
    load_table,
    prepare_training_data,
)
from psl_triage.training.fit import train_list
from psl_triage.training.options import DEFAULT_SETUP, SETUPS, TrainingOptions

DEMO_NAME = "Heart disease (UCI, Cleveland)"


def patients():
    """The demo table as a user would export it: outcome column, no raw diagnosis code."""
    df, _ = demo()
    return df.drop(columns=["num"])


def choose_upload(app) -> None:
    app.widget("w_source").get_by_text("Upload my own table").click()
    app.wait_idle()
    expect(app.widget("w_upload")).to_be_visible()


def outcome_box(app):
    """The outcome selectbox's input: its value is the chosen column's title."""
    return app.choice_widget("w_outcome").get_by_role("combobox")


def upload_table(app, path) -> None:
    choose_upload(app)
    app.upload("w_upload", path)
    app.assert_no_exception()


def expected_preparation(path):
    """What psl_core makes of the file with the landing page's default choices."""
    loaded = load_table(path.read_bytes(), path.name)
    df = loaded.frame
    types = infer_column_types(df, {})
    outcome = guess_outcome(df, types)
    prepared = prepare_training_data(
        df, types, outcome, [guess_positive_class(df[outcome])], DEFAULT_MISSING_HANDLING, {}
    )
    return df, prepared


def expect_refused(app, words: list[str], still_using: str = DEMO_NAME) -> None:
    """An st.error naming the problem, the previous data kept, no exception."""
    error = app.alerts("error")
    expect(error.first).to_be_visible()
    for word in words:
        expect(error.first).to_contain_text(re.compile(word, re.I))
    expect(app.alerts("info").filter(has_text="Still using the previous data")).to_contain_text(still_using)
    expect(app.page.get_by_role("heading", name=f"Preview: {still_using}")).to_be_visible()
    app.assert_no_exception()


def train_small(app, prepared=None) -> None:
    """Train a list of at most 3 questions with the page's default setup and check its stage count
    is psl_core's on the same data (the setup matters: its list may end where no later question
    beats chance)."""
    prepared = prepared or demo_prepared()
    model, _ = train_list(prepared, "x", TrainingOptions(**{**SETUPS[DEFAULT_SETUP], "max_stages": 3}))
    train(app, max_stages=3, expected_stages=model.n_stages_ - 1)
    app.assert_no_exception()


# ------------------------------------------------------------------------- good tables


@pytest.mark.parametrize("suffix", ["csv", "xlsx"])
def test_uploaded_table_shows_a_preview_and_trains(app, tmp_path, suffix):
    path = tmp_path / f"patients.{suffix}"
    table = patients()
    if suffix == "csv":
        table.to_csv(path, index=False)
    else:
        table.to_excel(path, index=False, engine="openpyxl")
    df, prepared = expected_preparation(path)

    app.open()
    upload_table(app, path)
    page = app.page
    expect(page.get_by_role("heading", name=f"Preview: {path.name}")).to_be_visible()
    expect(page.get_by_text(f"{len(df)} rows × {len(df.columns)} columns")).to_be_visible()
    expect(outcome_box(app)).to_have_value(re.compile(r"\bheart_disease\b"))
    ready = app.alerts("success").filter(has_text="Ready")
    expect(ready).to_contain_text(f"{prepared.n_rows_after} rows and {len(prepared.columns)} features")
    expect(ready).to_contain_text(f"{prepared.n_positive} rows with")
    expect(app.alerts("error")).to_have_count(0)

    train_small(app, prepared)
    expect(page.get_by_text(re.compile(rf"{re.escape(path.name)}.*{prepared.n_rows_after} rows"))
           .first).to_be_visible()
    assert app.page_errors == [], f"JavaScript errors in the tab: {app.page_errors}"


# -------------------------------------------------------------------------- bad tables


def test_empty_file_is_refused_and_the_demo_stays_usable(app, tmp_path):
    path = tmp_path / "empty.csv"
    path.write_bytes(b"")
    app.open()
    upload_table(app, path)
    expect_refused(app, ["empty.csv", "empty"])
    train_small(app)


def test_binary_garbage_named_csv_is_refused_and_the_demo_stays_usable(app, tmp_path):
    path = tmp_path / "garbage.csv"
    path.write_bytes(np.random.default_rng(7).bytes(4096))
    app.open()
    upload_table(app, path)
    expect_refused(app, ["garbage.csv", "binary", "not a text table|CSV"])
    train_small(app)


def test_outcome_with_one_class_says_so_and_the_demo_can_be_used_again(app, tmp_path):
    path = tmp_path / "one_class.csv"
    patients().drop(columns=["heart_disease"]).assign(outcome=1).to_csv(path, index=False)
    app.open()
    upload_table(app, path)
    page = app.page
    expect(page.get_by_role("heading", name=f"Preview: {path.name}")).to_be_visible()
    # The column named 'outcome' stays proposed, and it is refused with why.
    expect(outcome_box(app)).to_have_value(re.compile(r"\boutcome\b"))
    error = app.alerts("error")
    expect(error).to_contain_text("only one value")
    expect(error).to_contain_text("two classes")
    expect(app.alerts("success").filter(has_text="Ready")).to_have_count(0)

    app.navigate("Train")
    expect(app.alerts("warning")).to_contain_text("not ready for training")
    expect(app.widget("w_train_submit")).to_have_count(0)
    app.assert_no_exception()

    # The demo is still there: switch back and train.
    app.navigate("Data")
    app.widget("w_source").get_by_text("Demo").click()
    app.wait_idle()
    expect(page.get_by_role("heading", name=f"Preview: {DEMO_NAME}")).to_be_visible()
    expect(app.alerts("success").filter(has_text="Ready")).to_be_visible()
    train_small(app)


def test_outcome_with_three_classes_asks_for_the_positive_class_then_trains(app, tmp_path):
    path = tmp_path / "three_classes.csv"
    df, _ = demo()
    patients().drop(columns=["heart_disease"]).assign(diagnosis=df["num"].clip(0, 2)).to_csv(path, index=False)
    app.open()
    upload_table(app, path)
    expect(outcome_box(app)).to_have_value(re.compile(r"\bdiagnosis\b"))
    chooser = app.choice_widget("w_positive_multi")
    expect(chooser).to_contain_text("3 values")
    expect(app.alerts("info").filter(has_text="pick the positive class")).to_be_visible()  # asked, not refused
    expect(app.alerts("error")).to_have_count(0)
    expect(app.alerts("success").filter(has_text="Ready")).to_have_count(0)
    app.assert_no_exception()

    # Pick 1 and 2 (any heart disease) as positive: the data becomes ready.
    for value in ("1", "2"):
        choose_option(app, chooser, re.compile(rf"^{value}: "))
    chooser.get_by_role("combobox").press("Escape")
    app.wait_idle()
    loaded = load_table(path.read_bytes(), path.name).frame
    types = infer_column_types(loaded, {})
    prepared = prepare_training_data(
        loaded, types, "diagnosis", [1, 2], DEFAULT_MISSING_HANDLING, {}
    )
    ready = app.alerts("success").filter(has_text="Ready")
    expect(ready).to_contain_text(f"{prepared.n_rows_after} rows and {len(prepared.columns)} features")
    expect(ready).to_contain_text(f"{prepared.n_positive} rows with")
    expect(app.alerts("error")).to_have_count(0)
    train_small(app, prepared)


# --------------------------------------------------------------------- bad model files


def model_file_text() -> str:
    model, metadata = demo_model(max_stages=3)
    return model.to_json(metadata)


def upload_model(app, path) -> None:
    app.upload("w_train_upload", path)
    app.assert_no_exception()


@pytest.mark.parametrize(
    "case, words",
    [
        ("truncated", ["truncated.json", "not a valid model file", "truncated"]),
        ("non_monotone", ["non_monotone.json", "not a valid model file", "monotone"]),
    ],
)
def test_bad_model_file_is_refused_and_the_current_list_stays(app, tmp_path, case, words):
    text = model_file_text()
    if case == "truncated":
        content = text[: len(text) // 2]
    else:
        edited = json.loads(text)
        stage = next(entry for entry in edited["calibration"] if len(entry["probabilities"]) >= 2)
        stage["probabilities"] = sorted(stage["probabilities"], reverse=True)
        assert stage["probabilities"][0] > stage["probabilities"][-1]
        content = json.dumps(edited, indent=1)
    path = tmp_path / f"{case}.json"
    path.write_text(content, encoding="utf-8")

    go_to_demo_landing(app)
    train_small(app)
    page = app.page
    origin = page.get_by_text(re.compile(r"^Trained on "))
    expect(origin).to_be_visible()
    upload_model(app, path)
    error = app.alerts("error")
    expect(error).to_have_count(1)
    for word in words:
        expect(error).to_contain_text(re.compile(word, re.I))
    expect(page.get_by_text("Traceback")).to_have_count(0)
    expect(origin).to_be_visible()  # the trained list is still the current one

    # A good model file still loads, and Train still works.
    good = tmp_path / "good.json"
    good.write_text(text, encoding="utf-8")
    upload_model(app, good)
    expect(app.alerts("info").filter(has_text="Loaded good.json")).to_be_visible()
    expect(app.alerts("error")).to_have_count(0)
    train_small(app)
    assert app.page_errors == [], f"JavaScript errors in the tab: {app.page_errors}"


# ------------------------------------------------------------ a European file, end to end


def euro_csv(n: int = 160) -> bytes:
    """Semicolons, decimal commas, a sample-ID column; the outcome follows Age and PSA."""
    rng = np.random.default_rng(14)
    age = rng.normal(65, 8, n).round(1)
    psa = rng.lognormal(2, 0.6, n).round(2)
    tvol = rng.normal(3, 1, n).round(1)
    risk = 1 / (1 + np.exp(-(0.12 * (age - 65) + 0.25 * (psa - 8))))
    recurrence = (rng.random(n) < risk).astype(int)
    ids = rng.permutation(np.arange(317601, 317601 + 13 * n, 13))
    lines = ["ID;Age;PreopPSA;TVol;Recurrence"] + [
        f"{i};{str(a).replace('.', ',')};{str(p).replace('.', ',')};{str(t).replace('.', ',')};{r}"
        for i, a, p, t, r in zip(ids, age, psa, tvol, recurrence)
    ]
    return ("\n".join(lines) + "\n").encode()


def test_decimal_comma_file_uploads_trains_and_saves_with_numeric_thresholds(app, tmp_path):
    path = tmp_path / "prostate_eu.csv"
    path.write_bytes(euro_csv())
    df, prepared = expected_preparation(path)
    assert "ID" not in prepared.X and {"Age", "PreopPSA", "TVol"} <= set(prepared.X.columns)

    app.open()
    upload_table(app, path)
    page = app.page
    expect(page.get_by_text(re.compile("Read as: Fields separated by semicolon; decimal comma"))).to_be_visible()
    ready = app.alerts("success").filter(has_text="Ready")
    expect(ready).to_contain_text(f"{prepared.n_rows_after} rows and {len(prepared.columns)} features")

    train_small(app, prepared)
    name = app.widget("w_train_model_name").locator("input")
    name.fill("European file")
    name.press("Enter")
    app.wait_idle()
    app.widget("w_train_save").get_by_role("button").click()
    app.wait_idle()
    saved = app.alerts("success").filter(has_text="Saved as")
    expect(saved).to_be_visible()
    match = re.search(r"Saved as (\S+\.json) \(version \d+\) in (.+?)\.?$", saved.inner_text().strip())
    assert match, saved.inner_text()
    stored = json.loads((Path(match[2]) / match[1]).read_text(encoding="utf-8"))
    features = {stage["feature"]: stage for stage in stored["stages"]}
    assert "ID" not in features and "ID" not in json.dumps(stored["input"])
    assert {"Age", "PreopPSA"} & set(features), f"the list asks {list(features)}"
    for column in {"Age", "PreopPSA", "TVol"} & set(features):
        assert features[column]["kind"] == "numeric" and isinstance(features[column]["threshold"], float)
    app.assert_no_exception()
