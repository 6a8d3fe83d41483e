"""The bedside questionnaire: questions in words, answers per column, steps and the chart."""

import dataclasses
import json
import re

import numpy as np
import pytest

from psl_core import ProbabilisticScoringList
from psl_core.calibration import isotonic_probabilities, reachable_totals
from psl_core.cost_ratio import decision_threshold
from psl_core.decision import (
    OUTCOMES,
    RULED,
    SETTLED,
    UNLIKELY_TO_CHANGE,
    StageBands,
    StepResult,
    action,
    answer_for,
    outcome_codes,
    triage_step,
)
from psl_core.serialization import FORMAT, SCHEMA_VERSION
from psl_triage.bedside.questions import (
    advance,
    answer_text,
    build_questions,
    first_stage_of,
    recorded_answers,
    stage_answers,
    triage_steps,
)
from psl_triage.model_file.answers import OTHER
from psl_triage.plots import triage_figure
from psl_triage.words.common import one_in, percent, points_text
from psl_triage.words.decision import (
    headline,
    interval_sentence,
    outcome_text,
    prior_decision_text,
    probability_text,
    stop_sentence,
    totals_text,
)
from tests.tables import chest_pain_columns

STAGES = [
    {"feature": "thalach", "kind": "numeric", "threshold": 147.5, "category": None, "negated": False, "score": -2},
    {"feature": "sex", "kind": "binary", "threshold": None, "category": None, "negated": False, "score": 2},
    {"feature": "cp", "kind": "category", "threshold": None, "category": "4", "negated": False, "score": 3},
    {"feature": "cp", "kind": "category", "threshold": None, "category": "1", "negated": False, "score": 1},
]
COLUMNS = chest_pain_columns("thalach")


def handmade_model(stages=STAGES):
    """A list with made-up counts; by default four stages (heart rate, sex, two chest pain
    categories).

    Every reachable total has data; the rate of positives rises with the total. Stage 0
    counts every patient (the model reader refuses a later stage that counts more), so its one
    total's counts are multiplied by the largest number of totals of any stage.
    """
    scores = [stage["score"] for stage in stages]
    widest = max(len(reachable_totals(scores[:k])) for k in range(len(stages) + 1))
    calibration = []
    for k in range(len(stages) + 1):
        totals = reachable_totals(scores[:k]).tolist()
        times = widest if k == 0 else 1
        positives = [(5 + 3 * i) * times for i in range(len(totals))]
        negatives = [(50 - 3 * i) * times for i in range(len(totals))]
        rates = isotonic_probabilities(np.array(totals), np.array(positives), np.array(negatives)).tolist()
        calibration.append({"totals": totals, "probabilities": rates, "positives": positives, "negatives": negatives})
    model = {
        # Isotonic without pseudo-cases, as the probabilities above: the reader recomputes them.
        "format": FORMAT, "schema_version": SCHEMA_VERSION,
        "params": {"score_set": [-3, -2, -1, 1, 2, 3], "calibration": "isotonic", "prior_strength": 0.0},
        "classes": [0, 1],
        "input": {"kind": "dataframe", "n_features": 3, "feature_names": ["thalach", "sex", "cp"]},
        "stages": stages, "calibration": calibration, "criterion": [0.0] * (len(stages) + 1),
        "validation": None, "metadata": {"columns": COLUMNS},
    }
    return ProbabilisticScoringList.from_json(json.dumps(model))


@pytest.fixture(scope="module")
def model():
    return handmade_model()


def test_questions_phrase_condition_points_and_answers(model):
    hr, sex, asymptomatic, typical = build_questions(model, COLUMNS)
    assert [q.stage for q in (hr, sex, asymptomatic, typical)] == [1, 2, 3, 4]
    assert hr.rule == "Max heart rate > 147.5 bpm: \u22122 points"
    assert hr.prompt == "Max heart rate (bpm)" and hr.options == ()
    assert sex.prompt == "Sex: male / female"
    assert sex.options == ((1.0, "male"), (0.0, "female"))
    assert sex.rule == "Sex = male: +2 points"
    assert asymptomatic.rule == "Chest pain type = asymptomatic: +3 points"
    assert asymptomatic.prompt == "Chest pain type"
    assert asymptomatic.options == (("1", "typical angina"), ("2", "atypical angina"), ("4", "asymptomatic"))
    assert typical.rule == "Chest pain type = typical angina: +1 point"
    assert typical.record_line == "Chest pain type = typical angina (+1 point)"


