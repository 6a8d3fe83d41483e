"""The landing page (pages/0_Data.py) in Streamlit's AppTest: demo by default, choices, uploads, errors.

Each test opens the app's entry point, app.py, which runs its default page: the landing page.
"""

from __future__ import annotations

import ast
import io
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from psl_triage.data import PreparedData
from psl_triage.words import shown
from tests.paths import ROOT
from ui.state_keys import DATASET

FORMER_COPIES = ("data_source", "data_name", "raw_df", "column_types", "outcome", "prepared", "dataset_version")
"""Keys the data page once copied its session's parts into: the other pages read the session now."""


def study_csv(n: int = 40, outcome=None) -> bytes:
    """A small uploaded study: an id, two numbers, a text binary and a text outcome."""
    rng = np.random.default_rng(1)
    frame = pd.DataFrame(
        {
            "patient_id": range(1, n + 1),
            "age": rng.integers(30, 80, n),
            "crp": rng.normal(10, 3, n).round(1),
            "smoker": ["yes", "no"] * (n // 2),
            "outcome": outcome if outcome is not None else ["died", "alive", "alive", "died"] * (n // 4),
        }
    )
    return frame.to_csv(index=False).encode()


@pytest.fixture
def app() -> AppTest:
    at = AppTest.from_file("../../app.py", default_timeout=30)
    at.run()
    assert not at.exception
    return at


def session(at: AppTest):
    """The data page's session (what the other pages read)."""
    return DATASET.get(at.session_state)


def choice_key(at: AppTest, name: str, *parts: object) -> str:
    """The key of a widget for a choice about the active dataset (pages/0_Data.py's choice_key)."""
    return "::".join([f"{name}_v{session(at).version}", *map(str, parts)])


def texts(elements) -> list[str]:
    return [shown(element.value) for element in elements]


def upload(at: AppTest, name: str, data: bytes) -> AppTest:
    if at.session_state["w_source"] != "upload":
        at.radio(key="w_source").set_value("upload").run()
    at.file_uploader(key="w_upload").set_value((name, data, "application/octet-stream")).run()
    assert not at.exception
    return at


def test_demo_loads_by_default_and_is_prepared(app):
    assert DATASET.name in app.session_state  # one source of truth: no copies of its parts
    assert not any(key in app.session_state for key in FORMER_COPIES)
    assert session(app).active.source == "demo" and session(app).active.name == "Heart disease (UCI, Cleveland)"
    assert session(app).active.df.shape == (303, 15)
    assert session(app).active.outcome == "heart_disease" and session(app).active.positive_class == [1]
    assert session(app).active.missing_handling == "learn"
    assert session(app).active.column_types["cp"] == "categorical" and session(app).active.column_types["num"] == "ignore"
    prepared = session(app).prepared
    assert isinstance(prepared, PreparedData)
    assert prepared.n_rows_after == 303 and prepared.X.shape[1] == 13 and prepared.n_positive == 139
    assert int(prepared.X["ca"].isna().sum()) == 4  # kept for the learner, not filled in
    assert session(app).prepare_error is None
    assert not app.error
    assert "303 rows and 13 features" in texts(app.success)[-1]
    assert (
        "Keeps 4 missing values in 'ca'; 2 missing values in 'thal': the list learns whether a missing "
        "answer counts as yes or no for each question; 303 of 303 rows are kept."
    ) in texts(app.info)
    assert app.title[0].value == "PSL Triage"


def test_dropping_rows_keeps_297(app):
    app.radio(key=choice_key(app, "w_missing")).set_value("drop").run()
    assert session(app).prepared.n_rows_after == 297
    assert "6 rows (2.0 %) have a missing value and will be dropped; 297 of 303 rows remain." in texts(app.info)


def test_imputing_keeps_all_303_rows(app):
    app.radio(key=choice_key(app, "w_missing")).set_value("impute").run()
    assert session(app).active.missing_handling == "impute"
    assert session(app).prepared.n_rows_after == 303
    assert any("Filled in 4 missing values of 'ca'" in text for text in texts(app.markdown))


def test_changing_the_outcome_guesses_its_positive_class(app):
    app.selectbox(key=choice_key(app, "w_outcome")).set_value("exang").run()
    assert session(app).active.outcome == "exang" and session(app).active.positive_class == [1]
    prepared = session(app).prepared
    assert prepared.outcome == "exang" and "exang" not in prepared.X
    assert prepared.n_positive == int((session(app).active.df["exang"] == 1).sum())  # every row kept
    app.selectbox(key=choice_key(app, "w_positive", "exang")).set_value(0).run()
    assert session(app).active.positive_class == [0]
    assert session(app).prepared.n_negative == prepared.n_positive


def test_outcome_with_five_classes_asks_for_the_positive_ones(app):
    app.selectbox(key=choice_key(app, "w_outcome")).set_value("num").run()
    assert session(app).prepared is None
    assert "pick the positive class" in texts(app.info)[-1] and not app.error  # asked, not refused
    app.multiselect(key=choice_key(app, "w_positive_multi", "num")).set_value([1, 2, 3, 4]).run()
    prepared = session(app).prepared
    assert not app.error and prepared.n_positive == 139 and prepared.positive_class == (1, 2, 3, 4)
    assert any("1, 2, 3, 4 count as positive, 0 as negative" in text for text in texts(app.markdown))


def test_changing_a_column_type(app):
    app.selectbox(key=choice_key(app, "w_type", "heart_disease", "cp")).set_value("ignore").run()
    assert session(app).active.column_types["cp"] == "ignore"
    assert "cp" not in session(app).prepared.X
    app.selectbox(key=choice_key(app, "w_type", "heart_disease", "ca")).set_value("categorical").run()
    assert isinstance(session(app).prepared.X["ca"].dtype, pd.CategoricalDtype)


def test_good_upload_becomes_the_active_dataset(app):
    upload(app, "study.csv", study_csv())
    assert session(app).active.source == "upload" and session(app).active.name == "study.csv"
    assert session(app).active.column_types["patient_id"] == "ignore"
    assert session(app).active.outcome == "outcome" and session(app).active.positive_class == ["died"]
    prepared = session(app).prepared
    assert prepared.n_rows_after == 40 and list(prepared.X.columns) == ["age", "crp", "smoker"]
    assert not app.error


def test_bad_upload_keeps_the_previous_dataset(app):
    upload(app, "study.csv", study_csv())
    good = session(app).prepared
    upload(app, "garbage.csv", bytes(range(256)) * 8)
    assert "garbage.csv is a binary file" in texts(app.error)[0]
    assert "Still using the previous data: study.csv." in texts(app.info)
    assert session(app).active.name == "study.csv"
    assert session(app).prepared is good
    # The app stays usable: choices still work after the bad upload.
    app.radio(key=choice_key(app, "w_missing")).set_value("impute").run()
    assert not app.exception and session(app).prepared.n_rows_after == 40


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("empty.csv", b"", "empty"),
        ("dup.csv", b"a,b,a\n1,2,3\n", "duplicate column names"),
        ("book.xlsx", b"not really excel", "Excel"),
        ("notes.txt", b"dear colleague\nplease find attached\n", "does not look like a table"),
    ],
)
def test_first_bad_upload_keeps_the_demo(app, name, data, message):
    upload(app, name, data)
    assert message in texts(app.error)[0]
    assert session(app).active.source == "demo"
    assert session(app).prepared.n_rows_after == 303


