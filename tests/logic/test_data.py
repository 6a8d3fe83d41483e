"""Tests of psl_triage.data and psl_triage.demo: reading uploads, column types, guesses, preparation."""

from __future__ import annotations

import codecs
import io
import re
import string

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from psl_core import ProbabilisticScoringList, PSLError
from psl_core.errors import DataError
from psl_triage.data import (
    DEFAULT_MAX_UPLOAD_MB,
    KINDS,
    MAX_COLUMNS,
    MIN_ROWS_PER_CLASS,
    MOSTLY_EMPTY_SHARE,
    ColumnSpec,
    NumberFormat,
    PreparedData,
    column_summary,
    count_classes,
    default_class_names,
    describe_missing_handling,
    detect_number_format,
    explain_outcome_guess,
    guess_missing_handling,
    guess_outcome,
    guess_positive_class,
    infer_column_types,
    leak_reason,
    load_table,
    missing_report,
    outcome_classes,
    prepare_training_data,
    read_table,
    upload_limit_mb,
    value_label,
)
from psl_triage.demo import HEART_META, load_demo
from psl_triage.roles import propose_roles


@pytest.fixture(scope="module")
def demo():
    return load_demo()


@pytest.fixture(scope="module")
def demo_types(demo):
    df, meta = demo
    return infer_column_types(df, meta.columns)


