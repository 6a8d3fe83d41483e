"""The check that the loaded table is the one the current list was trained on."""

from __future__ import annotations

from dataclasses import replace

import pytest

from psl_triage.data.list_data import REASONS, data_mismatch, list_table_mismatch
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions
from psl_triage.words import md
from psl_triage.words.lists import not_this_table
from tests.tables import follow_up_study


@pytest.fixture(scope="module")
def study():
    """The follow-up table prepared with and without its follow-up time."""
    return follow_up_study()[1:]


@pytest.fixture(scope="module")
def demo_list(demo_prepared):
    return train_list(demo_prepared, "heart.csv", TrainingOptions(max_stages=2))


def test_the_list_s_own_table_matches(demo_list, demo_prepared, study):
    assert data_mismatch(*demo_list, demo_prepared) is None
    horizon_list = train_list(study[0], "study.csv", TrainingOptions(max_stages=2))
    assert data_mismatch(*horizon_list, study[0]) is None


def test_a_horizon_list_on_a_table_without_follow_up(study):
    horizon_list = train_list(study[0], "study.csv", TrainingOptions(max_stages=2))
    assert data_mismatch(*horizon_list, study[1]) == "follow_up"


def test_a_yes_no_list_on_follow_up_data_or_another_table(demo_list, study):
    assert data_mismatch(*demo_list, study[0]) == "no_follow_up"
    assert data_mismatch(*demo_list, study[1]) == "outcome"  # heart disease against recurrence


def test_another_positive_class_or_missing_columns(demo_list, demo_prepared):
    model, metadata = demo_list
    other = dict(metadata)
    other["dataset"] = dict(other["dataset"], positive_class=["something else"])
    assert data_mismatch(model, other, demo_prepared) == "outcome"
    fewer = demo_prepared.X.drop(columns=[model.features_[0]])
    assert data_mismatch(model, metadata, type(demo_prepared)(**{**vars(demo_prepared), "X": fewer})) == "columns"


@pytest.mark.parametrize(("recorded", "loaded", "same"), [
    ([1], (1.0,), True), ([1.0], (1,), True), (["1"], (1,), True), ([1, 2], (2.0, 1.0), True),
    ([1], (2,), False), (["yes"], ("Yes",), False), ([1], ("1 ",), True), ([True], (1,), True),
])
def test_a_positive_class_is_the_same_whether_written_as_1_or_1_0(demo_list, demo_prepared, recorded, loaded, same):
    """A model file's JSON writes 1.0 as 1.0 and a table may read the same value as 1: one
    value, as the data package reads a table (1, 1.0, True and "1" name one class); texts stay
    texts."""
    model, metadata = demo_list
    recorded_as = dict(metadata, dataset=dict(metadata["dataset"], positive_class=recorded))
    table = type(demo_prepared)(**{**vars(demo_prepared), "positive_class": loaded})
    assert data_mismatch(model, recorded_as, table) == (None if same else "outcome")


def test_the_sentence_names_both_tables_escaped_and_says_what_to_do():
    for reason in REASONS:
        text = not_this_table(reason, "heart_*v1*.csv", "pbc [2].csv")
        assert md("heart_*v1*.csv") in text and md("pbc [2].csv") in text and "*v1*" not in text
        assert "Data page" in text and "Train page" in text and "psl_" not in text


def test_the_list_s_measures_belong_only_to_the_rows_it_learned_from(demo_list, demo_prepared):
    """The same columns with other rows are another table's for the list's own measures; a
    list saved before lists recorded a fingerprint is judged by its columns alone."""
    model, metadata = demo_list
    assert metadata["dataset"]["fingerprint"] == demo_prepared.fingerprint
    copy = replace(demo_prepared)  # the same rows prepared again: another object, one fingerprint
    assert copy is not demo_prepared and list_table_mismatch(model, metadata, copy) is None
    half = replace(demo_prepared, X=demo_prepared.X.iloc[::2], y=demo_prepared.y[::2])
    assert data_mismatch(model, metadata, half) is None and list_table_mismatch(model, metadata, half) == "data"
    old = dict(metadata, dataset={k: v for k, v in metadata["dataset"].items() if k != "fingerprint"})
    assert list_table_mismatch(model, old, half) is None