def test_upload_with_unusable_outcome_shows_why(app):
    upload(app, "one_class.csv", study_csv(outcome=["alive"] * 40))
    assert session(app).active.name == "one_class.csv"
    # The column named 'outcome' stays proposed (not 'smoker', which only its position
    # recommends) and the page says what is wrong with it.
    assert session(app).active.outcome == "outcome"
    assert session(app).prepared is None
    assert any("outcome" in text for text in texts(app.error))
    few = ["died"] * 5 + ["alive"] * 35
    upload(app, "few.csv", study_csv(outcome=few))
    assert session(app).active.outcome == "outcome"
    assert "5 positive (died) and 35 negative (alive); at least 10 of each" in texts(app.error)[0]


def test_latin1_upload_says_how_it_was_read(app):
    data = study_csv().decode().replace("patient_id", "n°").encode("latin-1")
    upload(app, "latin.csv", data)
    assert session(app).active.name == "latin.csv"
    assert any("read as Windows-1252" in text for text in texts(app.info))


def test_xlsx_upload(app):
    buffer = io.BytesIO()
    pd.read_csv(io.BytesIO(study_csv())).to_excel(buffer, index=False)
    upload(app, "study.xlsx", buffer.getvalue())
    assert session(app).active.name == "study.xlsx"
    assert session(app).prepared.n_rows_after == 40