def balanced_table(n: int = 40, **extra) -> pd.DataFrame:
    """A small table with a balanced 0/1 outcome and a numeric feature, plus ``extra`` columns."""
    rng = np.random.default_rng(0)
    table = {"outcome": [0, 1] * (n // 2), "value": rng.normal(size=n).round(3)}
    table.update(extra)
    return pd.DataFrame(table)


def xlsx_bytes(sheets: dict[str, pd.DataFrame]) -> bytes:
    buffer = io.BytesIO()
    with pd.ExcelWriter(buffer, engine="openpyxl") as writer:
        for name, frame in sheets.items():
            frame.to_excel(writer, sheet_name=name, index=False)
    return buffer.getvalue()


# --- demo data --------------------------------------------------------------------------------


def test_demo_has_303_rows_and_derived_outcome(demo):
    df, meta = demo
    assert df.shape == (303, 15)
    assert meta.outcome == "heart_disease" and meta.positive_class == 1
    assert list(df.columns).index("heart_disease") == list(df.columns).index("num") + 1
    assert (df["heart_disease"] == (df["num"] > 0)).all()
    assert df["heart_disease"].sum() == 139  # 45.9 %
    assert df[["ca", "thal"]].isna().sum().tolist() == [4, 2]


def test_demo_specs_give_clinical_labels_units_and_codes():
    columns = HEART_META.columns
    assert (columns["thalach"].label, columns["thalach"].unit) == ("Max heart rate", "bpm")
    assert (columns["oldpeak"].label, columns["oldpeak"].unit) == ("ST depression", "mm")
    assert (columns["trestbps"].label, columns["trestbps"].unit) == ("Resting blood pressure", "mm Hg")
    assert (columns["chol"].label, columns["chol"].unit) == ("Serum cholesterol", "mg/dl")
    assert columns["ca"].label == "Major vessels coloured by fluoroscopy"
    assert columns["cp"].categories[4] == "asymptomatic"
    assert columns["restecg"].categories[2] == "left ventricular hypertrophy"
    assert columns["slope"].categories == {1: "upsloping", 2: "flat", 3: "downsloping"}
    assert columns["thal"].categories == {3: "normal", 6: "fixed defect", 7: "reversible defect"}
    assert columns["sex"].kind == "binary" and columns["sex"].binary_one == 1
    assert columns["num"].kind == "ignore"
    # Every column of the demo table has a spec.
    df, _ = load_demo()
    assert set(columns) == set(df.columns)


def test_demo_types_mark_coded_columns_categorical(demo, demo_types):
    assert {name: demo_types[name] for name in ("cp", "restecg", "slope", "thal")} == dict.fromkeys(
        ("cp", "restecg", "slope", "thal"), "categorical"
    )
    assert demo_types["sex"] == demo_types["fbs"] == demo_types["exang"] == "binary"
    assert demo_types["thalach"] == demo_types["oldpeak"] == "numeric"
    assert demo_types["num"] == "ignore"


def test_prepare_demo_dropping_missing_rows(demo, demo_types):
    df, meta = demo
    prepared = prepare_training_data(df, demo_types, "heart_disease", 1, "drop", meta.columns)
    assert isinstance(prepared, PreparedData)
    assert (prepared.n_rows_before, prepared.n_rows_after) == (303, 297)
    assert prepared.X.shape == (297, 13)
    assert "num" not in prepared.X and "heart_disease" not in prepared.X
    assert prepared.y.dtype == np.int64 and set(np.unique(prepared.y)) == {0, 1}
    assert (prepared.n_positive, prepared.n_negative) == (137, 160)
    assert prepared.positive_class == (1,)
    assert (prepared.outcome_label, prepared.positive_label, prepared.negative_label) == (
        "Heart disease",
        "heart disease",
        "no heart disease",
    )
    assert prepared.notes == ["Dropped 6 rows (2.0 %) with a missing value."]
    assert not prepared.X.isna().any().any()
    # The source row index is kept, so rows can be traced back to the table.
    assert prepared.X.index.equals(df.dropna().index)
    np.testing.assert_array_equal(prepared.y, df.loc[prepared.X.index, "heart_disease"].to_numpy())


def test_prepared_demo_columns_have_kinds_dtypes_and_metadata(demo, demo_types):
    df, meta = demo
    prepared = prepare_training_data(df, demo_types, "heart_disease", 1, "drop", meta.columns)
    X, info = prepared.X, prepared.columns
    assert list(info) == list(X.columns)
    assert X["thalach"].dtype == np.float64
    assert info["thalach"].display_name == "Max heart rate (bpm)"
    assert set(X["sex"].unique()) == {0.0, 1.0}
    assert (X["sex"] == df.loc[X.index, "sex"]).all()  # 1 = male stays 1
    assert info["sex"].category_labels == {"1": "male", "0": "female"} and info["sex"].one_value == 1
    assert isinstance(X["cp"].dtype, pd.CategoricalDtype)
    assert list(X["cp"].cat.categories) == ["1", "2", "3", "4"]
    assert info["cp"].category_labels["4"] == "asymptomatic"
    assert info["thal"].category_labels == {"3": "normal", "6": "fixed defect", "7": "reversible defect"}
    assert info["ca"].kind == "numeric" and info["ca"].fill_value is None


def test_prepare_demo_imputing(demo, demo_types):
    df, meta = demo
    prepared = prepare_training_data(df, demo_types, "heart_disease", 1, "impute", meta.columns)
    assert prepared.n_rows_after == 303 and not prepared.X.isna().any().any()
    assert prepared.columns["ca"].fill_value == 0
    assert prepared.columns["thal"].fill_value == "3"
    assert prepared.notes == [
        "Filled in 4 missing values of 'ca' with the median, 0.",
        "Filled in 2 missing values of 'thal' with the most frequent value, 3.",
    ]


# --- reading uploads ----------------------------------------------------------------------


def test_read_csv():
    df = read_table(b"age,sex,died\n50,m,yes\n61,f,no\n", "patients.csv")
    assert list(df.columns) == ["age", "sex", "died"]
    assert df["age"].tolist() == [50, 61] and df["sex"].tolist() == ["m", "f"]


def test_read_tsv_and_tab_separated_txt():
    data = b"age\tsex\n50\tm\n61\tf\n"
    for name in ("patients.tsv", "patients.txt"):
        assert read_table(data, name).shape == (2, 2)


def test_read_semicolon_csv_with_decimal_points():
    df = read_table(b"age;bmi\n50;21.5\n61;30.1\n", "european.csv")
    assert df["bmi"].tolist() == [21.5, 30.1]


def test_column_names_are_stripped_and_question_mark_is_missing():
    df = read_table(b" age , ca \n50,?\n61,1\n", "uci.csv")
    assert list(df.columns) == ["age", "ca"]
    assert df["ca"].isna().tolist() == [True, False]


def test_utf8_with_byte_order_mark():
    loaded = load_table(codecs.BOM_UTF8 + "âge,sexe\n50,m\n61,f\n".encode(), "excel.csv")
    assert list(loaded.frame.columns) == ["âge", "sexe"] and loaded.notes == []


def test_latin1_falls_back_and_says_so():
    loaded = load_table("âge,ville\n50,Zürich\n61,Genève\n".encode("latin-1"), "old.csv")
    assert list(loaded.frame.columns) == ["âge", "ville"]
    assert loaded.frame["ville"].tolist() == ["Zürich", "Genève"]
    assert len(loaded.notes) == 1 and "not UTF-8" in loaded.notes[0] and "Windows-1252" in loaded.notes[0]


def test_windows_1252_quotes_are_read():
    loaded = load_table("name,remark\na,“ok”\nb,fine\n".encode("cp1252"), "win.csv")
    assert loaded.frame["remark"].tolist() == ["“ok”", "fine"]


def test_utf16_text_export_from_excel():
    data = "age\tsex\n50\tm\n61\tf\n".encode("utf-16")
    assert read_table(data, "unicode.txt").shape == (2, 2)


@pytest.mark.parametrize(
    ("data", "name", "message"),
    [
        (b"", "empty.csv", "empty"),
        (b"  \n\n ", "blank.csv", "blank"),
        (bytes(range(256)) * 4, "garbage.csv", "binary"),
        (b"\x8d\x81\x8f\x01\x02\x03\x04\x05\x06\x07\x08" * 50, "noise.csv", "readable text"),
        (b"PK\x03\x04\x14\x00\x06\x00rest", "book.csv", ".xlsx"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "old.csv", "old Office"),
        (b"a,b,a\n1,2,3\n", "dup.csv", "duplicate column names: 'a'"),
        (b"a, b,b \n1,2,3\n", "dup_spaces.csv", "duplicate column names: 'b'"),
        (b"a,b\n", "header_only.csv", "no data rows"),
        (b"a,b\n,\n,\n", "empty_rows.csv", "no data rows"),
        (b"just one column\nsome text\nmore text\n", "notes.csv", "does not look like a table"),
        (b"a,b\n1,2\n3,4,5,6\n", "ragged.csv", "same number of fields"),
        (b"\n\n,\n1,2\n", "no_header.csv", "no header row"),
        (b"a,b\n1,2\n", "table.xls", "Save the sheet as .xlsx"),
        (b"a,b\n1,2\n", "table.json", "unsupported file type .json"),
        (b"a,b\n1,2\n", "table", "(no extension)"),
        (b"not a zip at all", "fake.xlsx", "Excel"),
        (b"PK\x03\x04broken zip", "broken.xlsx", "Excel"),
    ],
)
def test_bad_uploads_raise_clear_data_errors(data, name, message):
    with pytest.raises(DataError, match=None) as caught:
        read_table(data, name)
    assert message in str(caught.value)
    assert name in str(caught.value)


def test_size_limit():
    data = b"a,b\n" + b"1,2\n" * 1000
    assert read_table(data, "ok.csv", max_bytes=len(data)).shape == (1000, 2)
    with pytest.raises(DataError, match="the limit is 0.0 MB.*PSL_MAX_UPLOAD_MB"):
        read_table(data, "big.csv", max_bytes=len(data) - 1)


def test_upload_limit_from_environment_value():
    assert upload_limit_mb(None) == upload_limit_mb("") == DEFAULT_MAX_UPLOAD_MB == 50
    assert upload_limit_mb(" 200 ") == 200
    for bad in ("abc", "0", "-5", "1.5"):
        with pytest.raises(DataError, match="PSL_MAX_UPLOAD_MB"):
            upload_limit_mb(bad)


def test_empty_rows_and_unnamed_empty_columns_are_dropped_with_notes():
    loaded = load_table(b"a,b,\n1,2,\n,,\n3,4,\n", "trailing.csv")
    assert loaded.frame.shape == (2, 2)
    assert loaded.notes == ["Dropped 1 empty column without a name.", "Dropped 1 empty row."]


def test_xlsx_round_trip_reads_first_sheet_and_says_so():
    patients = pd.DataFrame({"age": [50, 61, 70], "sex": ["m", "f", "m"], "bmi": [21.5, None, 30.0]})
    data = xlsx_bytes({"patients": patients, "readme": pd.DataFrame({"x": [1]})})
    loaded = load_table(data, "study.xlsx")
    pd.testing.assert_frame_equal(loaded.frame, patients, check_dtype=False)
    assert loaded.notes == ["study.xlsx has 2 sheets; the first, 'patients', was read."]


def test_xlsx_duplicate_and_missing_header():
    data = xlsx_bytes({"s": pd.DataFrame([[1, 2, 3]], columns=["a", "b", "c"]).rename(columns={"c": "a"})})
    with pytest.raises(DataError, match="duplicate column names: 'a'"):
        read_table(data, "dup.xlsx")
    with pytest.raises(DataError, match="no data rows"):
        read_table(xlsx_bytes({"s": pd.DataFrame(columns=["a", "b"])}), "header_only.xlsx")


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=400), suffix=st.sampled_from([".csv", ".tsv", ".txt", ".xlsx", ".bin"]))
def test_any_bytes_give_a_table_or_a_data_error(data, suffix):
    try:
        df = read_table(data, "upload" + suffix)
    except DataError:
        return
    assert isinstance(df, pd.DataFrame) and len(df.columns) >= 2 and len(df) >= 1
    assert not df.columns.has_duplicates


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from(list("ab1.5 ,;\t\"'\n\r?é€-")), max_size=200),
    suffix=st.sampled_from([".csv", ".tsv"]),
)
def test_any_delimited_text_gives_a_table_or_a_data_error(text, suffix):
    try:
        df = read_table(text.encode("utf-8"), "upload" + suffix)
    except DataError:
        return
    assert len(df.columns) >= 2 and len(df) >= 1 and not df.columns.has_duplicates


