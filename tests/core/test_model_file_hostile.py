"""Hostile model files: whatever a file holds, reading it fails only with ModelFileError.

Mutations of a valid file (Hypothesis), deep nesting, huge numbers and the shapes that once
passed and crashed the pages later. A file that loads must also be usable: its questions,
its table and its intervals are built without error.
"""

import json

import jsonschema
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from psl_core import ModelFileError, ProbabilisticScoringList
from psl_core.binarization import BINARY, CATEGORY, NUMERIC
from psl_core.decision import StageBands
from psl_core.search import END_REASONS
from psl_core.serialization import MAX_FILE_CHARS, MAX_METADATA_VALUES, MAX_VALUES, SCHEMA_FILE, SCHEMA_VERSION, schema
from psl_triage.bedside.questions import build_questions
from psl_triage.training.tables import list_table, readable_columns
from tests.hostile_corpus import with_change
from tests.paths import ROOT


@pytest.fixture(scope="module")
def document():
    rng = np.random.default_rng(3)
    n = 300
    X = pd.DataFrame({
        "age": rng.integers(30, 80, n).astype(float),
        "smoker": rng.integers(0, 2, n),
        "pain": pd.Categorical(rng.choice(["typical", "atypical", "none"], n)),
    })
    y = ((X["age"] > 60) ^ (rng.random(n) < 0.2) | (X["pain"] == "typical")).astype(int)
    model = ProbabilisticScoringList(recommend_folds=3, min_support=5).fit(X, y)
    metadata = {
        "name": "hostile test", "version": 1,
        "dataset": {"name": "synthetic", "positive_label": "sick", "negative_label": "well"},
        "columns": {"pain": {"label": "Pain", "unit": "", "kind": "categorical",
                             "category_labels": {"typical": "typical angina"}}},
        "decision": {"cost_ratio": 10.0},
        "performance": {"train": {"brier": [0.25, 0.2]}},
    }
    return json.loads(model.to_json(metadata))


def load(text):
    """from_json, and when it loads, what the pages build from a model."""
    try:
        model = ProbabilisticScoringList.from_json(text)
    except ModelFileError:
        return None
    columns = readable_columns(model.metadata_)
    build_questions(model, columns)
    list_table(model, columns, intervals=True)
    StageBands(model, 0.95)
    return model


def test_the_valid_file_loads(document):
    assert load(json.dumps(document)) is not None


def test_the_schema_is_published_and_valid():
    published = ROOT / "docs" / SCHEMA_FILE
    assert f"model-schema-v{SCHEMA_VERSION}.json" == SCHEMA_FILE
    assert json.loads(published.read_text(encoding="utf-8")) == schema()
    jsonschema.Draft202012Validator.check_schema(schema())


def test_the_schema_names_the_library_s_kinds_and_end_reasons():
    assert schema()["$defs"]["stage"]["properties"]["kind"]["enum"] == [NUMERIC, BINARY, CATEGORY]
    assert schema()["properties"]["end_reason"]["enum"] == [*END_REASONS, None]


def test_a_saved_file_satisfies_the_schema(document):
    jsonschema.validate(document, schema())




DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda d: DEEP, "nested too deeply"),
        (lambda d: '{"a":' * 50_000 + "1" + "}" * 50_000, "nested too deeply"),
        (lambda d: with_change(d, ["calibration", 0, "positives", 0], 2**63), "outside the allowed range"),
        (lambda d: with_change(d, ["calibration", 0, "negatives", 0], "BIG").replace('"BIG"', "1" + "0" * 400), "401 digits"),
        (lambda d: with_change(d, ["stages", 0, "score"], "BIG").replace('"BIG"', "9" * 5000), "5000 digits"),
        (lambda d: json.dumps(d).replace('"criterion": [', '"criterion": [1e400, ', 1), "beyond the range"),
        (lambda d: json.dumps(d).replace('"criterion": [', '"criterion": [NaN, ', 1), "NaN is not allowed"),
        (lambda d: with_change(d, ["metadata", "dataset"], ["a", "list"]), "metadata.dataset must be"),
        (lambda d: with_change(d, ["metadata", "columns"], "a string"), "metadata.columns must be"),
        (lambda d: with_change(d, ["metadata", "columns", "pain", "category_labels"], ["x"]), "category_labels"),
        (lambda d: with_change(d, ["metadata", "name"], {"not": "text"}), "metadata.name must be text"),
        (lambda d: with_change(d, ["metadata", "deep"], [[[[["five"]]]]]), "metadata.deep"),
        (lambda d: with_change(d, ["metadata", "long"], "x" * 100_001), "too long"),
        (lambda d: with_change(d, ["classes"], ["0", 0]), "two distinct labels"),
        (lambda d: with_change(d, ["input", "feature_names"], ["age", "age", "pain"]), "repeats"),
        (lambda d: with_change(d, ["stages", 0, "feature"], 10**6), "stages\\[0\\].feature"),
        (lambda d: with_change(d, ["stages", 0, "feature"], "weight"), "unknown feature"),
        (lambda d: with_change(d, ["stop_statistics"], {"counts": [1, 2]}), "stop_statistics lacks"),
        (lambda d: "x" * (MAX_FILE_CHARS + 1), "characters"),
        (lambda d: with_change(d, ["stages", 0, "many"], [0] * (MAX_VALUES + 1)), "more than 200,000 values"),
        (lambda d: with_change(d, ["metadata", "many"], [0] * (MAX_METADATA_VALUES + 1)), "metadata holds more than 50,000"),
        (lambda d: with_change(d, ["metadata", "blob"], {f"k{i}": i for i in range(10_001)}), "metadata.blob is too long"),
        (lambda d: b"\xff\xfe{}", "not UTF-8"),
        (lambda d: with_change(d, ["metadata", "name"], "\ud800"), "U\\+D800 \\(a lone surrogate\\)"),
        (lambda d: with_change(d, ["metadata", "dataset", "\udfff"], 1), "lone surrogate"),
        (lambda d: with_change(d, ["classes", 1], "sick\ud83d"), "lone surrogate"),
        (lambda d: with_change(d, ["metadata", "columns", "pain", "label"], "\x1b[31mPain"), "U\\+001B"),
        (lambda d: with_change(d, ["metadata", "source"], "a\x00b"), "U\\+0000"),
        (lambda d: "[]", "must hold a JSON object"),
        (lambda d: "null", "must hold a JSON object"),
    ],
)
def test_a_hostile_file_is_refused_with_a_reason(document, make, words):
    with pytest.raises(ModelFileError, match=words):
        ProbabilisticScoringList.from_json(make(document))


