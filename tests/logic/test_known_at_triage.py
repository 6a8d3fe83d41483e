""""Known at triage?": the researcher's answer per question a list asks, kept with the list.

No test of the data can tell a column recorded after the outcome (a birth weight beside
preterm birth); the Train page asks, for the questions the list asks at its recommended
length, and the answers travel in the model file to the card and the report.
"""

from __future__ import annotations

import json

import pytest

from psl_triage.judging.card import card_html, report_html
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.model_file.store import open_model
from psl_triage.training.fit import train_list
from psl_triage.training.known_at_triage import asked_columns, same_time_point, timing_status
from psl_triage.training.options import TrainingOptions
from psl_triage.training.session import TrainingSession
from psl_triage.words.known_at_triage import CONFIRMED, KNOWN, LATER, NO_QUESTION, NOT_CONFIRMED, RECORDED_LATER
from tests.logic.test_training_session import widget_choices
from tests.tables import dataset_session

CONFIRMED_SAID = "The researcher confirmed that each question of the list is known at triage"
NOT_CONFIRMED_SAID = "Not confirmed that each question of the list is known at triage"


@pytest.fixture(scope="module")
def trained(demo_prepared):
    return train_list(demo_prepared, "demo", TrainingOptions(max_stages=4))


@pytest.fixture
def session(demo_prepared):
    session, dataset = TrainingSession(), dataset_session(demo_prepared)
    session.train(dataset, TrainingOptions(max_stages=4))
    return session, dataset


def test_the_questions_asked_are_those_of_the_recommended_length_each_once(trained):
    model, _ = trained
    stage = model.recommended_stages_ if 0 < model.recommended_stages_ < len(model.literals_) else len(model.literals_)
    columns = [str(literal.column) for literal in model.literals_[:stage]]
    assert asked_columns(model) == tuple(dict.fromkeys(columns))
    assert len(asked_columns(model)) >= 1


def test_a_list_without_answers_and_an_old_file_read_as_not_confirmed(trained):
    model, metadata = trained
    assert "known_at_triage" not in metadata  # nothing said before the researcher answers
    for old in (metadata, {}, {"name": "old"}, None, {"known_at_triage": "yes"}):
        status = timing_status(model, old)
        assert status.state == NOT_CONFIRMED and status.unanswered == asked_columns(model) and not status.later
    assert NOT_CONFIRMED_SAID in report_html(model, metadata) and NOT_CONFIRMED_SAID in card_html(model, metadata)


def test_an_odd_entry_is_kept_as_it_was_and_not_confirmed(trained):
    model, metadata = trained
    odd = {**metadata, "known_at_triage": {"age": 1}}
    parsed = ModelMetadata.from_dict(odd)
    assert parsed.known_at_triage is None and parsed.to_dict() == odd
    assert timing_status(model, parsed).state == NOT_CONFIRMED


def test_every_question_known_confirms_the_list_and_the_file_keeps_it(session, tmp_path, monkeypatch):
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))
    session, _ = session
    asked = session.timing_status().asked
    for column in asked[:-1]:
        session.mark_timing(column, KNOWN)
    assert session.timing_status().state == NOT_CONFIRMED and session.timing_status().unanswered == asked[-1:]
    session.mark_timing(asked[-1], KNOWN)
    assert session.timing_status().state == CONFIRMED and session.answers_unsaved
    session.save("demo")
    assert not session.answers_unsaved
    stored = open_model(tmp_path / "demo-v1.json")
    assert json.loads((tmp_path / "demo-v1.json").read_text())["metadata"]["known_at_triage"] == dict.fromkeys(asked, KNOWN)
    assert ModelMetadata.of(stored.model).known_at_triage == dict.fromkeys(asked, KNOWN)
    assert timing_status(stored.model, stored.model.metadata_).state == CONFIRMED
    assert CONFIRMED_SAID in report_html(stored.model, stored.model.metadata_)
    assert CONFIRMED_SAID in card_html(stored.model, stored.model.metadata_)