# --- column types and guesses --------------------------------------------------------------


def test_infer_column_types_rules():
    n = 40
    df = pd.DataFrame(
        {
            "patient_id": [f"P{i:03d}" for i in range(n)],
            "record": list(range(1000, 1000 + n)),
            "row_counter": list(range(1, n + 1)),
            "age": np.linspace(30, 80, n).round(),
            "lipid": np.linspace(1, 5, n),  # ends in "id", is not an identifier
            "codes": [1, 2, 3, 4] * 10,
            "sex": ["m", "f"] * 20,
            "smoker": [True, False] * 20,
            "blood_group": ["A", "B", "AB", "O"] * 10,
            "comment": [f"free text {i}" for i in range(n)],
            "empty": [None] * n,
            "constant": [7] * n,
            "numbers_as_text": pd.Series([str(i % 5) for i in range(n)], dtype=object),
            "visit": pd.date_range("2020-01-01", periods=n),
        }
    )
    assert infer_column_types(df) == {
        "patient_id": "ignore",
        "record": "ignore",
        "row_counter": "ignore",
        "age": "numeric",
        "lipid": "numeric",
        "codes": "numeric",
        "sex": "binary",
        "smoker": "binary",
        "blood_group": "categorical",
        "comment": "ignore",
        "empty": "ignore",
        "constant": "ignore",
        "numbers_as_text": "numeric",
        "visit": "ignore",
    }
    assert infer_column_types(df, {"codes": ColumnSpec(kind="categorical"), "absent": ColumnSpec(kind="binary")})[
        "codes"
    ] == "categorical"


def test_column_summary_explains_ignored_columns(demo, demo_types):
    df = pd.DataFrame({"a": [None, None, None], "b": [1, 1, 1], "c": [1, 2, 3]})
    summary = column_summary(df, infer_column_types(df))
    assert summary["reason"].tolist() == ["all values are missing", "the same value in every row", "numbers from 1 to 3"]
    assert summary["missing"].tolist() == [3, 0, 0]
    demo_summary = column_summary(*demo[:1], demo_types, demo[1].columns)
    row = demo_summary.set_index("column").loc["num"]
    assert row["type"] == "ignore" and "derived" in row["reason"]
    assert demo_summary.set_index("column").loc["thalach", "label"] == "Max heart rate"


def test_guess_outcome():
    assert guess_outcome(*_with_types(pd.DataFrame({"x": [1, 2, 3], "Died": [0, 1, 0], "sex": [0, 1, 1]}))) == "Died"
    assert guess_outcome(*_with_types(pd.DataFrame({"x": [1, 2, 3], "a": [0, 1, 0], "b": ["u", "v", "v"]}))) == "b"
    assert guess_outcome(*_with_types(pd.DataFrame({"x": [1, 2, 3], "class": ["a", "b", "c"]}))) == "class"
    assert guess_outcome(*_with_types(pd.DataFrame({"x": [1, 2, 3], "y": [4.0, 5.5, 6.1]}))) == "y"
    assert guess_outcome(*_with_types(pd.DataFrame({"x": [1, 2, 3], "z": [4.0, 5.5, 6.1]}))) is None
    one_class = pd.DataFrame({"outcome": ["alive"] * 3, "smoker": ["y", "n", "n"]})
    assert guess_outcome(*_with_types(one_class)) == "outcome"  # so the page can say what is wrong
    df, _ = load_demo()
    assert guess_outcome(df, infer_column_types(df)) == "heart_disease"


def _with_types(df):
    return df, infer_column_types(df)


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["no", "yes", "no"], "yes"),
        (["Negative", "Positive"], "Positive"),
        ([0, 1, 1], 1),
        ([0.0, 1.0], 1),
        ([True, False, False], 1),  # booleans are numbers: True is 1
        (["alive", "x", "alive"], "x"),
        (["benign", "malignant"], "malignant"),
        (["a", "b", "b", "b"], "a"),  # the rarer value
        (["a", "b"], "b"),  # a tie: the later value
        ([1, 2, 2, 2], 1),
        (["a", "b", "c"], None),
        (["a", "a"], None),
        ([None, None], None),
    ],
)
def test_guess_positive_class(values, expected):
    assert guess_positive_class(pd.Series(values, dtype=object)) == expected


def test_outcome_classes_and_counts_merge_equal_values():
    series = pd.Series([1, 1.0, "1", 2, None, " 2 "], dtype=object)
    assert outcome_classes(series) == [1, 2]
    assert count_classes(series) == [(1, 3), (2, 2)]
    assert outcome_classes(pd.Series([10.0, 9.0, 2.5])) == [2.5, 9, 10]
    assert outcome_classes(pd.Series(["b", "A", "10", "9"])) == ["9", "10", "A", "b"]


def test_value_label():
    spec = ColumnSpec(categories={1: "male", 0: "female"})
    assert value_label(1.0, spec) == "male" and value_label(0, spec) == "female"
    assert value_label(2, spec) == "2" and value_label("x") == "x"


def test_missing_report_counts_blank_text_and_infinity():
    df = pd.DataFrame({"a": [1.0, np.inf, None, 4.0], "b": ["x", " ", None, "y"], "c": [1, 2, 3, 4]})
    report = missing_report(df)
    assert report["column"].tolist() == ["a", "b", "c"]
    assert report["missing"].tolist() == [2, 2, 0]
    assert report["percent"].tolist() == [50.0, 50.0, 0.0]
    assert missing_report(df, ["c"])["missing"].tolist() == [0]


def test_describe_missing_handling(demo, demo_types):
    df, _ = demo
    assert describe_missing_handling(df, demo_types, "heart_disease", "drop") == (
        "6 rows (2.0 %) have a missing value and will be dropped; 297 of 303 rows remain."
    )
    assert describe_missing_handling(df, demo_types, "heart_disease", "impute") == (
        "Will fill in 4 missing values in 'ca' with the median; 2 missing values in 'thal' "
        "with the most frequent value; 303 of 303 rows are kept."
    )
    complete = dict(demo_types, ca="ignore", thal="ignore")
    assert describe_missing_handling(df, complete, "heart_disease", "drop") == (
        "No missing values in the columns in use; all 303 rows are kept."
    )
    with_gaps = pd.DataFrame({"y": [0, 1, None, 1], "x": [1.0, None, 2.0, 3.0]})
    types = {"y": "binary", "x": "numeric"}
    assert describe_missing_handling(with_gaps, types, "y", "impute") == (
        "Will fill in 1 missing value in 'x' with the median; 3 of 4 rows are kept. "
        "1 row without an outcome will be dropped."
    )
    assert describe_missing_handling(with_gaps, types, "y", "learn") == (
        "Keeps 1 missing value in 'x': the list learns whether a missing answer counts as yes or no "
        "for each question; 3 of 4 rows are kept. 1 row without an outcome will be dropped."
    )
    assert describe_missing_handling(df, complete, "heart_disease", "learn") == (
        "No missing values in the columns in use; 303 of 303 rows are kept."
    )
    with pytest.raises(DataError, match="'learn', 'drop' or 'impute'"):
        describe_missing_handling(with_gaps, types, "y", "mean")


