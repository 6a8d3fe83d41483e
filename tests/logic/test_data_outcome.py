"""Tests of psl_triage.data.outcome: the outcome guessed and why, its positive class and class
names, and columns that copy it."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from psl_core.errors import DataError
from psl_triage.data import (
    ColumnSpec,
    count_classes,
    default_class_names,
    explain_outcome_guess,
    guess_outcome,
    guess_positive_class,
    infer_column_types,
    leak_reason,
    outcome_classes,
    prepare_training_data,
    value_label,
)
from psl_triage.data.demo import load_demo
from psl_triage.data.roles import propose_roles
from psl_triage.data.values import value_labels


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


def test_outcome_guess_passes_over_an_outcome_too_rare_to_learn_and_says_so():
    rng = np.random.default_rng(4)
    n = 300
    df = pd.DataFrame({
        "age": rng.integers(20, 45, n),
        "died": ["Yes"] * 2 + ["No"] * (n - 2),
        "birth_outcome": rng.choice(["Live birth", "Stillbirth"], n, p=[0.8, 0.2]),
        "preterm": rng.choice(["Yes", "No"], n),
    })
    df["preterm"] = np.where(df["age"] < 28, "Yes", df["preterm"])  # related to age, as an outcome is
    types = infer_column_types(df)
    assert guess_outcome(df, types) == "birth_outcome"
    reason = explain_outcome_guess(df, types)
    assert "'died' was passed over: only 2 rows are 'Yes'" in reason and "at least 10" in reason
    rare = df.assign(birth_outcome="Live birth", twins=["Yes"] * 3 + ["No"] * (n - 3))
    rare.loc[:4, "birth_outcome"] = "Stillbirth"
    # Every column named like an outcome is too rare: the first is shown (the page says why),
    # not 'preterm', which only its place as the last two-valued column recommends.
    assert guess_outcome(rare, infer_column_types(rare)) == "died"
    unnamed = rare.drop(columns=["died", "birth_outcome"])
    assert guess_outcome(unnamed, infer_column_types(unnamed)) == "preterm"  # the last binary a list can learn
    alone = df[["age", "died"]]
    assert guess_outcome(alone, infer_column_types(alone)) == "died"  # no other candidate: shown, refused


def test_a_status_of_something_is_a_finding_not_the_outcome():
    """openintro smoking (a new user's walk): "marital_status" (5 values) was proposed as the
    outcome over the Yes/No column "smoke", for the word "status". As for the leak guard
    (psl_triage.data.roles), "status" names an outcome only alone or with a survival word."""
    rng = np.random.default_rng(0)
    n = 200
    df = pd.DataFrame({
        "gender": rng.choice(["Male", "Female"], n),
        "marital_status": rng.choice(["Married", "Single", "Divorced", "Widowed", "Separated"], n),
        "age": rng.integers(18, 90, n),
        "smoke": rng.choice(["Yes", "No"], n, p=[0.25, 0.75]),
        "amt_weekends": rng.integers(0, 40, n),
    })
    df.loc[df["smoke"] == "No", "amt_weekends"] = 0  # as in the survey: none smoked by non-smokers
    assert guess_outcome(df, infer_column_types(df)) == "smoke"
    for outcome_name in ("status", "os_status", "vital_status", "death_status"):
        named = df.assign(**{outcome_name: rng.choice([0, 1], n)})
        assert guess_outcome(named, infer_column_types(named)) == outcome_name
    smoking = df.drop(columns="smoke").assign(smoking_status=rng.choice(["Yes", "No"], n), died=rng.choice([0, 1], n))
    assert guess_outcome(smoking, infer_column_types(smoking)) == "died"
    twice = df.drop(columns="smoke").assign(marital_status_event=rng.choice([0, 1], n), smoke=df["smoke"])
    assert guess_outcome(twice, infer_column_types(twice)) == "smoke"


def test_a_flag_unrelated_to_every_other_column_is_not_guessed_the_outcome():
    """nwtco's in.subcohort (a sampling flag), bmt's z10 (a randomised treatment), a view of a
    design: the last two-valued column nothing names, related to no other column, was guessed
    the outcome. Unsure, the page asks; a related two-valued column before it is proposed."""
    rng = np.random.default_rng(7)
    n = 400
    age = rng.integers(20, 90, n)
    df = pd.DataFrame({
        "age": age, "stage": rng.integers(1, 5, n),
        "relapse_flag": (rng.random(n) < 0.1 + 0.5 * (age > 60)).astype(int),
        "in.subcohort": rng.random(n) < 0.2,
    })
    assert guess_outcome(df, infer_column_types(df)) == "relapse_flag"
    unsure = df.drop(columns="relapse_flag")
    assert guess_outcome(unsure, infer_column_types(unsure)) is None


def test_value_labels_equal_the_label_of_each_value():
    """Labelled once per distinct value, the same labels as value_label row by row; missing stays missing."""
    series = pd.Series([1, 1.0, True, " yes ", None, np.nan, 2.5, "1", 0, False, "yes"] * 3, dtype=object)
    labelled = value_labels(series)
    expected = series.map(value_label, na_action="ignore")
    assert labelled.isna().equals(expected.isna())
    assert (labelled[expected.notna()] == expected[expected.notna()]).all()
    assert value_labels(pd.Series([3.0, np.nan, 3.0])).tolist()[::2] == ["3", "3"]
