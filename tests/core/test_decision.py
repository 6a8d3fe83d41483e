"""Decisions, stopping rules, unknown answers and the triage record (Sec. 5.4)."""

import itertools
import json

import numpy as np
import pytest

from psl_core import ProbabilisticScoringList, PSLError
from psl_core.cost_ratio import decision_threshold, expected_loss
from psl_core.decision import StageBands, answer_for, decide, possible_totals, triage_step
from psl_core.serialization import FORMAT
from psl_triage.record import record_text, triage_record


def test_threshold_and_expected_loss():
    assert decision_threshold(10) == pytest.approx(1 / 11)
    np.testing.assert_allclose(expected_loss([0.0, 0.05, 0.5, 1.0], 10), [0.0, 0.5, 0.5, 0.0])
    assert decide(0.1, 10) == "positive" and decide(1 / 11, 10) == "negative"
    assert list(decide(np.array([0.01, 0.5]), 1)) == ["negative", "negative"]
    with pytest.raises(PSLError, match="cost_ratio"):
        decision_threshold(0)


def test_possible_totals_branch_on_unknown_answers():
    assert possible_totals([3, -2, 1], []).tolist() == [0]
    assert possible_totals([3, -2, 1], [True, False]).tolist() == [3]
    assert possible_totals([3, -2, 1], [None, True]).tolist() == [-2, 1]
    assert possible_totals([3, -2, 1], [None, None, None]).tolist() == [-2, -1, 0, 1, 2, 3, 4]


def handmade_list(counts):
    """A two-stage list with scores (2, 1) and the given (positives, negatives) per total."""
    scores = [2, 1]
    calibration = []
    for totals in ([0], [0, 2], [0, 1, 2, 3]):
        pos = [counts[len(totals)][t][0] for t in totals]
        neg = [counts[len(totals)][t][1] for t in totals]
        rates = np.maximum.accumulate([p / (p + n) for p, n in zip(pos, neg)])
        calibration.append({"totals": totals, "probabilities": rates.tolist(), "positives": pos, "negatives": neg})
    model = {
        "format": FORMAT, "schema_version": 1, "params": {"score_set": [1, 2]},
        "classes": [0, 1], "input": {"kind": "dataframe", "n_features": 2, "feature_names": ["a", "b"]},
        "stages": [
            {"feature": "a", "kind": "binary", "threshold": None, "category": None, "negated": False, "score": s}
            if i == 0 else
            {"feature": "b", "kind": "numeric", "threshold": 5.0, "category": None, "negated": False, "score": s}
            for i, s in enumerate(scores)
        ],
        "calibration": calibration, "criterion": [0.0, 0.0, 0.0], "validation": None, "metadata": {},
    }
    return ProbabilisticScoringList.from_json(json.dumps(model))


COUNTS = {
    1: {0: (32, 68)},
    2: {0: (20, 480), 2: (280, 220)},
    4: {0: (2, 398), 1: (18, 82), 2: (30, 70), 3: (250, 150)},
}


def test_confident_negative_and_positive():
    bands = StageBands(handmade_list(COUNTS), 0.95)
    # M = 2: threshold 1/3; the prior 32/100 has an interval across it
    prior = triage_step(bands, [], cost_ratio=2)
    assert prior.lower < 1 / 3 < prior.upper
    assert prior.decision == "continue" and prior.stop_reason is None
    no = triage_step(bands, [False], cost_ratio=2)  # 20/500 positive
    assert no.totals == [0]
    assert no.decision == "negative" and no.stop_reason == "confident" and no.upper <= 1 / 3
    yes = triage_step(bands, [True], cost_ratio=2)  # 280/500 positive
    assert yes.totals == [2]
    assert yes.decision == "positive" and yes.stop_reason == "confident" and yes.lower > 1 / 3
    assert "lies entirely above" in yes.explanation


def test_unknown_answer_spans_both_answers():
    bands = StageBands(handmade_list(COUNTS), 0.95)
    unknown = triage_step(bands, [None], cost_ratio=3)
    no, yes = triage_step(bands, [False], cost_ratio=3), triage_step(bands, [True], cost_ratio=3)
    assert unknown.totals == [0, 2]
    assert unknown.lower == pytest.approx(min(no.lower, yes.lower))
    assert unknown.upper == pytest.approx(max(no.upper, yes.upper))
    assert unknown.probability_low == pytest.approx(no.probability_low)
    assert unknown.probability_high == pytest.approx(yes.probability_high)