def test_guess_missing_handling(demo, demo_types):
    df, _ = demo
    assert guess_missing_handling(df, demo_types, "heart_disease") == "learn"
    sparse = balanced_table(values2=[None, 1.0, 2.0, 3.0] * 10)
    assert guess_missing_handling(sparse, infer_column_types(sparse), "outcome") == "learn"


def test_learning_keeps_missing_values_and_every_row_for_the_learner(demo, demo_types):
    df, _ = demo
    prepared = prepare_training_data(df, demo_types, "heart_disease", [1], "learn")
    assert prepared.n_rows_after == 303
    assert int(prepared.X["ca"].isna().sum()) == 4 and int(prepared.X["thal"].isna().sum()) == 2
    assert prepared.columns["ca"].fill_value is None
    assert not any("Filled in" in note or "Dropped" in note for note in prepared.notes)
    assert set(prepared.X["thal"].cat.categories) == set(prepared.X["thal"].dropna().unique())


# --- preparing training data: outcomes --------------------------------------------------------


def test_more_than_two_classes_need_a_positive_class(demo, demo_types):
    df, meta = demo
    with pytest.raises(DataError, match=r"5 values \(0, 1, 2, 3, 4\); pick the positive class"):
        prepare_training_data(df, demo_types, "num", None, "drop", meta.columns)
    prepared = prepare_training_data(df, demo_types, "num", [1, 2, 3, 4], "drop", meta.columns)
    assert prepared.n_positive == 137 and prepared.positive_class == (1, 2, 3, 4)
    assert prepared.notes[0] == "The outcome 'num' has 5 values: 1, 2, 3, 4 count as positive, 0 as negative."
    # heart_disease is now a feature that gives the answer away: the notes say so.
    assert any("'heart_disease' looks like it encodes the outcome" in note for note in prepared.notes)
    single = prepare_training_data(df, demo_types, "num", 1, "drop", meta.columns)
    assert single.n_positive == 54 and "1 counts as positive, 0, 2, 3, 4 as negative" in single.notes[0]


def test_positive_class_matches_by_canonical_text():
    df = balanced_table()
    types = infer_column_types(df)
    for positive in (1, 1.0, "1", [1], (1.0,), True):
        prepared = prepare_training_data(df, types, "outcome", positive)
        np.testing.assert_array_equal(prepared.y, df["outcome"].to_numpy())
    with pytest.raises(DataError, match="'2' does not occur"):
        prepare_training_data(df, types, "outcome", 2)
    with pytest.raises(DataError, match="leave at least one value"):
        prepare_training_data(df, types, "outcome", [0, 1])


def test_positive_class_guessed_for_two_classes_with_a_note():
    df = balanced_table()
    df["outcome"] = df["outcome"].map({0: "alive", 1: "died"})
    prepared = prepare_training_data(df, infer_column_types(df), "outcome", None)
    assert prepared.positive_class == ("died",) and prepared.positive_label == "died"
    assert prepared.notes == ["No positive class was given; used 'died'."]


@pytest.mark.parametrize(
    ("outcome", "message"),
    [
        ([1] * 40, "only one value, '1'"),
        ([None] * 40, "no values (all missing)"),
        (list(range(40)), "40 different values; it looks like a measurement"),
    ],
)
def test_unusable_outcomes(outcome, message):
    df = balanced_table(target=outcome)
    with pytest.raises(DataError, match=message.replace("(", r"\(").replace(")", r"\)")):
        prepare_training_data(df, infer_column_types(df), "target", 1)


def test_too_few_rows_of_a_class_names_the_counts():
    df = pd.DataFrame({"outcome": [1] * 7 + [0] * 30, "x": np.arange(37.0)})
    with pytest.raises(DataError, match=r"7 positive \(outcome = 1\) and 30 negative \(outcome = 0\); at least 10 of each"):
        prepare_training_data(df, {"x": "numeric"}, "outcome", 1)
    assert MIN_ROWS_PER_CLASS == 10


def test_rows_without_outcome_are_always_dropped():
    df = balanced_table()
    df.loc[[0, 1], "outcome"] = None
    for missing in ("drop", "impute"):
        prepared = prepare_training_data(df, {"value": "numeric"}, "outcome", 1, missing)
        assert prepared.n_rows_after == 38
        assert "Dropped 2 rows without a value for the outcome 'outcome'." in prepared.notes


def test_outcome_not_in_table_and_duplicate_columns():
    df = balanced_table()
    with pytest.raises(DataError, match="'nope' is not in the table"):
        prepare_training_data(df, {}, "nope", 1)
    duplicated = pd.concat([df, df[["value"]]], axis=1)
    with pytest.raises(DataError, match="Duplicate column names: value"):
        prepare_training_data(duplicated, {}, "outcome", 1)


# --- preparing training data: features --------------------------------------------------------


def test_text_binary_feature_maps_to_zero_one_with_the_mapping_recorded():
    df = balanced_table(smoker=["yes", "no", "no", "no"] * 10, sex=["M", "F", "F", "M"] * 10)
    prepared = prepare_training_data(df, {"smoker": "binary", "sex": "binary"}, "outcome", 1)
    assert prepared.X["smoker"].tolist() == [1.0, 0.0, 0.0, 0.0] * 10
    smoker = prepared.columns["smoker"]
    assert smoker.one_value == "yes" and smoker.category_labels == {"1": "yes", "0": "no"}
    sex = prepared.columns["sex"]
    assert sex.category_labels == {"1": "M", "0": "F"}  # a tie: the later value in natural order
    assert prepared.X["sex"].tolist() == [1.0, 0.0, 0.0, 1.0] * 10


def test_spec_decides_which_binary_value_is_one():
    df = balanced_table(sex=[1, 2, 2, 2] * 10)
    specs = {"sex": ColumnSpec("Sex", categories={1: "male", 2: "female"}, binary_one=2)}
    prepared = prepare_training_data(df, {"sex": "binary"}, "outcome", 1, specs=specs)
    assert prepared.X["sex"].tolist() == [0.0, 1.0, 1.0, 1.0] * 10
    assert prepared.columns["sex"].category_labels == {"1": "female", "0": "male"}


def test_binary_column_with_three_values_is_refused():
    df = balanced_table(grade=["a", "b", "c", "a"] * 10)
    with pytest.raises(DataError, match="'grade' has 3 different values"):
        prepare_training_data(df, {"grade": "binary"}, "outcome", 1)


