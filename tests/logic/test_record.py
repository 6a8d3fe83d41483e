"""The triage record for the patient's notes uses the page's words for the outcome and the stop."""

import json

import numpy as np

from psl_core import ProbabilisticScoringList
from psl_core.calibration import isotonic_probabilities
from psl_core.decision import StageBands, triage_step
from psl_core.serialization import FORMAT, SCHEMA_VERSION
from psl_triage.bedside.record import triage_record
from psl_triage.words.decision import interval_sentence, outcome_text, stop_sentence
from psl_triage.words.record import record_text


def small_list():
    stages = [
        {"feature": "a", "kind": "binary", "threshold": None, "category": None, "negated": False, "score": 2},
        {"feature": "b", "kind": "numeric", "threshold": 5.0, "category": None, "negated": False, "score": 1},
    ]
    calibration = [
        {"totals": [0], "positives": [320], "negatives": [680]},
        {"totals": [0, 2], "positives": [20, 280], "negatives": [480, 220]},
        {"totals": [0, 1, 2, 3], "positives": [2, 18, 30, 250], "negatives": [398, 82, 70, 150]},
    ]
    for entry in calibration:  # the counts' rates (0.32; 0.04, 0.56; ...), as the reader recomputes them
        entry["probabilities"] = isotonic_probabilities(
            np.array(entry["totals"]), np.array(entry["positives"]), np.array(entry["negatives"])).tolist()
    return ProbabilisticScoringList.from_json(json.dumps({
        "format": FORMAT, "schema_version": SCHEMA_VERSION,
        "params": {"score_set": [1, 2], "calibration": "isotonic", "prior_strength": 0.0}, "classes": [0, 1],
        "input": {"kind": "dataframe", "n_features": 2, "feature_names": ["a", "b"]},
        "stages": stages, "calibration": calibration, "criterion": [0.0, 0.0, 0.0], "validation": None,
        "metadata": {},
    }))


def test_record_lists_questions_answers_and_outcome():
    bands = StageBands(small_list(), 0.95)
    answers = [None, False]
    steps = [triage_step(bands, answers[:k], 10) for k in range(3)]
    record = triage_record("demo", "1", ["a = yes", "b > 5"], ["unknown", 3.0], steps, 10, 0.95, "upper", 0.05)
    final = steps[-1]
    assert record["result"]["outcome"] == final.outcome and record["result"]["action"] == final.action
    assert record["result"]["decision"] == outcome_text(final, "upper")
    assert record["settings"]["stop_tolerance"] == 0.05
    assert record["answers"][1]["answer"] == 3.0
    json.dumps(record)  # JSON-ready
    text = record_text(record)
    assert "model demo (version 1)" in text and "2. b > 5: 3.0" in text
    assert "1. a = yes: unknown → total 0 or 2," in text  # the page's words for several totals, no set braces
    assert f"Result: {outcome_text(final, 'upper').upper()}" in text
    assert interval_sentence(final, 0.95) in text and stop_sentence(final) in text
    for step in steps[1:]:
        assert outcome_text(step, "upper") in text
    assert "No question answered" not in text


def test_record_of_a_triage_without_answers_says_no_question_was_answered():
    step = triage_step(StageBands(small_list(), 0.95), [], 10)
    text = record_text(triage_record("demo", "1", [], [], [step], 10, 0.95, "upper", 0.05))
    assert "No question answered: the result is the list's estimate before any question." in text
    assert "\n\n\n" not in text
    assert interval_sentence(step, 0.95) in text


def test_record_names_the_classes_and_what_the_action_treats_the_patient_as():
    bands = StageBands(small_list(), 0.95)
    steps = [triage_step(bands, [], 10)]
    record = triage_record("demo", "1", [], [], steps, 10, 0.95, "upper", 0.05,
                           class_labels=("heart disease", "no heart disease"))
    assert record["classes"] == {"positive": "heart disease", "negative": "no heart disease"}
    text = record_text(record)
    assert "Outcome: positive = heart disease, negative = no heart disease" in text
    named = {"positive": "heart disease", "negative": "no heart disease"}[steps[-1].action]
    assert f"(action: treat as {steps[-1].action}, {named};" in text
