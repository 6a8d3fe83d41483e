"""The Train page's state machine without Streamlit: options, the run, load, save, too good."""

from __future__ import annotations

import json

import numpy as np
import pytest

from psl_core.errors import PSLError
from psl_triage.data.demo import load_demo
from psl_triage.data.roles import Role
from psl_triage.data.session import DatasetSession
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.training.choices import NUMBER_CHOICES, RADIO_CHOICES, start_value
from psl_triage.training.fit import train_list
from psl_triage.training.options import SETUPS, TrainingOptions
from psl_triage.training.session import OPTION_NAMES, TrainingSession
from psl_triage.training.too_good import TooGood
from psl_triage.words import train as words
from tests.tables import dataset_session
from ui import state_keys

DEMO_NAME = "Heart disease (UCI, Cleveland)"


def widget_choices(**changes):
    """The widgets' values as the page starts them, with ``changes``."""
    choices = {name: start_value(name) for name in OPTION_NAMES if name not in ("cost_ratio", "cost_weight")}
    choices.update(cost_ratio=10.0, cost_weight=0.0, score_preset="paper", custom_scores="-2, -1, 1, 2", cost_unit="")
    return {**choices, **changes}


@pytest.fixture
def dataset(demo_prepared):
    return dataset_session(demo_prepared)


@pytest.fixture
def session():
    return TrainingSession()


def test_without_a_list_the_session_says_none_and_an_empty_metadata():
    session = TrainingSession()
    assert session.model is None and session.metadata == ModelMetadata() and session.origin == ""
    assert session.too_good() is None and not session.take_retrain() and session.take_proposed_name() is None


def test_the_app_keeps_one_session_under_one_key():
    state = {}
    session = state_keys.TRAINING.setdefault(state, TrainingSession)
    assert state_keys.TRAINING.setdefault(state, TrainingSession) is session and set(state) == {"training_session"}


def test_the_widgets_start_values_are_the_recommended_setup_and_make_it(session, demo_prepared):
    options = session.options(demo_prepared, widget_choices())
    assert options.setup() == "recommended"
    assert options == TrainingOptions(**SETUPS["recommended"])


def test_a_bad_custom_score_set_is_refused_naming_it(session, demo_prepared):
    with pytest.raises(PSLError, match="'two', which is not a whole number"):
        session.options(demo_prepared, widget_choices(score_preset="custom", custom_scores="1, two"))


def test_knowledge_and_cost_edits_are_kept_by_column_and_reach_the_options(session, demo_prepared):
    names = list(demo_prepared.columns)
    session.keep_knowledge({"0": {"Points with a higher value": "never fewer"}}, names)
    session.keep_costs({"1": {"Cost": 5.0, "Measured with": "blood test"}}, names)
    assert session.knowledge() == ({names[0]: "increasing"}, {})
    assert session.costs() == ({names[1]: 5.0}, {names[1]: "blood test"})
    options = session.options(demo_prepared, widget_choices(cost_unit="minutes"))
    assert options.monotone == {names[0]: "increasing"}
    assert options.question_costs == {names[1]: 5.0} and options.cost_unit == "minutes"


def test_knowledge_and_costs_belong_to_their_table_and_come_back_with_it(session, demo_prepared):
    names = list(demo_prepared.columns)
    session.follow_table(1)
    session.keep_knowledge({"0": {"Asked": "never"}}, names)
    session.keep_costs({"1": {"Cost": 5.0}}, names)
    session.follow_table(2)  # another table, with a column of the same name: nothing carried over
    assert session.knowledge() == ({}, {}) and session.costs() == ({}, {})
    assert not session.options(demo_prepared, widget_choices()).forbidden
    session.follow_table(1)
    assert session.knowledge() == ({}, {names[0]: "never"}) and session.costs() == ({names[1]: 5.0}, {})


def test_each_loaded_table_has_its_own_number_and_keeps_it_when_shown_again(demo):
    data = DatasetSession(lambda: demo)
    demo_table = data.active.table
    data.read_upload("t1", "small.csv", lambda: b"age,status\n" + b"".join(b"%d,%d\n" % (i, i % 2) for i in range(40)), 10**6)
    assert data.active.table != demo_table
    data.switch_to("demo")
    assert data.active.table == demo_table