def test_categorical_column_becomes_string_categories():
    df = balanced_table(code=[1.0, 2.0, 10.0, None] * 10)
    prepared = prepare_training_data(df, {"code": "categorical"}, "outcome", 1, "impute")
    column = prepared.X["code"]
    assert isinstance(column.dtype, pd.CategoricalDtype)
    assert list(column.cat.categories) == ["1", "2", "10"]
    assert column.cat.categories.dtype == "str"
    assert prepared.columns["code"].fill_value == "1"  # tie between 1, 2, 10: the first


def test_too_many_categories_are_refused():
    df = balanced_table(n=80, name=[f"n{i}" for i in range(80)])
    with pytest.raises(DataError, match="'name' has 80 categories"):
        prepare_training_data(df, {"name": "categorical"}, "outcome", 1)


def test_numeric_text_column_with_some_words():
    df = balanced_table(lab=["<5", "7", "8.5", "9"] * 10)
    prepared = prepare_training_data(df, {"lab": "numeric"}, "outcome", 1)
    assert prepared.n_rows_after == 30
    assert "10 values in 'lab' are not a number (e.g. '<5') and counted as missing." in prepared.notes
    assert describe_missing_handling(df, {"lab": "numeric"}, "outcome", "drop").startswith("10 rows (25.0 %)")
    words = balanced_table(word=["a", "b", "c", "d"] * 10)
    with pytest.raises(DataError, match="'word' has no numbers"):
        prepare_training_data(words, {"word": "numeric"}, "outcome", 1)


def test_infinite_values_count_as_missing():
    df = balanced_table(50, x=[np.inf, 1.0, 2.0, -np.inf, 3.0] * 10)
    prepared = prepare_training_data(df, {"x": "numeric"}, "outcome", 1, "impute")
    assert "20 infinite values in 'x' counted as missing." in prepared.notes
    assert np.isfinite(prepared.X["x"]).all()


def test_all_missing_and_constant_features_are_left_out_with_notes():
    df = balanced_table(empty=[None] * 40, same=[3] * 40, later_same=[5] * 39 + [None])
    types = {"value": "numeric", "empty": "numeric", "same": "categorical", "later_same": "numeric"}
    prepared = prepare_training_data(df, types, "outcome", 1)
    assert list(prepared.X.columns) == ["value"]
    assert "Left out 'empty': all values are missing." in prepared.notes
    assert "Left out 'same': it has the same value in every row used." in prepared.notes
    assert "Left out 'later_same': it has the same value in every row used." in prepared.notes


def test_no_features_no_rows_and_bad_choices_are_refused():
    df = balanced_table()
    with pytest.raises(DataError, match="No feature columns"):
        prepare_training_data(df, {"value": "ignore"}, "outcome", 1)
    gappy = balanced_table(gaps=[None, 1.0] * 20)
    gappy.loc[1::2, "value"] = None
    with pytest.raises(DataError, match="No rows are left"):
        prepare_training_data(gappy, {"value": "numeric", "gaps": "numeric"}, "outcome", 1, "drop")
    with pytest.raises(DataError, match="type 'number'"):
        prepare_training_data(df, {"value": "number"}, "outcome", 1)
    with pytest.raises(DataError, match="'drop' or 'impute', got 'mean'"):
        prepare_training_data(df, {"value": "numeric"}, "outcome", 1, "mean")


def test_dates_cannot_be_numeric():
    df = balanced_table(visit=pd.date_range("2020-01-01", periods=40))
    with pytest.raises(DataError, match="'visit' holds dates"):
        prepare_training_data(df, {"visit": "numeric"}, "outcome", 1)


def test_uploaded_table_end_to_end():
    """A researcher's CSV: semicolons, Latin-1, "?" for missing, text outcome and binary."""
    rows = ["Patient ID;Âge;Sexe;Tabac;Décès"]
    for i in range(40):
        age = "?" if i == 3 else str(40 + i)
        rows.append(f"{i + 1};{age};{'H' if i % 3 else 'F'};{'oui' if i % 4 else 'non'};{'oui' if i % 2 else 'non'}")
    loaded = load_table("\n".join(rows).encode("latin-1"), "étude.csv")
    df = loaded.frame
    types = infer_column_types(df)
    assert types == {"Patient ID": "ignore", "Âge": "numeric", "Sexe": "binary", "Tabac": "binary", "Décès": "binary"}
    outcome = guess_outcome(df, types)
    assert outcome == "Décès"
    positive = guess_positive_class(df[outcome])
    assert positive == "oui"
    prepared = prepare_training_data(df, types, outcome, positive, guess_missing_handling(df, types, outcome))
    assert prepared.n_rows_after == 40 and list(prepared.X.columns) == ["Âge", "Sexe", "Tabac"]
    assert np.isnan(prepared.X["Âge"].iloc[3])  # "?" kept missing, for the learner
    assert prepared.columns["Tabac"].category_labels == {"1": "oui", "0": "non"}


# --- property tests -------------------------------------------------------------------------

_missing = st.sampled_from([None, np.nan, "", " ", "?"])
_cells = {
    "float": st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([0.0, -0.0, 1e308, -1e308, 5e-324, 1e15, 1e16]),
    ),
    "int": st.integers(-(2**62), 2**62),
    "code": st.sampled_from([0, 1, 2, 3]),
    "bool": st.booleans(),
    "text": st.text(alphabet=string.ascii_letters + "éß中 ", max_size=4),
    "word": st.sampled_from(["yes", "no", "maybe", "Yes ", "1", "0"]),
}


@st.composite
def tables(draw):
    n_rows = draw(st.integers(0, 60))
    names = draw(
        st.lists(st.text(min_size=1, max_size=6), min_size=1, max_size=5, unique=True)
    )
    table = {}
    for name in names:
        kind = draw(st.sampled_from(["float", "int", "code", "bool", "text", "word", "constant", "empty", "mixed"]))
        if kind == "constant":
            values = [draw(_cells["word"])] * n_rows
        elif kind == "empty":
            values = [None] * n_rows
        elif kind == "mixed":
            values = draw(st.lists(st.one_of(_cells["float"], _cells["text"], _missing), min_size=n_rows, max_size=n_rows))
        else:
            cell = st.one_of(_cells[kind], _missing) if draw(st.booleans()) else _cells[kind]
            values = draw(st.lists(cell, min_size=n_rows, max_size=n_rows))
        table[name] = pd.Series(values, dtype=object) if kind in ("mixed", "empty") or draw(st.booleans()) else values
    balanced = draw(st.booleans())
    if balanced:
        table["__outcome"] = [i % 2 for i in range(n_rows)]
    return pd.DataFrame(table) if table else pd.DataFrame(index=range(n_rows))


