"""Every bad input raises the documented error with a message naming the problem."""

import numpy as np
import pandas as pd
import pytest

from psl_core import PAPER_SETUP, DataError, ModelFileError, ProbabilisticScoringList, PSLError
from psl_core.metrics import auc
from psl_core.survival import net_benefit, survival_outcome
from psl_core.validation import calibration_intercept, calibration_slope

X = np.array([[0.0, 1.0], [1.0, 2.0], [0.0, 3.0], [1.0, 4.0]])
Y = np.array([0, 1, 0, 1])


@pytest.mark.parametrize(
    "X_bad, y_bad, message",
    [
        (np.empty((0, 2)), np.array([]), "0 sample"),
        (np.empty((4, 0)), Y, "0 feature"),
        (X, np.zeros(4), "only one class"),
        (X, np.array([0, 1, 2, 1]), "Only binary classification"),
        (X, np.array([0, 1, 0]), "different lengths"),
        (np.array([[0.0, np.inf]] * 4), Y, "infinite"),
        (np.array([[0.0, np.nan]] * 4), Y, "column 1 holds only missing values"),
        (pd.DataFrame({"age": [None] * 4, "sex": ["f", "m", "f", "m"]}), Y, "'age' holds only missing values"),
        (np.array([1.0, 2.0, 3.0, 4.0]), Y, "Reshape your data"),
        (np.array([["a", "b"]] * 4), Y, "pass a pandas DataFrame"),
        (X, None, "requires y"),
        (X, np.array([0, 1, None, 1], dtype=object), "missing labels"),
        (X, np.array([0.1, 0.7, 2.5, 3.3]), r"continuous.*\(e\.g\. 0\.1, 0\.7, 2\.5\).*two labels"),
        (pd.DataFrame({"age": ["71", "65,5", "80", "59"]}), Y, r"column 'age' holds numbers stored as text.*'65,5'"),
        (pd.DataFrame({"age": [1.0, 2, 3, 4], 0: [0.0, 1, 0, 1]}), Y, r"column names must be strings.*0 \(int\)"),
        (X, np.column_stack([Y, Y]), r"y must be 1-D.*shape \(4, 2\)"),
        (X, [0, "1", 0, "1"], r"y mixes labels of different types \(e\.g\. 0, '1'\)"),
        (X, np.array([0, "a", 1.5, 0], dtype=object), "y mixes labels"),
        (pd.DataFrame({"z": np.array([1, 2, 3, 4]) + 1j}), Y, "column 'z' of X holds complex numbers"),
        (pd.DataFrame({"when": pd.date_range("2020-01-01", periods=4)}), Y, "column 'when' of X holds dates or times"),
        (pd.DataFrame({"for": pd.to_timedelta([1, 2, 3, 4], unit="D")}), Y, "column 'for' of X holds dates or times"),
        (pd.DataFrame([[0.0, 1.0]] * 4, columns=pd.MultiIndex.from_tuples([("a", 1), ("b", 2)])), Y,
         r"column names must be strings.*\('a', 1\) \(tuple\)"),
    ],
)
def test_bad_data(X_bad, y_bad, message):
    with pytest.raises(DataError, match=message):
        ProbabilisticScoringList().fit(X_bad, y_bad)