def test_without_metadata_questions_use_column_names_and_offer_other(model):
    hr, sex, asymptomatic, typical = build_questions(model)
    assert hr.rule == "thalach > 147.5: \u22122 points"
    assert sex.prompt == "sex: yes / no"
    # Both categories the list uses, and "none of these", which meets neither condition.
    assert asymptomatic.options == typical.options == (("4", "4"), ("1", "1"), (OTHER, "other (none of these)"))
    assert answer_for(asymptomatic.literal, OTHER) is False
    assert answer_for(typical.literal, OTHER) is False


def test_raw_answers_become_yes_no_unknown_per_stage(model):
    questions = build_questions(model, COLUMNS)
    answers = {"thalach": 147.5, "sex": 1.0, "cp": "1"}
    raw, holds = stage_answers(questions, answers, 4)
    assert raw == [147.5, 1.0, "1", "1"]
    assert holds == [False, True, False, True]  # 147.5 is not > 147.5
    _, holds = stage_answers(questions, {"thalach": 160.0, "sex": None, "cp": "4"}, 4)
    assert holds == [True, None, True, False]
    assert answer_text(questions[0], 152.0) == "152 bpm"
    assert answer_text(questions[1], 0.0) == "female"
    assert answer_text(questions[2], "4") == "asymptomatic"
    assert answer_text(questions[2], None) == "unknown"


def test_a_column_is_asked_once_and_its_later_stages_follow(model):
    questions = build_questions(model, COLUMNS)
    assert first_stage_of(questions, "cp") == 2
    answers = {"thalach": 160.0, "sex": 0.0, "cp": "2"}
    never = lambda n: False  # noqa: E731
    assert advance(questions, answers, 3, never) == 4
    assert advance(questions, {"thalach": 160.0}, 1, never) == 1  # sex is not answered yet
    assert advance(questions, answers, 3, lambda n: n == 3) == 3  # a stop is not skipped
    assert recorded_answers(questions, answers, 4) == [
        "160 bpm (condition met)",
        "female (not met)",
        "atypical angina (not met)",
        "atypical angina (not met; as answered at question 3)",
    ]
    assert recorded_answers(questions, {"thalach": None}, 1) == [None]


def test_a_numeric_column_reused_with_a_second_threshold_is_asked_once():
    second = {"feature": "thalach", "kind": "numeric", "threshold": 120.0, "category": None, "negated": False,
              "score": -1}
    model = handmade_model(STAGES[:2] + [second])
    questions = build_questions(model, COLUMNS)
    assert [q.column for q in questions] == ["thalach", "sex", "thalach"]
    assert questions[2].rule == "Max heart rate > 120 bpm: \u22121 point"
    never = lambda n: False  # noqa: E731
    answers = {"thalach": 130.0, "sex": 0.0}
    assert advance(questions, answers, 2, never) == 3  # the value given at question 1 answers question 3
    assert stage_answers(questions, answers, 3)[1] == [False, False, True]
    assert recorded_answers(questions, answers, 3)[2] == "130 bpm (condition met; as answered at question 1)"
    assert first_stage_of(questions, "thalach") == 0  # position of its first question


def test_triage_steps_are_triage_step_per_stage(model):
    questions = build_questions(model, COLUMNS)
    bands = StageBands(model, 0.9)
    answers = {"thalach": 120.0, "sex": None, "cp": "4"}
    steps = triage_steps(bands, questions, answers, 4, 3.0, "point")
    holds = [False, None, True, False]
    assert [s.to_dict() for s in steps] == [
        triage_step(bands, holds[:k], 3.0, "point").to_dict() for k in range(5)
    ]