def _check_prepared(prepared: PreparedData, df: pd.DataFrame, types: dict, outcome: object) -> None:
    X, y = prepared.X, prepared.y
    assert len(X) == len(y) == prepared.n_rows_after <= prepared.n_rows_before == len(df)
    assert y.dtype == np.int64 and set(np.unique(y)) == {0, 1}
    assert min(prepared.n_positive, prepared.n_negative) >= MIN_ROWS_PER_CLASS
    assert outcome not in X.columns and list(prepared.columns) == list(X.columns)
    # Nothing missing is left but in columns too empty to fill in (the learner takes those).
    filled = X.columns[X.isna().mean() <= MOSTLY_EMPTY_SHARE]
    assert not X[filled].isna().any().any()
    for name in X.columns:
        kind = types[name]
        assert prepared.columns[name].kind == kind
        if kind == "categorical":
            assert isinstance(X[name].dtype, pd.CategoricalDtype)
            assert all(isinstance(category, str) for category in X[name].cat.categories)
        else:
            assert X[name].dtype == np.float64 and np.isfinite(X[name].dropna()).all()
            if kind == "binary":
                assert set(X[name].dropna().unique()) <= {0.0, 1.0}
        assert X[name].nunique() >= 2


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(df=tables(), data=st.data())
def test_random_tables_prepare_and_train_or_raise_documented_errors(df, data):
    """Random tables through data preparation and training: each either trains or raises
    the project's documented error (DataError / PSLError); nothing else escapes."""
    inferred = infer_column_types(df)
    assert set(inferred) == set(df.columns) and set(inferred.values()) <= set(KINDS)
    missing_report(df)
    column_summary(df, inferred)
    if df.columns.empty:
        return
    types = data.draw(st.one_of(st.just(inferred), st.fixed_dictionaries({c: st.sampled_from(KINDS) for c in df.columns})))
    outcome = guess_outcome(df, inferred) or data.draw(st.sampled_from(list(df.columns)))
    classes = outcome_classes(df[outcome])
    positive = data.draw(
        st.one_of(
            st.none(),
            st.sampled_from(classes) if classes else st.none(),
            st.lists(st.sampled_from(classes), max_size=3) if classes else st.none(),
            st.just(guess_positive_class(df[outcome])),
            _cells["word"],
        )
    )
    missing = data.draw(st.sampled_from(["drop", "impute"]))
    guess_missing_handling(df, types, outcome)
    describe_missing_handling(df, types, outcome, missing)
    try:
        prepared = prepare_training_data(df, types, outcome, positive, missing)
    except DataError as error:
        assert str(error)
        return
    _check_prepared(prepared, df, types, outcome)
    if prepared.X.shape[1] == 0:
        return
    options = data.draw(st.sampled_from([{}, {"calibration": "beta"}, {"loss": "cv_brier", "random_state": 0}]))
    try:
        model = ProbabilisticScoringList(max_stages=3, **options).fit(prepared.X, prepared.y)
    except PSLError as error:
        assert str(error)
        return
    event("trained")
    proba = model.predict_proba(prepared.X)
    assert proba.shape == (len(prepared.y), 2) and np.all((proba >= 0) & (proba <= 1))


# --- files as researchers have them (issue 14) -------------------------------------------------


EURO_CSV = (
    "ID;Age;PVol;PreopPSA;TVol;T.Stage;Recurrence\n"
    + "".join(
        f"{317601 + 7 * i};{50 + (i * 37) % 30},{i % 10};{30 + i % 50},{(i * 3) % 10};{(i * 7) % 20},{i % 100:02d};"
        f"{1 + i % 3},0;{1 + i % 2},0;{i % 2}\n"
        for i in range(40)
    )
).encode()


def test_semicolons_and_decimal_commas_are_detected_and_read_as_numbers():
    loaded = load_table(EURO_CSV, "prostate.csv")
    assert loaded.delimiter == ";" and loaded.numbers == NumberFormat(",", "")
    assert loaded.describe_reading() == "Fields separated by semicolon; decimal comma (72,5), no thousands separator."
    frame = loaded.frame
    assert frame.loc[0, "Age"] == 50.0 and frame.loc[1, "PreopPSA"] == 7.01
    types = infer_column_types(frame)
    assert [types[name] for name in ("Age", "PVol", "PreopPSA", "TVol")] == ["numeric"] * 4
    assert types["T.Stage"] == "binary" and types["ID"] == "ignore"


def test_reading_can_be_overridden():
    as_points = load_table(EURO_CSV, "prostate.csv", numbers=NumberFormat(".", ""))
    assert not pd.api.types.is_numeric_dtype(as_points.frame["Age"])  # "50,0" is no number with a decimal point
    by_comma = load_table(b"a;b,c\n1;2,5\n3;4,5\n", "x.csv", delimiter=",")
    assert list(by_comma.frame.columns) == ["a;b", "c"]
    same_mark = load_table(b'a,b\n"1,5",2\n"3,25",4\n', "x.csv", delimiter=",", numbers=NumberFormat(",", ""))
    assert same_mark.frame["a"].tolist() == [1.5, 3.25]  # a quoted decimal comma in a comma-separated file
    with pytest.raises(DataError, match="cannot both be '.'"):
        NumberFormat(".", ".")


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        (["72,1", "65,3", "1", "x"], NumberFormat(",", "")),
        (["72.1", "65.3", "1"], NumberFormat(".", "")),
        (["1.234,5", "12.000,25", "7,5"], NumberFormat(",", ".")),
        (["1,234.5", "12,000", "7.5"], NumberFormat(".", ",")),
        (["1,234", "12,000", "950"], NumberFormat(".", ",")),  # ambiguous alone: grouping, not decimals
        (["1 234,5", "12 000", "7,5"], NumberFormat(",", " ")),
        (["1'234.5", "7.5"], NumberFormat(".", "'")),
        (["1.234.567", "2"], NumberFormat(",", ".")),
        (["yes", "no", "2020-01-03"], NumberFormat(".", "")),
        (["01.02.2020", "13.11.2019", "03.04.2021", "72.1", "65.3"], NumberFormat(".", "")),  # dates are no evidence
    ],
)
def test_number_format_detection(cells, expected):
    assert detect_number_format(cells) == expected


def test_thousands_percent_signs_and_missing_markers_become_numbers():
    text = (
        "id,income,rate,crp,result,outcome\n"
        '1,"1,234.5",12%,3.1,+,yes\n'
        '2,"12,000",3.5 %,.,-,no\n'
        "3,?,N/A,missing,+,no\n"
        "4,950,-,-,-,yes\n"
        "5,NA,7%,2.0,+,yes\n"
    )
    loaded = load_table(text.encode(), "lab.csv")
    frame = loaded.frame
    assert frame["income"].tolist()[:2] == [1234.5, 12000.0] and frame["income"].isna().sum() == 2
    assert frame["rate"].tolist()[0] == 12.0 and frame["rate"].tolist()[1] == 3.5 and frame["rate"].isna().sum() == 2
    assert frame["crp"].isna().sum() == 3
    assert frame["result"].tolist() == ["+", "-", "+", "-", "+"]  # "-" is an answer in a text column
    assert "'rate' is written with percent signs; its values are percentages." in loaded.notes


