"""The rows a list is judged on (psl_triage.training.held_out): its own test rows, recorded once
by the fit, or a fresh split."""

import dataclasses
import re

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from psl_core import ProbabilisticScoringList
from psl_triage.model_file.metadata import HeldOutRecord, ModelMetadata
from psl_triage.training.fit import split_rows, train_list
from psl_triage.training.held_out import held_out_rows, recorded_split
from psl_triage.training.options import TrainingOptions
from tests.paths import ROOT


@pytest.fixture(scope="module")
def demo_list(demo_prepared):
    return train_list(demo_prepared, "demo", TrainingOptions(max_stages=3, seed=7))


def test_held_out_rows_are_the_ones_the_fit_recorded(demo_prepared, demo_list):
    model, metadata = demo_list
    X_train, X_test, _, _ = split_rows(demo_prepared.X, demo_prepared.y, 1 / 3, 7)
    positions = demo_prepared.X.index.get_indexer(X_test.index)
    assert ModelMetadata.from_dict(metadata).held_out == HeldOutRecord.of_rows(positions, len(demo_prepared.y))
    held = held_out_rows(model, metadata, demo_prepared)
    assert held.model is model and not held.refitted
    pd.testing.assert_index_equal(held.X_test.index, X_test.index.sort_values())
    pd.testing.assert_index_equal(held.X_train.index, X_train.index.sort_values())
    assert held.y_test == pytest.approx(demo_prepared.y[np.sort(positions)])
    assert "held out" in held.description


def test_a_file_saved_before_the_record_finds_the_same_rows_from_its_seed(demo_prepared, demo_list):
    model, metadata = demo_list
    old = {key: value for key, value in metadata.items() if key != "held_out"}
    recorded, rebuilt = recorded_split(model, metadata, demo_prepared), recorded_split(model, old, demo_prepared)
    assert [list(part) for part in rebuilt] == [list(part) for part in recorded]
    # A rebuilt split that does not hold out the recorded number of rows is not the list's.
    other = {**old, "training_options": {**old["training_options"], "n_test": 98}}
    assert recorded_split(model, other, demo_prepared) is None


def test_a_record_of_another_table_is_not_read(demo_prepared, demo_list):
    model, metadata = demo_list
    typed = ModelMetadata.from_dict(metadata)
    shorter = dataclasses.replace(typed, held_out=HeldOutRecord.of_rows([0, 1], len(demo_prepared.y) - 1))
    assert recorded_split(model, shorter, demo_prepared) is None
    garbled = dataclasses.replace(typed, held_out=HeldOutRecord(n_rows=len(demo_prepared.y), test_rows="not base64!"))
    assert recorded_split(model, garbled, demo_prepared) is None
    recalibrated = dataclasses.replace(typed, source="recalibrated")
    assert recorded_split(model, recalibrated, demo_prepared) is None


def test_the_record_round_trips():
    record = HeldOutRecord.of_rows([0, 3, 9, 10], 11)
    assert list(HeldOutRecord.from_dict(record.to_dict()).test_positions()) == [0, 3, 9, 10]
    assert HeldOutRecord(n_rows=20, test_rows=record.test_rows).test_positions() is None  # another length


@pytest.mark.parametrize(
    "metadata", [{}, {"source": "trained", "training_options": {"test_fraction": 0.0, "seed": 0}}]
)
def test_held_out_rows_refit_when_the_split_is_unknown(demo_prepared, metadata):
    model = ProbabilisticScoringList(max_stages=3).fit(demo_prepared.X, demo_prepared.y)
    held = held_out_rows(model, metadata, demo_prepared, seed=2)
    assert held.refitted and held.model is not model
    assert held.model.get_params() == clone(model).get_params()
    assert len(held.y_test) == 99 and len(held.y_train) == 198
    assert set(held.X_train.index).isdisjoint(held.X_test.index)
    assert "never saw" in held.description


def test_one_place_finds_a_lists_own_rows():
    """Only the fit splits the rows by a seed and only recorded_split reads what it recorded: a
    page that rebuilt the split itself would be a second home with its own checks."""
    homes = {ROOT / "psl_triage" / "training" / "fit.py", ROOT / "psl_triage" / "training" / "held_out.py"}
    reads = re.compile(r"split_rows\(|(?<!training)\.held_out\b|test_positions\(|\.get\(\s*[\"']seed[\"']")
    found = [f"{path.relative_to(ROOT)}:{number}"
             for folder in ("psl_triage", "ui", "pages") for path in sorted((ROOT / folder).rglob("*.py"))
             if path not in homes and "model_file" not in path.parts
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if reads.search(line)]
    assert found == []
