"""Follow-up data's class counts are the counts at the horizon, everywhere they are said."""

from __future__ import annotations

import numpy as np
import pytest

from psl_triage.data import infer_column_types, prepare_training_data
from psl_triage.data.follow_up import FollowUp, event_time, horizon_text
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.model_file.writer import model_metadata
from psl_triage.words import data as data_words
from psl_triage.words import report as report_words
from psl_triage.words import train as train_words
from tests.tables import follow_up_table

HORIZON = 1000.0


def test_counts_at_the_horizon_in_every_sentence_and_the_metadata():
    frame = follow_up_table(seed=1)
    types = {**infer_column_types(frame), "pid": "ignore"}
    prepared = prepare_training_data(frame, types, "status", [1], "learn", follow_up=FollowUp("rfstime", HORIZON, "days"))
    counts = prepared.horizon_counts
    assert counts["events"] + counts["beyond"] + counts["censored"] == prepared.n_rows_after
    assert counts["censored"] > 0 and counts["events"] < int(prepared.y.sum())  # events after the horizon exist
    assert (prepared.n_positive, prepared.n_negative, prepared.n_censored) == (
        counts["events"], counts["beyond"], counts["censored"])
    note = horizon_text(*event_time(frame, "rfstime", "status", [1]), HORIZON, "days")
    assert f"{counts['events']} had the event" in note and f"{counts['beyond']} patients were followed beyond" in note
    for sentence in (data_words.ready(prepared), train_words.data_summary("study.csv", prepared)):
        assert f"{counts['events']} rows with" in sentence
        assert f"{counts['beyond']} with" in sentence
        assert f"{counts['censored']} censored before the horizon" in sentence
    dataset = model_metadata(prepared, "study.csv").dataset
    assert (dataset.n_positive, dataset.n_negative, dataset.n_censored) == (
        counts["events"], counts["beyond"], counts["censored"])
    text = report_words.participants(dataset)
    assert f"{counts['events']} with the outcome" in text and f"{counts['censored']} censored before it" in text


def test_a_yes_no_outcome_keeps_its_counts():
    frame = follow_up_table(seed=1)
    types = {**infer_column_types(frame), "pid": "ignore", "rfstime": "ignore"}
    prepared = prepare_training_data(frame, types, "status", [1], "learn")
    assert prepared.horizon_counts is None and prepared.n_censored == 0
    assert prepared.n_positive == int(prepared.y.sum())
    assert "censored" not in data_words.ready(prepared)
    assert "n_censored" not in model_metadata(prepared, "study.csv").to_dict()["dataset"]


def test_the_users_class_names_keep_the_horizon_everywhere():
    """The Data page invites naming the classes; a follow-up list named "recurrence" / "no
    recurrence" still says its horizon: in its names, the Ready sentence, the card and the
    metadata of a list saved before its names carried it."""
    from psl_triage.words import report as report_words

    frame = follow_up_table(seed=1)
    types = {**infer_column_types(frame), "pid": "ignore"}
    follow_up = FollowUp("rfstime", HORIZON, "days")
    for names, negative in ((("recurrence", "no recurrence"), "no recurrence"), (("recurrence", " "), "no recurrence"),
                            (("recurrence", "status = 0"), "no recurrence"),  # the negative left at its yes/no default
                            (None, "no event")):
        prepared = prepare_training_data(frame, types, "status", [1], "learn", follow_up=follow_up, class_names=names)
        assert prepared.negative_label == f"{negative} within 1000 days"
        assert prepared.positive_label.endswith("within 1000 days")
        assert prepared.positive_label.count("within") == 1
        if names:
            assert "recurrence within 1000 days (positive)" in data_words.ready(prepared)
    metadata = model_metadata(prepared, "study.csv").to_dict()
    # A file saved before the names said the horizon, with the horizon copied into its follow-up.
    metadata["dataset"].update(positive_label="recurrence", negative_label="no recurrence")
    metadata["follow_up"] = {"time": "rfstime", "horizon": HORIZON, "unit": "days"}
    typed = ModelMetadata.from_dict(metadata)
    assert typed.class_names == ("recurrence within 1000 days", "no recurrence within 1000 days")
    assert "within 1000 days" in report_words.card_intro(typed.positive_label)
    assert train_words.positive_outcome(ModelMetadata.coerce(metadata)) == "recurrence within 1000 days"  # the Train page's table
    assert train_words.class_labels(ModelMetadata.coerce(metadata))[1] == "no recurrence within 1000 days"
    # A yes/no list keeps its names as given.
    prepared = prepare_training_data(frame, {**types, "rfstime": "ignore"}, "status", [1], "learn",
                                     class_names=("recurrence", "no recurrence"))
    assert (prepared.positive_label, prepared.negative_label) == ("recurrence", "no recurrence")


@pytest.mark.parametrize("median, horizon", [(1855.0, 2000.0), (1230.0, 1000.0), (1400.0, 1500.0), (5.3, 5.5),
                                             (0.7, 0.7), (12.0, 10.0)])
def test_the_proposed_horizon_is_a_round_number_near_the_median(median, horizon):
    from psl_triage.data.follow_up import default_horizon

    times = np.array([median / 2, median, median * 3])
    assert default_horizon(times) == horizon


def test_a_coded_event_names_its_classes_the_right_way_round():
    """A liver cohort's "Death" coded 0/1: the classes read "Death within 60 months" and "no
    death within 60 months", never "no event (Death = 1) within 60 months" (issue 39); a
    status code says the event is its code: "event (status = 1)" and "no event"."""
    frame = follow_up_table(seed=1).rename(columns={"status": "Death"})
    types = {**infer_column_types(frame), "pid": "ignore"}
    prepared = prepare_training_data(frame, types, "Death", [1], "learn", follow_up=FollowUp("rfstime", 60, "months"))
    assert (prepared.positive_label, prepared.negative_label) == ("Death within 60 months", "no death within 60 months")
    prepared = prepare_training_data(frame.rename(columns={"Death": "status"}), types | {"status": "binary"}, "status", [1],
                                     "learn", follow_up=FollowUp("rfstime", 60, "months"))
    assert (prepared.positive_label, prepared.negative_label) == (
        "event (status = 1) within 60 months", "no event within 60 months")
