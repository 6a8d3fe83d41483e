"""The rows a list is judged on (psl_triage.training.held_out): its own test rows or a fresh split."""

import pandas as pd
import pytest
from sklearn.base import clone

from psl_core import ProbabilisticScoringList
from psl_triage.training.fit import split_rows, train_list
from psl_triage.training.held_out import held_out_rows
from psl_triage.training.options import TrainingOptions


def test_held_out_rows_recover_the_train_pages_split(demo_prepared):
    model, metadata = train_list(demo_prepared, "demo", TrainingOptions(max_stages=3, seed=7))
    held = held_out_rows(model, metadata, demo_prepared.X, demo_prepared.y)
    X_train, X_test, _, y_test = split_rows(demo_prepared.X, demo_prepared.y, 1 / 3, 7)
    assert held.model is model and not held.refitted
    pd.testing.assert_index_equal(held.X_test.index, X_test.index)
    pd.testing.assert_index_equal(held.X_train.index, X_train.index)
    assert held.y_test == pytest.approx(y_test)
    assert "held out" in held.description


@pytest.mark.parametrize(
    "metadata", [{}, {"source": "trained", "training_options": {"test_fraction": 0.0, "seed": 0}}]
)
def test_held_out_rows_refit_when_the_split_is_unknown(demo_prepared, metadata):
    model = ProbabilisticScoringList(max_stages=3).fit(demo_prepared.X, demo_prepared.y)
    held = held_out_rows(model, metadata, demo_prepared.X, demo_prepared.y, seed=2)
    assert held.refitted and held.model is not model
    assert held.model.get_params() == clone(model).get_params()
    assert len(held.y_test) == 99 and len(held.y_train) == 198
    assert set(held.X_train.index).isdisjoint(held.X_test.index)
    assert "never saw" in held.description