def test_figure_plots_the_steps_and_the_threshold(model):
    questions = build_questions(model, COLUMNS)
    bands = StageBands(model, 0.95)
    steps = triage_steps(bands, questions, {"thalach": 160.0, "sex": None, "cp": "1"}, 4, 10.0, "upper")
    assert steps[2].probability_low < steps[2].probability_high  # the unknown answer leaves a range
    figure = triage_figure(steps, decision_threshold(10.0), confidence=0.95)
    upper, lower, probability = figure.data
    stages = [0, 1, 2, 3, 4]
    assert list(upper.x) == stages and list(lower.x) == stages
    np.testing.assert_allclose(upper.y, [s.upper for s in steps])
    np.testing.assert_allclose(lower.y, [s.lower for s in steps])
    assert lower.fill == "tonexty" and lower.name == "95% interval"
    # One vertical segment per stage, from the lowest to the highest estimate.
    x = [v for v in probability.x if v is not None]
    y = [v for v in probability.y if v is not None]
    assert x == [s for s in stages for _ in range(2)]
    np.testing.assert_allclose(y, [p for s in steps for p in (s.probability_low, s.probability_high)])
    (line,) = figure.layout.shapes
    assert line.y0 == line.y1 == pytest.approx(1 / 11)
    assert list(figure.layout.xaxis.ticktext) == ["Start", "Q1", "Q2", "Q3", "Q4"]


def test_numbers_read_plainly():
    assert points_text(-2) == "\u22122 points" and points_text(1) == "+1 point"
    assert totals_text([3]) == "3" and totals_text([-2, 0, 3]) == "\u22122, 0 or 3"
    assert percent(0.0912) == "9.1%" and percent(0) == "0.0%" and percent(1) == "100.0%"
    assert percent(0.00001) == "<0.1%" and percent(0.99999) == ">99.9%"


def test_probability_text_shows_a_range_only_when_answers_are_unknown(model):
    questions = build_questions(model, COLUMNS)
    bands = StageBands(model, 0.95)
    known, unknown = (
        triage_steps(bands, questions, answers, 1, 10.0, "upper")[-1]
        for answers in ({"thalach": 100.0}, {"thalach": None})
    )
    assert " to " not in probability_text(known)
    assert probability_text(unknown) == f"{percent(unknown.probability_low)} to {percent(unknown.probability_high)}"


# --------------------------------------------------------------------------- a stop before the first question


def prior_step(lower, upper, cost_ratio, stop_reason=RULED):
    """Stage 0 of a list whose prior has the interval lower..upper; a stop (by ``stop_reason``,
    the rule of a list without statistics by default) when ruled in or out."""
    threshold = decision_threshold(cost_ratio)
    outcome = OUTCOMES[int(outcome_codes(lower, upper, threshold)) + 1]
    p = (lower + upper) / 2
    return StepResult(
        stage=0, totals=[0], probability_low=p, probability_high=p,
        lower=lower, upper=upper, threshold=threshold, outcome=outcome, action=action(outcome, upper, threshold),
        stop_reason=None if outcome == "uncertain" else stop_reason, expected_loss=0.0,
    )


def suggested_m(text):
    return float(re.search(r"With M (?:at most|of) ([0-9.]+)", text)[1])


@pytest.mark.parametrize("lower, upper", [(0.3, 0.5), (0.35, 0.55), (0.123456, 0.2), (0.4571, 0.6)])
def test_a_prior_above_the_threshold_is_explained_with_an_m_that_lets_the_questions_decide(lower, upper):
    step = prior_step(lower, upper, cost_ratio=10)
    text = prior_decision_text(step, 10, 0.95, "heart disease", "no heart disease")
    assert text.startswith("Before any question, the base rate of heart disease is ")
    assert f"(95% interval {percent(lower)} to {percent(upper)})" in text
    assert "1/(1+M) = 9.1%" in text and "decides **heart disease** for every patient" in text
    assert "Continue anyway" in text
    lowered = suggested_m(text)
    assert prior_step(lower, upper, lowered).stop_reason is None  # the suggested M no longer decides
    assert prior_step(lower, upper, lowered + 0.02).stop_reason == RULED  # and it is not far off


