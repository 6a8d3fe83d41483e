"""A model file is checked for meaning, not only for shape (issue 40, item 1): whole numbers
written as decimals, a column asked two ways, an empty or repeated grouping, constraints the
list breaks, and stop statistics that disagree with the stages' own counts are refused with
a reason; every list a fit makes still loads."""

import json
import time

import jsonschema
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from psl_core import ModelFileError, ProbabilisticScoringList
from psl_core.serialization import check_schema, schema
from psl_core.validation import recalibrate
from tests.hostile_corpus import meaning_document, meaningless_files, with_change


def schema_validator():
    """The published schema's validator, with a whole number written as one (as the reader)."""
    kind = jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda checker, value: isinstance(value, int) and not isinstance(value, bool)))
    return kind(schema())


@pytest.fixture(scope="module")
def document():
    return meaning_document()


@pytest.mark.parametrize("name", list(meaningless_files(meaning_document())))
def test_a_file_that_means_nothing_sound_is_refused_with_its_reason(document, name):
    text, reason = meaningless_files(document)[name]
    with pytest.raises(ModelFileError, match=reason):
        ProbabilisticScoringList.from_json(text)


def test_the_untouched_file_loads(document):
    ProbabilisticScoringList.from_json(json.dumps(document))


def _table(n, seed):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "age": rng.integers(30, 80, n).astype(float),
        "smoker": rng.integers(0, 2, n).astype(float),
        "pain": pd.Categorical(rng.choice(["typical", "atypical", "none"], n)),
    })
    y = ((X["age"] > 60) ^ (rng.random(n) < 0.2) | (X["pain"] == "typical")).astype(int)
    return X, y


@pytest.mark.parametrize("options", [{}, {"calibration_size": 0.3}, {"recommend_folds": 3},
                                     {"required": ["smoker"]}, {"monotone": {"age": "increasing"}},
                                     {"forbidden": ["pain"], "max_feature_uses": 2}])
@pytest.mark.parametrize("n", [60, 400])
def test_every_fitted_list_loads_again(options, n):
    X, y = _table(n, n)
    model = ProbabilisticScoringList(min_support=5, **options).fit(X, y)
    ProbabilisticScoringList.from_json(model.to_json())


def test_a_weighted_and_a_recalibrated_list_load_again():
    X, y = _table(400, 1)
    weight = np.random.default_rng(2).uniform(0.2, 3.0, len(y))
    model = ProbabilisticScoringList(min_support=5).fit(X, y, sample_weight=weight)
    ProbabilisticScoringList.from_json(model.to_json())
    other, y_other = _table(300, 7)
    other.loc[other.index[::3], "age"] = np.nan  # answers missing at another site
    ProbabilisticScoringList.from_json(recalibrate(model, other, y_other, min_rows=10).to_json())


free_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**301), 10**301) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5) | st.sampled_from(["__x", "py/x", "!!x", "x" * 100_001]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(
        st.text(max_size=4) | st.sampled_from(["__k", "py/k", "!!k", "k" * 1001]), children, max_size=3),
    max_leaves=10,
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entry=st.sampled_from(["blob", "dataset", "performance", "training_options", "decision"]), value=free_values)
def test_the_quick_walk_of_the_description_refuses_what_the_schema_refuses(document, entry, value):
    """The description's free entries are checked by a plain walk before the schema's validator
    (2.5 s a megabyte otherwise): a file is valid exactly when the validator alone says so."""
    data = json.loads(with_change(document, ["metadata", entry], value))
    alone = next(schema_validator().iter_errors(data), None) is None
    try:
        check_schema(data)
        walked = True
    except ModelFileError:
        walked = False
    assert walked == alone, (entry, value)


def test_a_large_description_is_checked_quickly(document):
    data = json.loads(json.dumps(document))
    data["metadata"]["blob"] = {f"k{i}": [f"value number {j} of {i}" for j in range(5)] for i in range(7000)}
    started = time.perf_counter()
    check_schema(data)
    assert time.perf_counter() - started < 1.0  # 2.5 s with the validator walking every value