def test_a_first_question_that_cannot_be_asked_is_refused_in_the_pages_words(session, dataset):
    session.keep_knowledge({"1": {"Asked": "first"}}, names := list(dataset.prepared.columns))
    options = session.options(dataset.prepared, widget_choices(min_support=150))
    with pytest.raises(PSLError, match=(
        f"{names[1]} is to be asked first, but no question about it leaves at least 150 training rows .* "
        "Lower 'Training rows each answer must hold', or set .* asked 'when it helps'")):
        session.train(dataset, options)
    assert session.model is None


def test_train_makes_the_list_current_says_where_it_comes_from_and_proposes_its_name(session, dataset):
    seen = []
    options = session.options(dataset.prepared, widget_choices(max_stages=2, **SETUPS["paper"]))
    seconds = session.train(dataset, options, progress=lambda stage, n: seen.append((stage, n)))
    assert seconds >= 0 and seen and seen[-1][0] == seen[-1][1]
    assert session.model.n_stages_ == 3 and session.metadata.source == "trained"
    assert session.origin.startswith(f"Trained on {DEMO_NAME} (198 training rows, measured on 99 test rows)")
    assert session.origin.endswith("the paper's setup.")
    assert session.default_name() == DEMO_NAME
    assert session.take_proposed_name() == DEMO_NAME and session.take_proposed_name() is None  # proposed once


def test_a_save_records_name_and_version_and_the_next_save_is_the_next_version(session, dataset, tmp_path,
                                                                               monkeypatch):
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))
    session.train(dataset, TrainingOptions(max_stages=1))
    session.save("Chest pain")
    assert session.metadata.name == "Chest pain" and session.metadata.version == 1
    assert "chest-pain-v1.json (version 1)" in session.saved_message
    session.save("Chest pain")
    assert session.metadata.version == 2
    session.open_stored(tmp_path / "chest-pain-v1.json", "Chest pain (v1)")
    assert session.origin == "Opened from the model store: Chest pain (v1)." and session.saved_message is None


def test_a_failed_save_does_not_leave_the_previous_saved_message(session, dataset, tmp_path, monkeypatch):
    """Issue 40, item 6: "Saved as ... v1" stayed beside the error of a later save that failed."""
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path / "models"))
    session.train(dataset, TrainingOptions(max_stages=1))
    session.save("Chest pain")
    assert session.saved_message
    (tmp_path / "models").rename(tmp_path / "moved")
    (tmp_path / "models").write_text("a file where the folder was")
    with pytest.raises(PSLError, match="cannot be saved"):
        session.save("Chest pain")
    assert session.saved_message is None


def test_an_upload_becomes_current_and_a_broken_one_leaves_the_current_list(session, dataset):
    session.train(dataset, TrainingOptions(max_stages=1))
    current, text = session.model, session.model.to_json(dict(session.metadata.to_dict(), name="One question"))
    assert not session.load_upload(b'{"format": "psl", "st', "broken.json")
    assert session.model is current and session.load_message["kind"] == "error"
    assert "broken.json" in session.load_message["text"]
    assert session.load_upload(text.encode(), "one.json")
    assert session.model is not current and session.metadata.name == "One question"
    assert session.load_message == {"kind": "info", "text": words.loaded("one.json", 1)}
    assert session.origin == "Loaded from the file one.json."
    session.forget_load_message()
    assert session.load_message is None


def test_an_uploaded_list_without_a_name_takes_its_file_s_name(session, dataset):
    """A list downloaded before it was saved, loaded again: Validate and Card called it "an
    unnamed list (not saved yet)". It now carries its file's name; a named one keeps its own."""
    from psl_triage.model_file.writer import list_identity

    session.train(dataset, TrainingOptions(max_stages=1))
    assert session.metadata.name is None
    unnamed = session.model.to_json(session.metadata.to_dict())
    assert session.load_upload(unnamed.encode(), "chain list.json")
    assert session.metadata.name == "chain list" and list_identity(session.metadata).startswith("**chain list**")
    named = session.model.to_json(dict(session.metadata.to_dict(), name="Mine"))
    assert session.load_upload(named.encode(), "other.json") and session.metadata.name == "Mine"