def test_a_few_stray_words_in_numbers_are_missing_and_named():
    values = [str(40 + i) for i in range(19)] + ["abc"]
    loaded = load_table(("age,outcome\n" + "".join(f"{v},{i % 2}\n" for i, v in enumerate(values))).encode(), "s.csv")
    assert loaded.frame["age"].dtype == "float64" and loaded.frame["age"].isna().sum() == 1
    assert loaded.notes == [
        "'age' holds numbers, but 1 entry is not a number (e.g. 'abc') and read as missing. "
        "Correct them in the file if they are typos."
    ]
    mostly_text = load_table(b"grade,outcome\n1,0\n2,1\n3a,0\n3b,1\n", "g.csv").frame
    assert mostly_text["grade"].tolist() == ["1", "2", "3a", "3b"]


def test_excel_text_cells_with_decimal_commas_become_numbers():
    frame = pd.DataFrame({"age": ["72,1", "65,3", "n/a"], "outcome": [1, 0, 1]})
    loaded = load_table(xlsx_bytes({"s": frame}), "eu.xlsx")
    assert loaded.delimiter is None and loaded.numbers.decimal == ","
    assert loaded.frame["age"].tolist()[:2] == [72.1, 65.3] and np.isnan(loaded.frame["age"].iloc[2])
    assert loaded.describe_reading() == "Decimal comma (72,5), no thousands separator."
    mixed = pd.DataFrame({"weight": [1250.5, "1.234,5", "2.000,0", "k.A."], "outcome": [1, 0, 1, 0]})
    frame = load_table(xlsx_bytes({"s": mixed}), "mixed.xlsx").frame
    assert frame["weight"].tolist()[:3] == [1250.5, 1234.5, 2000.0]  # a number cell is not re-read


