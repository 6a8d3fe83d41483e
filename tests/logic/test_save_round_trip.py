"""Every file the app writes loads again: each way of saving a list, over random tables.

The app saves a list in these ways: the Train page saves (or downloads) a trained list, with
either named setup, with question costs and groups, capped to a few questions, or with no
question at all; the Validate page recalibrates a list at another site, keeping any number
of its questions, and saves that; a recalibrated list used in the session, or a loaded file,
is saved again from the Train page. Each file must load back to the same list, be listed by
the store without a note, and give the same probabilities and intervals.
"""

import json

import numpy as np
import pandas as pd
import pytest

from psl_core.validation import recalibratable_stages
from psl_triage.data import infer_column_types, prepare_training_data
from psl_triage.judging.validation import match_columns, needed_columns, save_recalibrated, site_table
from psl_triage.model_file.store import list_models, load_model, save_model
from psl_triage.training.fit import train_list
from psl_triage.training.options import SETUPS, TrainingOptions


def random_frame(seed, n=None):
    """A study table with numeric, binary and category columns and a 0/1 outcome."""
    rng = np.random.default_rng(seed)
    n = n or int(rng.integers(80, 240))
    frame = pd.DataFrame({
        "age": rng.integers(20, 90, n).astype(float),
        "marker": np.round(rng.lognormal(size=n), 2),
        "smoker": rng.choice(["yes", "no"], n),
        "ward": rng.choice(["north", "south", "east"], n),
    })
    logit = (frame["age"] - 55) / 15 + np.log(frame["marker"]) + (frame["smoker"] == "yes") - 0.5
    frame["outcome"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    frame.loc[:1, "outcome"] = [0, 1]
    return frame


def trained(seed, **options):
    frame = random_frame(seed)
    features = frame.drop(columns="outcome")
    prepared = prepare_training_data(frame, infer_column_types(features), "outcome", 1)
    return train_list(prepared, f"random table {seed}", TrainingOptions(**options))


def assert_reopens(model, stored):
    """The stored file loads, is listed without a note and is the same list."""
    loaded = load_model(stored.path)
    listed, problems = list_models(stored.path.parent)
    assert stored.path in [entry.path for entry in listed] and not problems
    document = json.loads(stored.path.read_text())
    assert json.loads(loaded.to_json()) == document
    for k in range(model.n_stages_):
        for got, expected in zip(loaded.stage_interval(k), model.stage_interval(k)):
            np.testing.assert_array_equal(got, expected)
    return loaded


COSTS = {"question_costs": {"age": 1.0, "marker": 5.0, "smoker": 0.5, "ward": 0.5},
         "cost_groups": {"marker": "blood draw"}, "cost_weight": 0.05, "cost_unit": "minutes"}
TRAINING = [
    pytest.param(SETUPS["recommended"], id="recommended"),
    pytest.param(SETUPS["paper"], id="paper"),
    pytest.param(dict(SETUPS["recommended"], **COSTS), id="costs"),
    pytest.param(dict(SETUPS["paper"], max_stages=1, test_fraction=0.0), id="one-question"),
    pytest.param(dict(SETUPS["recommended"], min_support=10_000), id="no-question"),
]


@pytest.mark.parametrize("options", TRAINING)
@pytest.mark.parametrize("seed", range(3))
def test_a_trained_list_saved_from_train_reopens(seed, options, tmp_path):
    model, metadata = trained(seed, **options)
    if options.get("min_support") == 10_000:
        assert model.literals_ == []  # the question-less list the issue names
    stored = save_model(model, "Trained list", metadata, tmp_path)
    loaded = assert_reopens(model, stored)
    again = save_model(loaded, "Trained list", loaded.metadata_, tmp_path)  # a loaded file saved again
    assert again.version == 2
    assert_reopens(loaded, again)


@pytest.mark.parametrize("options", TRAINING[:3])
@pytest.mark.parametrize("seed", range(3))
def test_a_list_recalibrated_at_another_site_reopens_at_every_length(seed, options, tmp_path):
    model, metadata = trained(seed, **options)
    site = random_frame(seed + 100, n=400)
    site.loc[site.index % 7 == 0, "marker"] = np.nan  # missing answers at the new site
    table = site_table(model, metadata, site, match_columns(needed_columns(model, metadata), site.columns),
                       "outcome", [1])
    for keep in range(recalibratable_stages(model, table.X, table.y) + 1):
        new, meta, stored = save_recalibrated(model, metadata, table, "site.csv", keep, "Recalibrated", tmp_path)
        assert len(new.literals_) == keep
        loaded = assert_reopens(new, stored)
        # Its probabilities recomputed on load from the site's counts and the list it came from.
        assert loaded.probabilities_checked_ and len(loaded.stage_prior_probabilities_) == keep + 1
        # "Use the recalibrated list in this session", then save it from the Train page
        resaved = save_model(loaded, "Recalibrated", meta, tmp_path)
        assert_reopens(loaded, resaved)
