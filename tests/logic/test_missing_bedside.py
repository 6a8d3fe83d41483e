"""A missing value at the bedside (issue 30): "unknown" (an answer exists, not at hand) follows
both answers; "not recorded" (never measured or asked) goes where the list learned; the list's
table says where."""

import numpy as np
import pandas as pd
import pytest

from psl_core import ProbabilisticScoringList
from psl_core.decision import NOT_MEASURED, answer_for
from psl_triage.bedside.questions import (
    answer_text,
    build_questions,
    missing_note,
    recorded_answers,
)
from psl_triage.judging.card import card_html
from psl_triage.training.tables import list_table
from psl_triage.words.questions import NOT_MEASURED_TEXT, NOT_RECORDED, UNKNOWN_AT_HAND_TEXT, UNKNOWN_TEXT


@pytest.fixture(scope="module")
def model():
    """A lab mostly not ordered for patients who look well, and an age without gaps."""
    rng = np.random.default_rng(0)
    n = 1200
    y = rng.random(n) < 0.3
    lab = rng.normal(size=n) + 1.2 * y
    X = pd.DataFrame({
        "lab": np.where(rng.random(n) < np.where(y, 0.9, 0.5), lab, np.nan),
        "age": rng.normal(60, 10, n) + 4 * y,
    })
    return ProbabilisticScoringList(max_stages=4, required=["age"]).fit(X, y.astype(int))


def lab_question(model):
    questions = build_questions(model)
    return next(q for q in questions if q.column == "lab" and not q.literal.asks_missing)


def test_not_measured_follows_the_learned_direction_and_unknown_both(model):
    question = lab_question(model)
    assert question.literal.missing_learned and question.literal.missing is not None
    assert answer_for(question.literal, NOT_MEASURED) is question.literal.missing
    assert answer_for(question.literal, None) is None  # unknown: the list follows both answers
    assert question.extra_answers == ((None, UNKNOWN_AT_HAND_TEXT), (NOT_MEASURED, NOT_MEASURED_TEXT))
    counts = "yes" if question.literal.missing else "no"
    assert question.missing_rule.startswith(f"{NOT_RECORDED}: counts as {counts} (")


def test_a_column_without_missing_training_values_offers_only_unknown(model):
    age = build_questions(model)[0]
    assert age.column == "age" and not age.literal.missing_learned
    assert age.extra_answers == ((None, UNKNOWN_TEXT),)
    assert age.missing_rule is None
    assert answer_for(age.literal, NOT_MEASURED) is None
    assert missing_note(age.literal) == ""


def test_the_table_and_the_record_say_where_a_missing_answer_goes(model):
    question = lab_question(model)
    row = list_table(model).iloc[question.stage]
    assert row["Feature"].endswith(f"(missing: counts as {'yes' if question.literal.missing else 'no'})")
    assert "missing: counts as" in question.record_line
    questions = build_questions(model)
    answers = {q.column: (NOT_MEASURED if q.column == "lab" else 61.0) for q in questions}
    recorded = recorded_answers(questions, answers, len(questions))
    met = "condition met" if question.literal.missing else "not met"
    assert recorded[question.stage - 1].startswith(f"not recorded ({met}")
    assert answer_text(question, NOT_MEASURED) == "not recorded"
    assert answer_text(question, None) == "unknown"  # the record keeps the two apart


def test_the_two_missing_answers_fit_a_questionnaire_item_and_a_category_too():
    """A lab, a questionnaire item ("helmet use") and a recorded category alike: neither answer
    says "measured" as if every question were a test; each says which of the two it is."""
    for text in (UNKNOWN_AT_HAND_TEXT, NOT_MEASURED_TEXT):
        assert "measured," not in text and not text.startswith("Not measured")
    assert "not at hand" in UNKNOWN_AT_HAND_TEXT and "asked" in NOT_MEASURED_TEXT
    assert UNKNOWN_AT_HAND_TEXT.split()[0] != NOT_MEASURED_TEXT.split()[0]


def test_the_printed_card_says_where_a_missing_answer_goes(model):
    question = lab_question(model)
    html = card_html(model, {}, stage=question.stage)
    assert f"missing: counts as {'yes' if question.literal.missing else 'no'}" in html
