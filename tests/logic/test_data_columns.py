"""Tests of psl_triage.data.columns and psl_triage.data.demo: the bundled demo table and the kind
proposed for each column, with why."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from data_tables import balanced_table

from psl_core.errors import DataError
from psl_triage.data import (
    ColumnSpec,
    column_summary,
    infer_column_types,
    prepare_training_data,
)
from psl_triage.data.columns import infer_kind
from psl_triage.data.demo import HEART_META, load_demo
from psl_triage.data.session import DatasetSession
from psl_triage.training.options import DEFAULT_SETUP, SETUPS, TrainingOptions
from psl_triage.training.session import TrainingSession
from psl_triage.words import data as data_words


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


def test_a_numeric_columns_range_is_written_readably():
    df = pd.DataFrame({"bmi": [8.785763175906913, 20.5, 64.40793976728268] * 10,
                       "aa": [152512.5, 7.0, 0.00012345] * 10, "outcome": [0, 1] * 15})
    reasons = column_summary(df, infer_column_types(df)).set_index("column")["reason"]
    assert reasons["bmi"] == "numbers from 8.786 to 64.41"
    assert reasons["aa"] == "numbers from 0.0001234 to 152512"


def test_the_columns_text_says_a_categorical_may_be_asked_as_a_group_as_the_default_setup_does():
    """The Data page said "categorical (one question per category)" while the recommended setup
    (the Train page's default) also asks groupings such as "helmet_12m = sometimes or did not
    ride" (openintro/yrbss in the browser)."""
    assert SETUPS[DEFAULT_SETUP]["group_categories"]
    assert "one question per" not in data_words.COLUMNS_TEXT and "group of them" in data_words.COLUMNS_TEXT


def test_a_column_filled_for_a_few_rows_only_is_left_out_and_the_list_trains():
    # survival's cgd0 (third walk): the day of a fifth infection, filled for 2 of 128 patients,
    # stayed a question; a training fold then held none of its values and training stopped.
    rng = np.random.default_rng(0)
    n = 300
    df = pd.DataFrame({"age": rng.integers(20, 80, n), "score": rng.normal(size=n).round(2)})
    df["outcome"] = (rng.random(n) < 1 / (1 + np.exp(-(df["score"] + (df["age"] - 50) / 30)))).astype(int)
    rare = np.full(n, np.nan)
    rare[rng.choice(n, 3, replace=False)] = [1.5, 2.5, 3.5]
    df["rare"] = rare
    kind, reason = infer_kind("rare", df["rare"])
    assert kind == "ignore" and "3 of 300" in reason
    assert infer_kind("x", pd.Series([1.0, 2, 3, 4, 5, 6, 7, None]))[0] == "numeric"  # a small table keeps it
    dataset = DatasetSession(load_demo)
    dataset.read_upload("t", "cohort.csv", lambda: df.to_csv(index=False).encode(), 1 << 20)
    dataset.choose_outcome("outcome")
    dataset.refresh()
    TrainingSession().train(dataset, TrainingOptions(**SETUPS[DEFAULT_SETUP]))