def test_upload_size_limit_from_environment(monkeypatch):
    monkeypatch.setenv("PSL_MAX_UPLOAD_MB", "1")
    at = AppTest.from_file("../../app.py", default_timeout=30).run()
    at.radio(key="w_source").set_value("upload").run()
    assert "up to 1 MB" in at.file_uploader(key="w_upload").label
    big = study_csv() + b"\n" * (2**20)
    upload(at, "big.csv", big)
    assert "the limit is 1.0 MB" in texts(at.error)[0]
    assert session(at).active.source == "demo"


def test_invalid_size_limit_warns_and_uses_the_default(monkeypatch):
    monkeypatch.setenv("PSL_MAX_UPLOAD_MB", "lots")
    at = AppTest.from_file("../../app.py", default_timeout=30).run()
    at.radio(key="w_source").set_value("upload").run()
    assert "PSL_MAX_UPLOAD_MB must be a whole number of megabytes from 1 to 10,000" in texts(at.warning)[0]
    assert "up to 50 MB" in at.file_uploader(key="w_upload").label


def test_switching_between_demo_and_upload_loses_nothing(app):
    app.radio(key=choice_key(app, "w_missing")).set_value("impute").run()
    upload(app, "study.csv", study_csv())
    app.selectbox(key=choice_key(app, "w_type", "outcome", "crp")).set_value("ignore").run()
    app.radio(key="w_source").set_value("demo").run()
    assert session(app).active.source == "demo" and session(app).active.missing_handling == "impute"
    assert session(app).prepared.n_rows_after == 303
    app.radio(key="w_source").set_value("upload").run()
    assert session(app).active.name == "study.csv" and session(app).active.column_types["crp"] == "ignore"
    assert list(session(app).prepared.X.columns) == ["age", "smoker"]


def test_widgets_come_back_with_the_stored_choices(app):
    """Streamlit drops widget state when another page runs; the page rebuilds it from its session."""
    app.radio(key=choice_key(app, "w_missing")).set_value("impute").run()
    app.selectbox(key=choice_key(app, "w_outcome")).set_value("exang").run()
    app.selectbox(key=choice_key(app, "w_type", "exang", "age")).set_value("ignore").run()
    returning = AppTest.from_file("../../app.py", default_timeout=30)
    returning.session_state[DATASET.name] = app.session_state[DATASET.name]
    returning.run()
    assert not returning.exception
    assert returning.radio(key=choice_key(returning, "w_missing")).value == "impute"
    assert returning.selectbox(key=choice_key(returning, "w_outcome")).value == "exang"
    assert returning.selectbox(key=choice_key(returning, "w_positive", "exang")).value == 1
    assert returning.selectbox(key=choice_key(returning, "w_type", "exang", "age")).value == "ignore"
    assert returning.selectbox(key=choice_key(returning, "w_type", "exang", "cp")).value == "categorical"
    prepared = session(returning).prepared
    assert prepared.outcome == "exang" and "age" not in prepared.X and prepared.n_rows_after == 303


EURO_CSV = (
    "ID;Age;PSA;TVol;Recurrence\n"
    + "".join(
        f"{317601 + 7 * i};{50 + (i * 37) % 30},{i % 10};{(i * 7) % 20},{i % 100:02d};{1 + i % 3},0;{i % 2}\n"
        for i in range(40)
    )
).encode()


def birthwt_csv(n: int = 120) -> bytes:
    rng = np.random.default_rng(5)
    bwt = rng.normal(2950, 700, n).round()
    frame = pd.DataFrame(
        {"rownames": range(1, n + 1), "low": (bwt < 2500).astype(int), "age": rng.integers(15, 45, n),
         "smoke": rng.integers(0, 2, n), "ui": rng.integers(0, 2, n), "bwt": bwt}
    )
    return frame.to_csv(index=False).encode()


