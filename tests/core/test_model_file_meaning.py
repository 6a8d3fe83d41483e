"""A model file is checked for meaning, not only for shape (issue 40, item 1): whole numbers
written as decimals, a column asked two ways, an empty or repeated grouping, constraints the
list breaks, and stop statistics that disagree with the stages' own counts are refused with
a reason; every list a fit makes still loads."""

import json

import numpy as np
import pandas as pd
import pytest

from psl_core import ModelFileError, ProbabilisticScoringList
from psl_core.validation import recalibrate
from tests.hostile_corpus import meaning_document, meaningless_files


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