def test_a_question_recorded_later_is_never_asked_again_and_training_again_keeps_the_answers(session, demo_prepared):
    session, dataset = session
    first, *others = session.timing_status().asked
    for column in others:
        session.mark_timing(column, KNOWN)
    session.mark_timing(first, LATER)
    status = session.timing_status()
    assert status.state == RECORDED_LATER and status.later == (first,)
    assert session.asks[first] == "never" and session.can_train_without(status.later, dataset)
    assert f"marked {first} as recorded after the outcome" in report_html(session.model, session.metadata)
    session.train_without_later()
    assert session.take_retrain()
    options = session.options(demo_prepared, widget_choices(max_stages=4))
    assert options.forbidden == [first]
    session.train(dataset, options)
    assert first not in asked_columns(session.model)
    kept = session.metadata.known_at_triage or {}
    assert all(kept[column] == KNOWN for column in others if column in asked_columns(session.model))
    assert first not in kept


def test_an_answer_taken_back_lets_the_column_be_asked_again(session):
    session, _ = session
    column = session.timing_status().asked[0]
    session.mark_timing(column, LATER)
    session.mark_timing(column, KNOWN)
    assert column not in session.asks and session.timing_status().state != RECORDED_LATER
    session.mark_timing(column, None)
    assert column not in (session.metadata.known_at_triage or {})
    session.asks[column] = "first"  # the user's own choice in the knowledge table stays
    session.mark_timing(column, KNOWN)
    assert session.asks[column] == "first"


def test_the_answers_belong_to_one_table(session):
    session, _ = session
    column = session.timing_status().asked[0]
    session.mark_timing(column, KNOWN)
    session.follow_table("demo")
    session.follow_table("other")
    assert session.timing == {}
    session.follow_table("demo")
    assert session.timing == {column: KNOWN}


def test_a_list_that_asks_nothing_has_nothing_to_confirm(trained):
    model, metadata = trained
    empty = type(model).__new__(type(model))
    empty.__dict__.update(model.__dict__, literals_=[], recommended_stages_=0)
    assert timing_status(empty, metadata).state == NO_QUESTION


def test_a_list_recommending_no_question_is_not_asked_about(trained):
    """Issue 39: "Known at triage?" asked about 7 columns of a list whose held-out evidence
    recommends asking nothing (recommended length 0)."""
    model, metadata = trained
    no_gain = type(model).__new__(type(model))
    no_gain.__dict__.update(model.__dict__, recommended_stages_=0)
    assert len(no_gain.literals_) > 0
    assert asked_columns(no_gain) == () and timing_status(no_gain, metadata).state == NO_QUESTION


OPT_LIKE = ["Age", "BMI", "BL.GE", "BL.PD.avg", "V3.GE", "V3.PD.avg", "V5.GE", "V5..BOP", "V5.PD.avg",
            "Birthweight", "Apgar1", "X..Vis.Att", "X..Vis.Elig"]
"""Column names as medicaldata/opt (a periodontal trial, outcome preterm birth) has them: a
baseline visit and visits 3 and 5."""


def test_the_other_columns_of_a_time_point_recorded_later_are_offered_with_it():
    assert same_time_point(["V5.PD.avg"], OPT_LIKE) == {"V5": ("V5.GE", "V5..BOP")}
    assert same_time_point(["V5.PD.avg", "V5.GE", "Birthweight"], OPT_LIKE) == {"V5": ("V5..BOP",)}
    assert same_time_point(["X..Vis.Elig"], OPT_LIKE) == {"X": ("X..Vis.Att",)}
    assert same_time_point(["Birthweight", "Apgar1"], OPT_LIKE) == {}  # no time point in their names
    assert same_time_point(["V5.PD.avg"], ["Age", "V5.GE", "V5.PD.avg", "BL.GE", "BL.PD"]) == {}  # two time points: not read as visits


def test_one_click_leaves_out_the_time_point_too(session):
    session, _ = session
    session.train_without_later(("V5.GE", "V5..BOP"))
    assert session.take_retrain()
    assert session.asks["V5.GE"] == session.asks["V5..BOP"] == "never" and session.timing["V5.GE"] == LATER