@pytest.mark.parametrize("lower, upper", [(0.3, 0.5), (0.01, 0.123456), (0.2, 0.6)])
def test_a_prior_below_the_threshold_is_explained_with_an_m_that_lets_the_questions_decide(lower, upper):
    step = prior_step(lower, upper, cost_ratio=0.5)
    text = prior_decision_text(step, 0.5, 0.9, "heart disease", "no heart disease")
    assert "decides **no heart disease** for every patient" in text and "lies below" in text
    raised = suggested_m(text)
    assert prior_step(lower, upper, raised).stop_reason is None
    assert prior_step(lower, upper, raised - 0.02).stop_reason == RULED


def test_only_a_stop_before_the_first_question_is_explained():
    assert prior_decision_text(prior_step(0.05, 0.5, 10), 10, 0.95, "yes", "no") is None  # no stop
    later = dataclasses.replace(prior_step(0.3, 0.5, 10), stage=1)
    assert prior_decision_text(later, 10, 0.95, "yes", "no") is None
    settled = dataclasses.replace(prior_step(0.3, 0.5, 10), stop_reason=SETTLED)
    assert "no answers to the list's questions could move it" in prior_decision_text(settled, 10, 0.95, "yes", "no")


# --------------------------------------------------------------------------- the words of the decision model


def test_every_outcome_has_its_words():
    ruled_in, ruled_out = prior_step(0.3, 0.5, 10), prior_step(0.3, 0.5, 0.5)
    uncertain = prior_step(0.3, 0.5, 2)
    assert (ruled_in.outcome, ruled_out.outcome, uncertain.outcome) == ("rule in", "rule out", "uncertain")
    assert outcome_text(ruled_in, "upper") == "Ruled in" and outcome_text(ruled_out, "point") == "Ruled out"
    assert outcome_text(uncertain, "upper") == "Uncertain: treated as positive"
    assert outcome_text(dataclasses.replace(uncertain, action="negative"), "point") == "Uncertain: estimate says negative"
    assert headline(ruled_in, "upper", "disease", "no disease") == "Ruled in: disease"
    assert headline(ruled_out, "upper", "disease", "no disease") == "Ruled out: no disease"
    assert headline(uncertain, "upper", "disease", "no disease") == "Uncertain: treated as disease until ruled out"
    assert "lies entirely above the decision threshold 1/(1+M) = 9.1%: ruled in." in interval_sentence(ruled_in, 0.95)
    assert "contains the decision threshold" in interval_sentence(uncertain, 0.95)


def test_the_stop_is_explained_in_one_sentence():
    step = dataclasses.replace(prior_step(0.3, 0.5, 10), stop_reason=UNLIKELY_TO_CHANGE, change_share=3 / 120,
                               change_rows=120, change_scope="answers")
    assert stop_sentence(step) == (
        "Fewer than 1 in 20 training patients with these answers changed outcome with more questions (3 of 120)."
    )
    assert "1 in 10" in stop_sentence(step, 0.1) and one_in(0.02) == "1 in 50" and one_in(0.03) == "3%"
    assert "with this outcome at this question" in stop_sentence(dataclasses.replace(step, change_scope="stage"))
    assert "saved before" in stop_sentence(dataclasses.replace(step, stop_reason=RULED))
    assert stop_sentence(dataclasses.replace(step, stop_reason=None)) is None


def test_a_labelled_zero_one_code_is_asked_yes_or_no():
    """Issue 39: "Donor sex (male) = 1", "FAB grade 4 or 5 = 1": a 0/1 column the user labelled
    reads as a yes/no question; a code named otherwise keeps its names."""
    from psl_core.binarization import BINARY, Literal
    from psl_triage.bedside.questions import condition, value_labels

    literal = Literal("z3", BINARY)
    coded = {"label": "Donor sex (male)", "category_labels": {"1": "1", "0": "0"}}
    assert condition(literal, coded) == "Donor sex (male) = yes"
    assert value_labels(literal, coded) == {}
    named = {"label": "Sex", "category_labels": {"1": "male", "0": "female"}}
    assert condition(literal, named) == "Sex = male"