def test_end_of_list_without_confidence_is_uncertain():
    counts = {1: {0: (5, 5)}, 2: {0: (2, 3), 2: (3, 2)}, 4: {0: (1, 1), 1: (1, 2), 2: (1, 1), 3: (2, 1)}}
    bands = StageBands(handmade_list(counts), 0.95)
    end = triage_step(bands, [True, True], cost_ratio=1)
    assert end.decision == "uncertain" and end.stop_reason == "end of list"
    assert "Refer or gather more evidence" in end.explanation


def test_settled_when_no_remaining_answer_changes_the_decision():
    # With decisions on the point estimate and M = 1 (threshold 1/2), stage 1 "a = yes"
    # has rate 0.56 and both completions (totals 2 and 3) stay above 1/2, while the small
    # counts keep the interval across the threshold: settled, not confident.
    counts = {1: {0: (5, 5)}, 2: {0: (2, 8), 2: (5, 4)}, 4: {0: (1, 4), 1: (1, 4), 2: (3, 2), 3: (2, 1)}}
    bands = StageBands(handmade_list(counts), 0.95)
    step = triage_step(bands, [True], cost_ratio=1, basis="point")
    assert step.lower < 0.5 < step.upper
    assert step.decision == "positive" and step.stop_reason == "settled"


def fitted_lists():
    rng = np.random.default_rng(5)
    lists = []
    for _ in range(4):
        n = 400
        X = rng.integers(0, 2, size=(n, 4)).astype(float)
        logit = X @ rng.normal(0, 1.5, 4) - 1
        y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
        lists.append(ProbabilisticScoringList(score_set=(-2, -1, 1, 2)).fit(X, y))
    return lists


@pytest.mark.parametrize("basis", ["upper", "point"])
def test_settled_is_true_for_every_completion(basis):
    """Checked by enumerating answer completions, independently of the set-based check."""
    settled = 0
    for psl, cost_ratio in itertools.product(fitted_lists(), [1, 4, 10]):
        bands = StageBands(psl, 0.9)
        K = len(psl.scores_)
        for k in range(K + 1):
            for prefix in itertools.product([True, False, None], repeat=k):
                step = triage_step(bands, list(prefix), cost_ratio, basis)
                if step.stop_reason != "settled":
                    continue
                settled += 1
                for later in range(k + 1, K + 1):
                    for rest in itertools.product([True, False], repeat=later - k):
                        after = triage_step(bands, list(prefix) + list(rest), cost_ratio, basis)
                        assert after.lean == step.decision
    assert settled > 0


def test_answers_from_raw_values():
    psl = handmade_list(COUNTS)
    assert answer_for(psl.literals_[0], 1) is True
    assert answer_for(psl.literals_[0], 0) is False
    assert answer_for(psl.literals_[1], 7.5) is True
    assert answer_for(psl.literals_[1], 5.0) is False
    assert answer_for(psl.literals_[1], None) is None
    assert answer_for(psl.literals_[1], float("nan")) is None


def test_record_lists_questions_answers_and_outcome():
    psl = handmade_list(COUNTS)
    bands = StageBands(psl, 0.95)
    answers = [None, False]
    steps = [triage_step(bands, answers[:k], 10) for k in range(3)]
    record = triage_record("demo", "1", ["a = yes", "b > 5"], ["unknown", 3.0], steps, 10, 0.95, "upper")
    assert record["result"]["decision"] == steps[-1].decision
    assert record["answers"][1]["answer"] == 3.0
    json.dumps(record)  # JSON-ready
    text = record_text(record)
    assert "model demo (version 1)" in text and "2. b > 5: 3.0" in text
    assert steps[-1].explanation in text
    assert "No question answered" not in text


def test_record_of_a_triage_without_answers_says_no_question_was_answered():
    psl = handmade_list(COUNTS)
    step = triage_step(StageBands(psl, 0.95), [], 10)
    text = record_text(triage_record("demo", "1", [], [], [step], 10, 0.95, "upper"))
    assert "No question answered: the result is the list's estimate before any question." in text
    assert "\n\n\n" not in text
    assert step.explanation in text
