"""Tests of psl_triage.training.too_good: the "too good to be true" stop after training."""

from __future__ import annotations

import numpy as np
import pytest

from psl_triage.data import infer_column_types, prepare_training_data
from psl_triage.data.demo import load_demo
from psl_triage.model_file.files import read_model_upload
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions
from psl_triage.training.too_good import recorded_warning, too_good_to_be_true


def metadata(brier, auc, data="test"):
    return {"performance": {data: {"brier": brier, "auc": auc}}}


def test_an_implausible_auc_names_the_question_with_the_gain():
    warning = too_good_to_be_true(metadata([0.25, 0.05, 0.04], [0.5, 0.985, 0.99]), ["ct", "age"])
    assert warning.questions == ("ct",) and warning.data == "test"
    assert any("AUC on the held-out rows reaches 0.990" in reason for reason in warning.reasons)


def test_a_brier_score_below_a_tenth_of_the_base_rates_is_implausible():
    warning = too_good_to_be_true(metadata([0.25, 0.12, 0.02], [0.5, 0.9, 0.95]), ["age", "ct"])
    assert any("below a tenth" in reason for reason in warning.reasons)
    assert warning.questions == ("age", "ct")  # the first carries 57 %, not the 80 % named


def test_one_question_with_almost_all_of_a_large_gain_is_suspicious():
    warning = too_good_to_be_true(metadata([0.25, 0.11, 0.105, 0.104], [0.5, 0.9, 0.91, 0.91]), ["a", "b", "c"])
    assert warning.questions == ("a",) and "carries 96 %" in warning.reasons[0]


@pytest.mark.parametrize(
    "brier, auc",
    [([0.249, 0.2, 0.15, 0.108], [0.5, 0.8, 0.88, 0.917]),  # the demo's shape: spread over questions
     ([0.24, 0.23, 0.235], [0.5, 0.6, 0.62])],  # one question, little gain
)
def test_plausible_lists_pass(brier, auc):
    assert too_good_to_be_true(metadata(brier, auc), ["a", "b", "c"][: len(brier) - 1]) is None


def test_malformed_or_missing_performance_is_no_warning():
    assert too_good_to_be_true({}, []) is None
    assert too_good_to_be_true(metadata(["x", 1], [0.5, 0.6]), ["a"]) is None
    assert recorded_warning({"too_good_warning": {"reasons": "x"}}) is None


def test_a_planted_leak_in_the_demo_is_stopped_and_recorded():
    df, meta = load_demo()
    df = df.assign(echo_result=np.where(df[meta.outcome] == meta.positive_class, 0.9, 0.1))
    types = infer_column_types(df, meta.columns)
    prepared = prepare_training_data(df, types, meta.outcome, [meta.positive_class], "drop", meta.columns)
    model, trained = train_list(prepared, "demo", TrainingOptions(max_stages=3))
    warning = too_good_to_be_true(trained, model.features_)
    assert warning is not None and warning.questions == ("echo_result",)
    assert trained["too_good_warning"] == warning.record()  # train_list records it
    loaded = read_model_upload(model.to_json(trained).encode(), "list.json")
    assert recorded_warning(loaded.metadata_) == warning