def test_decimal_comma_upload_says_how_it_was_read_and_can_be_read_again(app):
    upload(app, "prostate.csv", EURO_CSV)
    assert (
        "Read as: Fields separated by semicolon; decimal comma (72,5), no thousands separator; "
        "numbers: 'ID', 'Age', 'PSA', 'TVol', 'Recurrence'." in texts(app.caption)
    )
    assert [session(app).active.column_types[name] for name in ("Age", "PSA", "TVol")] == ["numeric"] * 3
    assert session(app).active.column_types["ID"] == "ignore" and session(app).active.outcome == "Recurrence"
    assert set(session(app).prepared.X.columns) == {"Age", "PSA", "TVol"}
    reason = app.dataframe[1].value.set_index("column").loc["ID", "reason"]
    assert reason.startswith("named like an identifier")
    app.selectbox(key=choice_key(app, "w_decimal")).set_value(".").run()
    assert "decimal point (72.5)" in " ".join(texts(app.caption))
    assert session(app).active.column_types["Age"] != "numeric"  # "50,0" is text now
    assert app.selectbox(key=choice_key(app, "w_decimal")).value == "."


def test_leak_is_ignored_until_kept_and_outcome_guess_says_why(app):
    upload(app, "birthwt.csv", birthwt_csv())
    assert session(app).active.outcome == "low" and session(app).active.column_types["rownames"] == "ignore"
    assert "Proposed because it has two values and its name, 'low', is an outcome word." in texts(app.caption)
    assert session(app).active.column_types["bwt"] == "ignore" and "bwt" in session(app).active.flagged_columns
    assert any("**bwt**: possible leak: Alone it tells" in text for text in texts(app.warning))
    assert "bwt" not in session(app).prepared.X
    app.selectbox(key=choice_key(app, "w_type", "low", "bwt")).set_value("numeric").run()
    assert "bwt" in session(app).prepared.X
    assert not any("**bwt**" in text for text in texts(app.warning))
    reason = app.dataframe[1].value.set_index("column").loc["bwt", "reason"]
    assert reason.endswith("kept, as you chose")
    app.selectbox(key=choice_key(app, "w_outcome")).set_value("smoke").run()
    assert session(app).active.column_types["bwt"] == "numeric" and session(app).active.flagged_columns == {}


def test_classes_can_be_named(app):
    upload(app, "birthwt.csv", birthwt_csv())
    prepared = session(app).prepared
    assert (prepared.positive_label, prepared.negative_label) == ("low = 1", "low = 0")
    app.text_input(key=choice_key(app, "w_class", "low", "1", "positive")).set_value("low birth weight").run()
    app.text_input(key=choice_key(app, "w_class", "low", "1", "negative")).set_value("normal weight").run()
    prepared = session(app).prepared
    assert (prepared.positive_label, prepared.negative_label) == ("low birth weight", "normal weight")
    assert "rows with low birth weight (positive)" in texts(app.success)[-1]