@pytest.mark.parametrize(
    "X_bad, message",
    [
        (np.array([[0.0, np.nan]] * 4), "missing values"),
        (pd.DataFrame({"age": [1.0, None, 2.0, 3.0]}), "'age' has missing values.*missing='learn'"),
        (pd.DataFrame({"sex": ["f", None, "m", "m"]}), "'sex' has missing values"),
    ],
)
def test_missing_values_are_refused_with_missing_error(X_bad, message):
    with pytest.raises(DataError, match=message):
        ProbabilisticScoringList(missing="error").fit(X_bad, Y)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"score_set": (0, 1, 2)}, "must not contain 0"),
        ({"score_set": (1.5, 2)}, "non-integer 1.5"),
        ({"score_set": ()}, "score_set is empty"),
        ({"score_set": (1, 1)}, "repeated"),
        ({"score_set": "abc"}, "integers"),
        ({"score_set": (10**12,)}, "score_set must hold scores from -1000 to 1000, got 1000000000000"),
        ({"score_set": (1, -1001)}, "score_set must hold scores from -1000 to 1000"),
        ({"calibration": "platt"}, "'calibration' parameter of ProbabilisticScoringList must be a str among"),
        ({"binarization": "quantiles"}, "'binarization' parameter of ProbabilisticScoringList must be a str among"),
        ({"threshold_search": "golden"}, "'threshold_search' parameter of ProbabilisticScoringList must be a str among"),
        ({"loss": "hinge"}, "'loss' parameter of ProbabilisticScoringList must be a str among"),
        ({"max_stages": -1}, "max_stages"),
        ({"max_stages": 2.5}, "max_stages"),
        ({"lookahead": 0}, "lookahead"),
        ({"calibration_size": 1.5}, "calibration_size"),
        ({"min_support": 0}, r"\'min_support\' parameter of ProbabilisticScoringList must be an int in the range \[1, inf\)\. Got 0 instead"),
        ({"min_support": 2.5}, r"\'min_support\' parameter .* must be an int in the range \[1, inf\)\. Got 2.5 instead"),
        ({"min_support": True}, "'min_support' parameter .* must be a number, not True or False"),
    ],
)
def test_bad_options_name_the_parameter(params, message):
    with pytest.raises(PSLError, match=message):
        ProbabilisticScoringList(**params).fit(X, Y)


def test_prediction_input_is_checked():
    psl = ProbabilisticScoringList(min_support=1).fit(X, Y)  # 4 rows: every threshold allowed
    with pytest.raises(DataError, match="expecting 2 features as input. Pass X with the same columns"):
        psl.predict_proba(np.zeros((2, 3)))
    with pytest.raises(DataError, match="missing values"):
        ProbabilisticScoringList(min_support=1, missing="error").fit(X, Y).predict_proba(np.array([[np.nan, 1.0]]))
    with pytest.raises(PSLError, match="stage must lie in 0..2"):
        psl.predict_proba(X, stage=5)
    with pytest.raises(PSLError, match="confidence must lie strictly between 0 and 1"):
        psl.predict_interval(X, confidence=1.0)
    frame = ProbabilisticScoringList().fit(pd.DataFrame(X, columns=["a", "b"]), Y)
    with pytest.raises(DataError, match="missing:\n- b"):
        frame.predict_proba(pd.DataFrame({"a": [1.0]}))


def test_too_small_a_class_for_the_calibration_share_is_a_data_error():
    with pytest.raises(DataError, match=r"calibration_size=0.3 cannot hold out .* set calibration_size=None"):
        ProbabilisticScoringList(calibration_size=0.3).fit(X[:3], np.array([0, 1, 1]))


def test_text_categories_and_all_positional_names_are_still_accepted():
    words = pd.DataFrame({"smoker": ["yes", "no", "no", "yes"], "code": pd.Categorical(["1", "2", "1", "2"])})
    assert ProbabilisticScoringList(min_support=1).fit(words, Y).n_stages_ >= 1
    assert ProbabilisticScoringList(min_support=1).fit(pd.DataFrame(X), Y).n_stages_ >= 1


def test_errors_are_value_errors():
    assert issubclass(DataError, ValueError) and issubclass(ModelFileError, ValueError)


def test_a_fitted_text_column_is_read_at_prediction_even_if_its_rows_look_numeric():
    """The refusal of numbers stored as text is a fit-time judgement of a column: at
    prediction, the rows of a fitted text column may all hold its numeric-looking value."""
    X = pd.DataFrame({"grade": ["none", "mild", "3", "none", "mild", "3"] * 10})
    y = np.array([0, 1, 1, 0, 0, 1] * 10)
    model = ProbabilisticScoringList(**PAPER_SETUP).fit(X, y)
    rows = X[X["grade"] == "3"]
    assert model.predict_proba(rows).shape == (len(rows), 2)


