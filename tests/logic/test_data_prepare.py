"""Tests of psl_triage.data.missing and .prepare: what each missing-value handling does and the
training data prepared from the user's choices (properties over random tables included)."""

from __future__ import annotations

import string

import numpy as np
import pandas as pd
import pytest
from data_tables import balanced_table
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from psl_core import ProbabilisticScoringList, PSLError
from psl_core.errors import DataError
from psl_triage.data import (
    DEFAULT_MISSING_HANDLING,
    KINDS,
    MIN_ROWS_PER_CLASS,
    MISSING_HANDLINGS,
    MOSTLY_EMPTY_SHARE,
    ColumnSpec,
    PreparedData,
    column_summary,
    describe_missing_handling,
    guess_outcome,
    guess_positive_class,
    infer_column_types,
    load_table,
    missing_report,
    outcome_classes,
    prepare_training_data,
)


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


def test_the_planned_drop_counts_the_rows_the_result_drops():
    """openintro/yrbss (outcome gender): the plan said 5,243 rows would be dropped, the result
    5,231, for the plan counted the 12 rows without an outcome among them. Now the plan counts
    what the result counts and says the rows without an outcome apart."""
    df = pd.DataFrame({"y": [0, 1, None, 1, 0, None, 1, 0] * 5,
                       "x": [1.0, None, None, 3.0, 2.0, 4.0, 6.0, 5.0] * 5})
    types = {"y": "binary", "x": "numeric"}
    planned = describe_missing_handling(df, types, "y", "drop")
    prepared = prepare_training_data(df, types, "y", 1, "drop")
    assert planned == ("5 rows (12.5 %) have a missing value and will be dropped; 25 of 40 rows remain. "
                       "10 rows without an outcome will be dropped.")
    assert "Dropped 5 rows (12.5 %) with a missing value." in prepared.notes
    assert "Dropped 10 rows without a value for the outcome 'y'." in prepared.notes
    assert prepared.n_rows_after == 25
    complete = df.assign(x=1.0 + np.arange(40))
    assert describe_missing_handling(complete, types, "y", "drop") == (
        "No missing values in the columns in use; 30 of 40 rows are kept. 10 rows without an outcome will be dropped.")


def test_missing_values_of_many_columns_are_summarised_largest_first():
    n = 40
    df = pd.DataFrame({"y": [0, 1] * (n // 2)})
    for column in range(150):
        df[f"lab{column}"] = [None] * (1 + column % 7) + [1.0] * (n - 1 - column % 7)
    types = {"y": "binary", **{name: "numeric" for name in df.columns[1:]}}
    for handling in ("learn", "impute"):
        sentence = describe_missing_handling(df, types, "y", handling)
        assert sentence.count("'lab") == 3 and "7 missing values in 'lab6'" in sentence
        assert "and 147 more columns (the table above lists them all)" in sentence


def test_every_table_starts_by_learning_where_missing_answers_go():
    assert DEFAULT_MISSING_HANDLING == "learn" and DEFAULT_MISSING_HANDLING in MISSING_HANDLINGS


def test_learning_keeps_missing_values_and_every_row_for_the_learner(demo, demo_types):
    df, _ = demo
    prepared = prepare_training_data(df, demo_types, "heart_disease", [1], "learn")
    assert prepared.n_rows_after == 303
    assert int(prepared.X["ca"].isna().sum()) == 4 and int(prepared.X["thal"].isna().sum()) == 2
    assert prepared.columns["ca"].fill_value is None
    assert not any("Filled in" in note or "Dropped" in note for note in prepared.notes)
    assert set(prepared.X["thal"].cat.categories) == set(prepared.X["thal"].dropna().unique())


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
    prepared = prepare_training_data(df, types, outcome, positive, DEFAULT_MISSING_HANDLING)
    assert prepared.n_rows_after == 40 and list(prepared.X.columns) == ["Âge", "Sexe", "Tabac"]
    assert np.isnan(prepared.X["Âge"].iloc[3])  # "?" kept missing, for the learner
    assert prepared.columns["Tabac"].category_labels == {"1": "oui", "0": "non"}


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


@pytest.mark.slow
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