def test_a_too_good_list_can_be_retrained_without_its_suspect_question():
    df, meta = load_demo()
    df = df.assign(echo_result=np.where(df[meta.outcome] == meta.positive_class, 0.9, 0.1))
    dataset = DatasetSession(lambda: (df, meta))
    dataset.put_back("echo_result")  # proposed out as a leak: the user keeps it
    dataset.refresh()
    session = TrainingSession()
    session.train(dataset, TrainingOptions(max_stages=2))
    warning = session.too_good()
    assert warning is not None and warning.questions == ("echo_result",)
    assert session.can_retrain_without(warning, dataset)
    session.retrain_without(dataset, warning.questions, " ".join(warning.reasons))
    assert dataset.active.column_types["echo_result"] == "ignore" and "echo_result" not in dataset.prepared.X
    assert dataset.active.column_roles["echo_result"] == Role("leak", words.too_good_evidence(" ".join(warning.reasons)))
    assert session.take_retrain() and not session.take_retrain()  # asked once
    session.train(dataset, TrainingOptions(max_stages=2))
    assert session.too_good() is None and "echo_result" not in session.model.features_


def test_a_too_good_list_is_not_retrained_without_its_question_on_another_table():
    """As "train again without" the questions recorded later: on another table (here other
    rows with the same columns) the page offers "train on this table", never a retrain that
    would learn from rows the warning was not about."""
    df, meta = load_demo()
    df = df.assign(echo_result=np.where(df[meta.outcome] == meta.positive_class, 0.9, 0.1))
    dataset = DatasetSession(lambda: (df, meta))
    dataset.put_back("echo_result")
    dataset.refresh()
    session = TrainingSession()
    session.train(dataset, TrainingOptions(max_stages=2))
    warning = session.too_good()
    assert warning is not None and session.can_retrain_without(warning, dataset)
    other = DatasetSession(lambda: (df.iloc[: len(df) // 2].reset_index(drop=True), meta))
    other.put_back("echo_result")
    other.refresh()
    assert "echo_result" in other.prepared.X and session.other_table(other) == "data"
    assert not session.can_retrain_without(warning, other)
    assert not session.can_train_without(warning.questions, other)


def test_without_the_data_pages_session_there_is_nothing_to_retrain_without(session, dataset):
    session.train(dataset, TrainingOptions(max_stages=1))
    warning = TooGood(data="test", reasons=("A reason.",), questions=("thal",))
    assert session.can_retrain_without(warning, dataset)
    assert not session.can_retrain_without(warning, None)  # a list trained, then the data page's session gone


def test_the_page_choices_start_within_their_ranges_and_offer_what_the_words_name():
    for name, spec in NUMBER_CHOICES.items():
        value = start_value(name)
        assert value is None or spec["min_value"] <= value <= spec.get("max_value", value), name
    for name, values in RADIO_CHOICES.items():
        assert start_value(name) in values and set(words.CHOICE_LABELS[name]) == set(values), name


def test_the_training_keys_are_declared_once():
    declared = state_keys.describe()
    for key in ("training_session", "w_train_model_name"):
        assert declared[key]


def test_a_stored_list_trained_elsewhere_opens(session, demo_prepared, tmp_path):
    from psl_triage.model_file.store import save_model

    model, metadata = train_list(demo_prepared, DEMO_NAME, TrainingOptions(max_stages=1))
    stored = save_model(model, "Elsewhere", metadata, tmp_path)
    session.open_stored(stored.path, stored.label)
    assert json.loads(session.model.to_json())["format"] and session.metadata.name == "Elsewhere"


def test_a_stored_list_that_cannot_be_read_leaves_the_current_list(session, dataset, tmp_path):
    session.train(dataset, TrainingOptions(max_stages=1))
    current = session.model
    assert session.open_stored(tmp_path / "gone-v1.json", "Gone (v1)") is False
    assert session.model is current and session.load_message["kind"] == "error"
    assert "gone-v1.json" in session.load_message["text"]