def messy_csv(n: int = 40) -> bytes:
    """An R export: row names in 'rownames', thousands separators, percent signs, missing markers."""
    rows = ["rownames,income,hba1c,crp,outcome"]
    markers = ["NA", "?", ".", "-", "missing"]
    for i in range(n):
        crp = markers[i // 8] if i % 8 == 0 else f"{1 + i % 9}.{i % 10}"
        rows.append(f'{i + 1},"{12 + i},{(i * 37) % 1000:03d}.50",{5 + i % 4}.{i % 10}%,{crp},{i % 2}')
    return ("\n".join(rows) + "\n").encode()


def test_thousands_percent_markers_and_rownames_on_the_page(app):
    upload(app, "messy.csv", messy_csv())
    assert (
        "Read as: Fields separated by comma; decimal point (72.5), thousands separated by comma (1,234); numbers: "
        "'rownames', 'income', 'crp', 'outcome'; percentages (the % sign dropped): 'hba1c'." in texts(app.caption)
    )
    assert any("'hba1c' is written with percent signs" in text for text in texts(app.info))
    types = session(app).active.column_types
    assert types["rownames"] == "ignore"
    assert [types[name] for name in ("income", "hba1c", "crp")] == ["numeric"] * 3
    frame = session(app).active.df
    assert frame.loc[1, "income"] == 13037.5 and frame.loc[1, "hba1c"] == 6.1 and frame["crp"].isna().sum() == 5
    assert (
        "Keeps 5 missing values in 'crp': the list learns whether a missing answer counts as yes or no for "
        "each question; 40 of 40 rows are kept."
    ) in texts(app.info)
    assert list(session(app).prepared.X.columns) == ["income", "hba1c", "crp"]


def follow_up_csv(n: int = 200) -> bytes:
    """A study export: a patient number, real predictors, a follow-up time and a second outcome."""
    rng = np.random.default_rng(11)
    age = rng.integers(30, 85, n)
    recur = (rng.random(n) < 1 / (1 + np.exp(-(age - 60) / 10))).astype(int)
    frame = pd.DataFrame(
        {"pid": rng.permutation(3 * n)[:n] + 1, "age": age, "nodes": rng.poisson(3, n),
         "rfstime": rng.integers(30, 3000, n), "death": np.where(recur == 1, rng.random(n) < 0.7, 0).astype(int),
         "recur": recur}
    )
    return frame.to_csv(index=False).encode()


def test_roles_take_out_ids_times_and_second_outcomes_and_one_click_puts_one_back(app):
    upload(app, "study.csv", follow_up_csv())
    assert "recur" in session(app).active.flagged_columns  # "death" was proposed as the outcome
    app.selectbox(key=choice_key(app, "w_outcome")).set_value("recur").run()
    assert set(session(app).active.flagged_columns) == {"pid", "rfstime", "death"}
    assert list(session(app).prepared.X.columns) == ["age", "nodes"]
    table = app.dataframe[1].value.set_index("column")
    assert table.loc["rfstime", "role"] == "time or date" and table.loc["age", "role"] == "question candidate"
    assert table.loc["rfstime", "reason"].startswith("Named 'rfstime'")  # the role is its own column
    assert any(text.startswith("**rfstime**: time or date:") for text in texts(app.warning))
    app.button(key=choice_key(app, "w_put_back", "recur", "rfstime")).click().run()
    assert session(app).active.column_types["rfstime"] == "numeric" and "rfstime" in session(app).prepared.X
    assert app.dataframe[1].value.set_index("column").loc["rfstime", "role"] == "question candidate (put back)"
    assert not any(text.startswith("**rfstime**") for text in texts(app.warning))
    assert app.selectbox(key=choice_key(app, "w_type", "recur", "rfstime", "r1")).value == "numeric"


def test_a_clinical_label_and_unit_reach_the_prepared_columns_and_the_list(app):
    upload(app, "study.csv", follow_up_csv())
    app.selectbox(key=choice_key(app, "w_outcome")).set_value("recur").run()
    app.text_input(key=choice_key(app, "w_label", "nodes")).input("Positive lymph nodes").run()
    app.text_input(key=choice_key(app, "w_unit", "nodes")).input(" count ").run()
    info = session(app).prepared.columns["nodes"]
    assert (info.label, info.unit, info.display_name) == ("Positive lymph nodes", "count", "Positive lymph nodes (count)")
    assert app.dataframe[1].value.set_index("column").loc["nodes", ["label", "unit"]].tolist() == [
        "Positive lymph nodes", "count"]
    assert session(app).prepared.columns["age"].label == "age"
    app.text_input(key=choice_key(app, "w_label", "nodes")).input("").run()  # blank: the column name again
    assert session(app).prepared.columns["nodes"].display_name == "nodes (count)"


def test_a_leak_is_found_once_the_positive_class_of_a_three_class_outcome_is_picked(app):
    rng = np.random.default_rng(12)
    n = 300
    result = rng.choice(["negative", "positive", "invalid"], n, p=[0.75, 0.2, 0.05])
    frame = pd.DataFrame({
        "age": rng.integers(1, 90, n), "drive_thru": rng.integers(0, 2, n),
        "ct_value": np.where(result == "positive", rng.uniform(15, 40, n), 45.0).round(1), "result": result,
    })
    upload(app, "tests.csv", frame.to_csv(index=False).encode())
    app.selectbox(key=choice_key(app, "w_outcome")).set_value("result").run()
    assert session(app).active.positive_class == [] and "ct_value" not in session(app).active.flagged_columns
    assert app.selectbox(key=choice_key(app, "w_type", "result", "ct_value")).value == "numeric"
    app.multiselect(key=choice_key(app, "w_positive_multi", "result")).set_value(["positive"]).run()
    assert session(app).active.flagged_columns["ct_value"].startswith("possible leak: Alone it tells positive")
    assert session(app).active.column_types["ct_value"] == "ignore" and "ct_value" not in session(app).prepared.X
    assert app.selectbox(key=choice_key(app, "w_type", "result", "ct_value", "r1")).value == "ignore"


def test_the_preview_shows_a_gap_blank_in_number_and_text_columns_alike(app):
    """Stat2Data/YouthRisk2009: "None" in a number column, blank in a text one; now one way."""
    from psl_triage.words.data import GAP_SHOWN_AS

    rows = "".join(f"{i},{'yes' if i % 3 else ''},{'' if i % 2 else 1.5},{i % 2}\n" for i in range(30))
    upload(app, "blank.csv", ("age,smoker,lab,outcome\n" + rows).encode())
    preview = app.dataframe[0]
    assert list(preview.value.columns) == ["age", "smoker", "lab", "outcome"]
    assert pd.isna(preview.value["smoker"].iloc[0]) and pd.isna(preview.value["lab"].iloc[1])
    assert preview.proto.HasField("placeholder") and preview.proto.placeholder == GAP_SHOWN_AS == ""


def test_the_kernels_warm_up_after_the_first_page_not_before_it(monkeypatch):
    """A new user's first page load took 16.5 s: loading (or compiling) the kernels in the
    background competed with the landing page's script. The warm-up now starts after it."""
    import threading

    import streamlit as st

    import psl_core.warmup
    import psl_triage.data.demo

    events = []
    load_demo = psl_triage.data.demo.load_demo

    def recorded_demo():
        events.append("page")
        return load_demo()

    monkeypatch.setattr(psl_triage.data.demo, "load_demo", recorded_demo)
    monkeypatch.setattr(psl_core.warmup, "warm_kernels", lambda: events.append("warm-up"))
    st.cache_resource.clear()
    at = AppTest.from_file("../../app.py", default_timeout=60).run()
    for thread in threading.enumerate():
        if thread.name == "psl-warm-kernels":
            thread.join(timeout=60)
    st.cache_resource.clear()  # the next test's app starts its own warm-up
    assert not at.exception
    assert events[:1] == ["page"] and "warm-up" in events


def test_the_landing_page_leaves_the_learner_to_the_pages_that_learn():
    """The Data page reads a table: the modules it imports load neither scikit-learn,
    scipy.stats nor numba (about a second of a first page load, more under load), and
    psl_core still gives its estimator on first use."""
    page = ast.parse((ROOT / "pages" / "0_Data.py").read_text(encoding="utf-8"))
    modules = {node.module for node in ast.walk(page) if isinstance(node, ast.ImportFrom)}
    modules |= {alias.name for node in ast.walk(page) if isinstance(node, ast.Import) for alias in node.names}
    heavy = "sorted(m for m in ('sklearn', 'scipy.stats', 'numba') if m in sys.modules)"
    code = (f"import sys, {', '.join(sorted(modules))}; print({heavy}); "
            f"from psl_core import ProbabilisticScoringList; print({heavy})")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["[]", "['numba', 'scipy.stats', 'sklearn']"]


def test_the_read_as_sentence_names_each_columns_reading_on_the_page(app):
    table = "dose;share;ward;outcome\n" + "".join(f"{60 + i},{i % 10};{10 + i}%;{'AB'[i % 2]}x;{i % 2}\n" for i in range(40))
    upload(app, "mixed.csv", table.encode())
    assert (
        "Read as: Fields separated by semicolon; decimal comma (72,5), no thousands separator; numbers: 'dose', "
        "'outcome'; percentages (the % sign dropped): 'share'; text, kept as written: 'ward'." in texts(app.caption)
    )