@pytest.mark.parametrize("value", ["0.1", " 5 ", True, "high"])
def test_prediction_refuses_text_in_a_numeric_column_as_fit_does(value):
    frame = pd.DataFrame({"a": [0.0, 1.0, 2.0, 3.0] * 5, "b": [1.0, 0.0, 1.0, 0.0] * 5})
    model = ProbabilisticScoringList(min_support=1).fit(frame, (frame["a"] >= 2).astype(int))
    assert model.features_[0] == "a"
    rows = frame.astype({"a": object})
    rows.loc[0, "a"] = value
    for predict in (model.predict_proba, model.predict):
        with pytest.raises(DataError, match="column 'a' of X holds text .*asks it as a number"):
            predict(rows)


def test_the_largest_score_is_the_model_files_bound():
    from psl_core.parameters import MAX_SCORE
    from psl_core.serialization import schema

    assert schema()["$defs"]["score"] == {"type": "integer", "minimum": -MAX_SCORE, "maximum": MAX_SCORE}


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: auc([0, 1, 1], [0.1, 0.2]), r"one value per case: shapes \(3,\), \(2,\)"),
        (lambda: auc([0, 1], [0.1, np.nan]), "finite score for every case"),
        (lambda: auc([0, 1], [0.1, 0.2], sample_weight=[1.0]), r"shapes \(2,\), \(2,\), \(1,\)"),
        (lambda: calibration_slope([0, 1, 1], [0.1, 0.2]), r"one probability per label: shape \(3,\)"),
        (lambda: calibration_intercept([0, 1], [0.1, np.nan]), "probabilities in"),
        (lambda: calibration_slope([0, 2], [0.1, 0.2]), "0/1 labels"),
        (lambda: survival_outcome([1, 2, 3], [1, 0]), r"time and event .* shapes \(3,\) and \(2,\)"),
    ],
)
def test_the_library_s_measures_name_what_is_wrong_with_their_input(call, message):
    with pytest.raises(DataError, match=message):
        call()


def test_net_benefit_at_the_horizon_takes_thresholds_between_0_and_1():
    y = survival_outcome([1, 2], [1, 0])
    with pytest.raises(PSLError, match="thresholds must be probabilities strictly between 0 and 1, got 1.2"):
        net_benefit(y, y, [0.2, 0.4], 1.5, 1.2)


def test_measures_take_lists_as_arrays():
    y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.3, 0.6, 0.8, 0.7, 0.2]
    assert calibration_slope(y, p) == calibration_slope(np.array(y), np.array(p))
    assert auc(y, p) == pytest.approx(6 / 9)


def test_three_classes_are_listed_as_plain_values():
    with pytest.raises(DataError, match=r"y has 3 classes \[0, 1, 2\];"):
        ProbabilisticScoringList().fit(X, np.array([0, 1, 2, 1]))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda m: m.predict_interval(X, confidence=2), r"confidence must lie strictly between 0 and 1, got 2$"),
        (lambda m: m.stagewise_totals(X, last_stage=99), r"last_stage must lie in 0\.\."),
        (lambda m: m.stage_table(columns=5), "columns must be a dict of readable names per column, got int"),
        (lambda m: m.to_json(metadata=5), r"metadata must be a dict \(name, column labels, \.\.\.\), got int"),
        (lambda m: m.to_json(metadata={"auc": float("nan")}), "metadata holds a value JSON cannot store"),
        (lambda m: m.to_json(metadata={"rows": np.arange(3)}), "metadata holds a value JSON cannot store"),
    ],
)
def test_a_fitted_list_s_methods_name_the_parameter_that_is_wrong(call, message):
    model = ProbabilisticScoringList(max_stages=2, min_support=1, cv_folds=2).fit(np.tile(X, (5, 1)), np.tile(Y, 5))
    with pytest.raises(PSLError, match=message):
        call(model)