def test_a_lists_own_stop_statistics_pass_the_schema():
    """The statistics a fit records (psl_core.stopping) are what the schema describes."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(120, 3)).astype(float)
    y = (X[:, 0] + rng.random(120) > 1).astype(int)
    model = ProbabilisticScoringList(recommend_folds=3).fit(X, y)
    assert model.stop_statistics_ is not None
    loaded = ProbabilisticScoringList.from_json(model.to_json())
    assert loaded.stop_statistics_ == model.stop_statistics_


# ------------------------------------------------------------------------- fuzzing
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


def paths(value, prefix=()):
    """Every path to a value inside a JSON document."""
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from paths(child, (*prefix, index))


@pytest.mark.slow
@settings(max_examples=400, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_files_raise_only_model_file_errors(document, data):
    copy = json.loads(json.dumps(document))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(list(paths(copy))[1:]))
        parent = copy
        for key in path[:-1]:
            parent = parent[key]
        action = data.draw(st.sampled_from(["replace", "delete", "insert"]))
        if action == "replace":
            parent[path[-1]] = data.draw(json_values)
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[data.draw(st.text(max_size=8))] = data.draw(json_values)
        else:
            parent.insert(path[-1], data.draw(json_values))
    load(json.dumps(copy))


@settings(max_examples=200)
@given(st.text(alphabet='[]{}"a:,0123456789.-e ', max_size=400))
def test_bracket_soup_raises_only_model_file_errors(text):
    load(text)


@settings(max_examples=50)
@given(st.integers(1, 200_000), st.sampled_from(["[", '{"a":', '{"metadata":']))
def test_deep_nesting_raises_only_model_file_errors(depth, opener):
    closer = "]" if opener == "[" else "}"
    with pytest.raises(ModelFileError):
        ProbabilisticScoringList.from_json(opener * depth + "1" + closer * depth)


def test_the_schema_lists_exactly_the_estimators_parameters():
    """What lets the model reader pass a file's params to set_params without its own check."""
    from psl_core.serialization import schema

    assert set(schema()["$defs"]["params"]["properties"]) == set(ProbabilisticScoringList().get_params())


@pytest.mark.parametrize(
    ("path", "value", "what"),
    [
        (["classes"], ["well", "we\u200bll"], "classes"),
        (["classes"], ["well", "w\u0435ll"], "classes"),
    ],
)
def test_look_alike_names_in_a_model_file_are_refused_naming_both(document, path, value, what):
    with pytest.raises(ModelFileError, match=f"the {what} .* look the same when shown"):
        ProbabilisticScoringList.from_json(with_change(document, path, value))


def test_look_alike_column_names_in_a_model_file_are_refused(document):
    copy = json.loads(json.dumps(document))
    copy["input"]["feature_names"] = [name if name != "smoker" else "age\u200b" for name in copy["input"]["feature_names"]]
    for stage in copy["stages"]:
        stage["feature"] = "age\u200b" if stage["feature"] == "smoker" else stage["feature"]
    with pytest.raises(ModelFileError, match="column names 'age' and 'age\\\\u200b' look the same"):
        ProbabilisticScoringList.from_json(json.dumps(copy))


def test_probabilities_that_contradict_their_counts_are_refused(document):
    copy = json.loads(json.dumps(document))
    last = copy["calibration"][-1]
    last["probabilities"] = [0.999] * len(last["totals"])
    with pytest.raises(ModelFileError, match=r"probabilities \(mean 0\.999\) contradict its counts"):
        ProbabilisticScoringList.from_json(json.dumps(copy))
    first = copy["calibration"][0]
    first["positives"], first["negatives"], first["probabilities"] = [0], [1000], [0.999]
    with pytest.raises(ModelFileError, match=r"calibration of stage 0 .*\(0 positive of 1000"):
        ProbabilisticScoringList.from_json(json.dumps(copy))


@pytest.mark.parametrize("options", [{}, {"calibration": "beta"}, {"calibration_size": 0.3}, {"prior_strength": 5.0},
                                     {"recommend_folds": 3}, {"calibration": "beta", "prior_strength": 2.0}])
def test_fitted_lists_probabilities_agree_with_their_counts(options):
    rng = np.random.default_rng(1)
    for n in (80, 400):
        X = pd.DataFrame(rng.normal(size=(n, 3)), columns=list("abc"))
        y = (X["a"] + rng.normal(size=n) > 0.5).astype(int)
        model = ProbabilisticScoringList(min_support=5, **options).fit(X, y)
        ProbabilisticScoringList.from_json(model.to_json())