@pytest.mark.parametrize(
    ("name", "values", "why"),
    [
        ("ID", [317601 + 13 * i for i in range(30)], "named like an identifier"),
        ("rownames", list(range(1, 31)), "running number"),
        ("Unnamed: 0", list(range(30)), "running number"),
        ("patient_no", [9000 + 7 * i for i in range(30)], "named like an identifier"),
        ("RecordNumber", [f"R{i}" for i in range(30)], "named like an identifier"),
        ("Patienten-Nr.", [1000 + 3 * i for i in range(30)], "named like an identifier"),
        ("sample", [5 * i for i in range(30)][::-1], ""),  # neither named nor running: a measurement
        ("sample_id", [4000 + i // 2 * 7 for i in range(30)], "named like an identifier"),  # measured twice
        ("Shock index", [0.5 + 0.013 * i for i in range(30)], ""),  # decimals: a measurement
        ("record_type", [1, 2, 3] * 10, ""),  # few values: a category
    ],
)
def test_identifiers_are_ignored_with_a_reason(name, values, why):
    df = pd.DataFrame({name: values, "outcome": [0, 1] * 15})
    types = infer_column_types(df)
    reason = column_summary(df, types).set_index("column").loc[name, "reason"]
    if why:
        assert types[name] == "ignore" and why in reason
    else:
        assert types[name] == "numeric" and reason.startswith("numbers from")


def birth_weights(n: int = 189) -> pd.DataFrame:
    """Like MASS::birthwt: 'low' is bwt < 2500, 'ui' and 'smoke' are ordinary binary features."""
    rng = np.random.default_rng(7)
    bwt = rng.normal(2950, 700, n).round()
    return pd.DataFrame(
        {
            "rownames": np.arange(1, n + 1),
            "low": (bwt < 2500).astype(int),
            "age": rng.integers(15, 45, n),
            "smoke": rng.integers(0, 2, n),
            "ui": rng.integers(0, 2, n),
            "bwt": bwt,
        }
    )


def test_outcome_guess_prefers_outcome_names_and_says_why():
    df = birth_weights()
    types = infer_column_types(df)
    assert guess_outcome(df, types) == "low"
    assert explain_outcome_guess(df, types) == "it has two values and its name, 'low', is an outcome word"
    partly = pd.DataFrame({"sex": [0, 1] * 5, "death_status": [1, 0, 0] * 3 + [1], "x": range(10)})
    assert guess_outcome(partly, infer_column_types(partly)) == "death_status"
    unnamed = pd.DataFrame({"a": [0, 1] * 5, "b": [1, 1, 0] * 3 + [0], "x": range(10)})
    assert guess_outcome(unnamed, infer_column_types(unnamed)) == "b"
    assert "no such column is named like an outcome" in explain_outcome_guess(unnamed, infer_column_types(unnamed))


def test_the_measure_the_outcome_is_cut_from_is_flagged_as_a_leak():
    df = birth_weights()
    types = infer_column_types(df)
    leaks = {name: role for name, role in propose_roles(df, types, "low", [1]).items() if role.role == "leak"}
    assert list(leaks) == ["bwt"] and "held-out rows" in leaks["bwt"].evidence
    prepared = prepare_training_data(df, types, "low", 1)
    assert any(note.startswith("'bwt' looks like it encodes the outcome") for note in prepared.notes)


def test_leak_rule_spares_strong_ordinary_predictors_and_catches_coded_outcomes():
    rng = np.random.default_rng(3)
    y = np.array([0, 1] * 100)
    strong = pd.Series(y * 2.0 + rng.normal(size=200))  # AUC about 0.92, errors on both sides
    assert leak_reason(strong, y) == ""
    nearly = pd.Series(np.where(np.arange(200) == 5, 0.0, y * 10.0 + rng.normal(size=200)))
    assert "1 of 200 rows on the other side" in leak_reason(nearly, y, "died", "alive")
    coded = pd.Series(np.where(y == 1, "dead", "alive"))
    assert "its values alone tell died from alive" in leak_reason(coded, y, "died", "alive")
    assert leak_reason(pd.Series(np.arange(10.0)), np.array([0] * 5 + [1] * 5)) == ""  # too few rows to tell


def test_class_names_default_from_the_data_and_can_be_chosen():
    df = birth_weights()
    types = infer_column_types(df) | {"bwt": "ignore"}
    prepared = prepare_training_data(df, types, "low", 1)
    assert (prepared.positive_label, prepared.negative_label) == ("low = 1", "low = 0")
    named = prepare_training_data(df, types, "low", 1, class_names=(" low birth weight ", ""))
    assert (named.positive_label, named.negative_label) == ("low birth weight", "low = 0")
    with pytest.raises(DataError, match="Both classes are named 'same'"):
        prepare_training_data(df, types, "low", 1, class_names=("same", "Same"))
    text = pd.DataFrame({"diagnosis": ["malignant", "benign"] * 10, "x": range(20)})
    assert default_class_names(text["diagnosis"], "diagnosis", ["malignant"]) == ("malignant", "benign")
    several = pd.Series([0, 1, 2, 3] * 5)
    assert default_class_names(several, "num", [1, 2, 3]) == ("num = 1, 2 or 3", "num = 0")


def test_decimal_comma_file_trains_a_list_with_its_thresholds():
    loaded = load_table(EURO_CSV, "prostate.csv")
    types = infer_column_types(loaded.frame)
    prepared = prepare_training_data(loaded.frame, types, guess_outcome(loaded.frame, types), 1)
    assert "ID" not in prepared.X and {"Age", "PVol", "PreopPSA", "TVol"} <= set(prepared.X.columns)
    assert all(prepared.X[name].dtype == "float64" for name in ("Age", "PVol", "PreopPSA"))


@pytest.mark.parametrize(
    ("data", "filename", "words"),
    [
        (b"age,sex\x07\n" + b"1,m\n2,f\n" * 100, "bell.csv", "column name 'sex\\\\x07' holds U\\+0007"),
        (b"age,sex\n1,m\n2,\x1b[31mf\n" + b"1,m\n" * 100, "escape.csv", "column 'sex' holds U\\+001B.*in row 2"),
        ("age\tsex\n1\tm\n2\tf\ud800\n".encode("utf-16", "surrogatepass"), "lone.tsv", "UTF-16"),
    ],
)
def test_text_that_cannot_be_shown_is_refused_at_the_door(data, filename, words):
    with pytest.raises(DataError, match=words):
        load_table(data, filename)


@pytest.mark.parametrize("name", ["__proto__", "__x", "py/object", "!!python", "n" * 1001])
def test_a_column_name_a_saved_list_cannot_hold_is_refused_at_upload(name):
    data = f"age,{name}\n".encode() + b"".join(f"{i},{i % 2}\n".encode() for i in range(40))
    with pytest.raises(DataError, match="cannot be kept in a saved list.*Rename it"):
        load_table(data, "codes.csv")


def test_a_category_a_saved_list_cannot_hold_is_not_offered_and_refused_if_forced():
    rng = np.random.default_rng(0)
    df = pd.DataFrame({
        "sick": rng.integers(0, 2, 60),
        "size": rng.choice(["small", "x" * 1001, "large"], 60),
        "tag": rng.choice(["__proto__", "plain"], 60),
    })
    types = infer_column_types(df)
    assert types["size"] == "ignore" and types["tag"] == "ignore"
    summary = column_summary(df, types)
    reasons = dict(zip(summary["column"], summary["reason"]))
    assert "cannot be kept in a saved list" in reasons["size"]
    for column, kind in (("size", "categorical"), ("tag", "binary")):
        with pytest.raises(DataError, match=f"Column '{column}' holds the value .* cannot be kept in a saved list"):
            prepare_training_data(df, {"sick": "binary", "size": "ignore", "tag": "ignore", column: kind}, "sick", 1)


def test_text_with_many_repeated_values_is_a_category_with_the_rarest_pooled():
    clinics = [f"clinic {i}" for i in range(40) for _ in range(40 - i)]  # 820 rows, 40 clinics
    df = pd.DataFrame({"clinic": clinics, "outcome": [0, 1] * (len(clinics) // 2)})
    types = infer_column_types(df)
    assert types["clinic"] == "categorical"
    prepared = prepare_training_data(df, types, "outcome", 1)
    categories = list(prepared.X["clinic"].cat.categories)
    assert len(categories) == 30 and "other (pooled)" in categories and "clinic 28" in categories
    assert int((prepared.X["clinic"] == "other (pooled)").sum()) == sum(40 - i for i in range(29, 40))
    assert any("the 29 most frequent are kept, the other 11" in note for note in prepared.notes)


def test_text_with_mostly_unique_values_stays_out():
    df = balanced_table(n=80, name=[f"n{i}" for i in range(80)])
    assert infer_column_types(df)["name"] == "ignore"


@pytest.mark.parametrize(
    ("header", "first", "second"),
    [
        ("m,m\u200b", "m", "m\\u200b"),
        ("age,\uff41\uff47\uff45", "age", "\uff41\uff47\uff45"),
        ("sex,s\u0435x", "sex", "s\u0435x"),  # Cyrillic e
        ("a b,a  b", "a b", "a  b"),
    ],
)
def test_column_names_that_look_alike_are_refused_naming_both(header, first, second):
    data = (header + ",y\n" + "1,2,0\n3,4,1\n" * 20).encode()
    with pytest.raises(DataError, match=re.escape(f"look the same when shown: '{first}' and '{second}'")):
        load_table(data, "alike.csv")


def test_invisible_and_direction_characters_are_removed_from_names_and_values_with_a_note():
    female = "f\u200b"
    rows = "".join(f"{i},{'m' if i % 2 else female},{i % 2}\n" for i in range(40))
    loaded = load_table(("\u202eega,Sex\u200b,cafe\u0301\n" + rows).encode(), "bidi.csv")
    assert list(loaded.frame.columns) == ["ega", "Sex", "caf\u00e9"]  # shown as it reads; NFC
    assert set(loaded.frame["Sex"]) == {"m", "f"}
    assert any("invisible or direction-control characters from the column names" in n for n in loaded.notes)
    assert any("1 value of the column 'Sex'" in n for n in loaded.notes)


def test_values_of_a_column_that_look_alike_are_refused_naming_both():
    cyrillic = "m\u0430le"
    rows = "".join(f"{i},{'male' if i % 2 else cyrillic}\n" for i in range(40))
    with pytest.raises(DataError, match="column 'sex' has values that look the same when shown: 'm.le' and 'm.le'"):
        load_table(("age,sex\n" + rows).encode(), "alike.csv")


def test_a_header_with_a_quoted_repeat_after_a_space_is_a_duplicate():
    with pytest.raises(DataError, match="duplicate column names: 'a'"):
        load_table(b'a, "a",y\n' + b"1,2,0\n3,4,1\n" * 20, "repeat.csv")


def test_a_comma_separated_file_with_quoted_decimal_commas_is_read():
    rows = "".join(f'"{60 + i % 20},{i % 10}",{i % 2}\n' for i in range(50))
    loaded = load_table(("weight,y\n" + rows).encode(), "quoted.csv")
    assert loaded.numbers.decimal == "," and loaded.frame["weight"].iloc[:2].tolist() == [60.0, 61.1]


def test_utf32_is_read_as_utf32_not_as_utf16_with_nul_characters():
    text = "weight,sex\n" + "".join(f"{60 + i},{'mf'[i % 2]}\n" for i in range(30))
    for encoding in ("utf-32", "utf-32-be"):
        data = text.encode(encoding) if encoding == "utf-32" else codecs.BOM_UTF32_BE + text.encode(encoding)
        loaded = load_table(data, "wide-chars.csv")
        assert list(loaded.frame.columns) == ["weight", "sex"] and len(loaded.frame) == 30


def test_a_table_wider_than_the_column_limit_is_refused_with_what_to_do():
    header = ",".join(f"c{i}" for i in range(MAX_COLUMNS + 1))
    data = (header + "\n" + ",".join("1" for _ in range(MAX_COLUMNS + 1)) + "\n").encode()
    with pytest.raises(DataError, match=f"has {MAX_COLUMNS + 1:,} columns; the app reads tables of at most 500"):
        load_table(data, "wide.csv")
    assert len(load_table(data.replace(b",c500", b"").replace(b",1\n", b"\n"), "wide.csv").frame.columns) == MAX_COLUMNS
