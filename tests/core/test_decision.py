"""The bedside decision model and its stop rule (Sec. 5.4; psl_core.decision, psl_core.stopping).

With interval [l, u] and t = 1/(1+M): rule in when l > t, rule out when u < t, else uncertain.
"""

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from psl_core import ProbabilisticScoringList, PSLError
from psl_core.calibration import isotonic_probabilities, reachable_totals
from psl_core.cost_ratio import cost_ratio_at, decision_threshold, expected_loss
from psl_core.decision import (
    END_OF_LIST,
    RULE_IN,
    RULE_OUT,
    RULED,
    SETTLED,
    UNCERTAIN,
    UNLIKELY_TO_CHANGE,
    StageBands,
    action,
    answer_for,
    decide,
    outcome_codes,
    possible_totals,
    stop_stages,
    triage_step,
)
from psl_core.serialization import FORMAT, SCHEMA_VERSION
from psl_core.stopping import transition_counts


def test_threshold_and_expected_loss():
    assert decision_threshold(10) == pytest.approx(1 / 11)
    for m in (0.01, 0.5, 1, 10, 999):  # the M of a threshold: the inverse
        assert cost_ratio_at(decision_threshold(m)) == pytest.approx(m)
    np.testing.assert_allclose(expected_loss([0.0, 0.05, 0.5, 1.0], 10), [0.0, 0.5, 0.5, 0.0])
    assert decide(0.1, 10) == "positive" and decide(1 / 11, 10) == "negative"
    assert list(decide(np.array([0.01, 0.5]), 1)) == ["negative", "negative"]
    with pytest.raises(PSLError, match="cost_ratio"):
        decision_threshold(0)


def test_three_way_outcome_and_the_action_on_each_basis():
    # rule in when l > t, rule out when u < t, else uncertain (an end on the threshold is uncertain)
    assert outcome_codes([0.6, 0.1, 0.3, 0.5, 0.2], [0.9, 0.4, 0.7, 0.8, 0.5], 0.5).tolist() == [1, -1, 0, 0, 0]
    assert action(RULE_IN, 0.0, 0.5) == "positive" and action(RULE_OUT, 1.0, 0.5) == "negative"
    assert action(UNCERTAIN, 0.6, 0.5, "upper") == "positive"  # risk-averse: positive until ruled out
    assert action(UNCERTAIN, 0.4, 0.5, "point") == "negative"
    assert action(UNCERTAIN, 0.6, 0.5, "point") == "positive"


def test_possible_totals_branch_on_unknown_answers():
    assert possible_totals([3, -2, 1], []).tolist() == [0]
    assert possible_totals([3, -2, 1], [True, False]).tolist() == [3]
    assert possible_totals([3, -2, 1], [None, True]).tolist() == [-2, 1]
    assert possible_totals([3, -2, 1], [None, None, None]).tolist() == [-2, -1, 0, 1, 2, 3, 4]


def list_file(scores, counts):
    """Model JSON of a list on binary features with the given scores and, per stage, the
    (positives, negatives) of each reachable total in order.

    Stage 0 counts every patient, so the model reader refuses a later stage that counts more:
    stage 0's counts are multiplied by the smallest whole factor that makes them at least any
    later stage's, which keeps its rate."""
    largest = max(sum(map(sum, stage)) for stage in counts)
    factor = -(-largest // sum(map(sum, counts[0])))
    counts = [[(c[0] * factor, c[1] * factor) for c in counts[0]], *counts[1:]]
    calibration = []
    for k in range(len(scores) + 1):
        totals = reachable_totals(scores[:k]).tolist()
        pos = [int(c[0]) for c in counts[k]]
        neg = [int(c[1]) for c in counts[k]]
        # Isotonic, as a fitted list's: the model reader refuses probabilities that contradict their counts.
        rates = isotonic_probabilities(np.array(totals), np.array(pos), np.array(neg))
        calibration.append({"totals": totals, "probabilities": [float(r) for r in rates], "positives": pos,
                            "negatives": neg})
    names = [f"x{i}" for i in range(len(scores))]
    return {
        # Isotonic without pseudo-cases, as the probabilities above: the reader recomputes them.
        "format": FORMAT, "schema_version": SCHEMA_VERSION,
        "params": {"score_set": sorted({*scores, 1}), "calibration": "isotonic", "prior_strength": 0.0},
        "classes": [0, 1], "input": {"kind": "dataframe", "n_features": len(scores), "feature_names": names},
        "stages": [
            {"feature": name, "kind": "binary", "threshold": None, "category": None, "negated": False, "score": s}
            for name, s in zip(names, scores)
        ],
        "calibration": calibration, "criterion": [0.0] * (len(scores) + 1), "validation": None, "metadata": {},
    }


def handmade_list(counts, statistics=None):
    """A two-stage list with scores (2, 1) and the given (positives, negatives) per total."""
    data = list_file([2, 1], [list(counts[n].values()) for n in (1, 2, 4)])
    model = ProbabilisticScoringList.from_json(json.dumps(data))
    # Statistics chosen by hand to put the rule in each situation, not counted from these
    # patients: a file holding them would be refused (tests/core/test_model_file_meaning.py).
    model.stop_statistics_ = statistics
    return model


COUNTS = {
    1: {0: (32, 68)},
    2: {0: (20, 480), 2: (280, 220)},
    4: {0: (2, 398), 1: (18, 82), 2: (30, 70), 3: (250, 150)},
}


def test_a_list_without_statistics_stops_as_soon_as_ruled_in_or_out():
    bands = StageBands(handmade_list(COUNTS), 0.95)
    assert bands.changes is None
    # M = 2: threshold 1/3; the prior 32/100 has an interval across it
    prior = triage_step(bands, [], cost_ratio=2)
    assert prior.lower < 1 / 3 < prior.upper
    assert (prior.outcome, prior.action, prior.stop_reason) == (UNCERTAIN, "positive", None)
    no = triage_step(bands, [False], cost_ratio=2)  # 20/500 positive
    assert no.totals == [0]
    # both completions (2/400 and 18/100) stay ruled out: settled, whatever the statistics
    assert (no.outcome, no.action, no.stop_reason) == (RULE_OUT, "negative", SETTLED) and no.upper < 1 / 3
    yes = triage_step(bands, [True], cost_ratio=2)  # 280/500 positive
    assert yes.totals == [2]
    assert (yes.outcome, yes.action, yes.stop_reason) == (RULE_IN, "positive", RULED) and yes.lower > 1 / 3


def test_unknown_answer_spans_both_answers():
    bands = StageBands(handmade_list(COUNTS), 0.95)
    unknown = triage_step(bands, [None], cost_ratio=3)
    no, yes = triage_step(bands, [False], cost_ratio=3), triage_step(bands, [True], cost_ratio=3)
    assert unknown.totals == [0, 2]
    assert unknown.lower == pytest.approx(min(no.lower, yes.lower))
    assert unknown.upper == pytest.approx(max(no.upper, yes.upper))
    assert unknown.probability_low == pytest.approx(no.probability_low)
    assert unknown.probability_high == pytest.approx(yes.probability_high)
    assert unknown.outcome == UNCERTAIN


def test_end_of_list_without_a_rule_in_or_out_is_uncertain():
    counts = {1: {0: (5, 5)}, 2: {0: (2, 3), 2: (3, 2)}, 4: {0: (1, 1), 1: (1, 2), 2: (1, 1), 3: (2, 1)}}
    bands = StageBands(handmade_list(counts), 0.95)
    end = triage_step(bands, [True, True], cost_ratio=1)
    assert (end.outcome, end.stop_reason) == (UNCERTAIN, END_OF_LIST)


def test_settled_checks_the_three_way_outcome_not_the_lean():
    # Point basis, M = 1 (threshold 1/2). After "a = yes" (rate 5/9) both completions have
    # estimates above 1/2 (the old, two-way "settled"), but total 3 (250/150) rules in while
    # total 2 stays uncertain: the outcome may still change, so the list is not settled.
    counts = {1: {0: (5, 5)}, 2: {0: (2, 8), 2: (5, 4)}, 4: {0: (1, 4), 1: (1, 4), 2: (3, 2), 3: (250, 150)}}
    bands = StageBands(handmade_list(counts), 0.95)
    step = triage_step(bands, [True], cost_ratio=1, basis="point")
    assert step.outcome == UNCERTAIN and step.stop_reason is None
    assert triage_step(bands, [True, True], cost_ratio=1, basis="point").outcome == RULE_IN
    # With small counts at both totals every completion stays uncertain: settled.
    counts[4][3] = (2, 1)
    step = triage_step(StageBands(handmade_list(counts), 0.95), [True], cost_ratio=1, basis="point")
    assert (step.outcome, step.stop_reason) == (UNCERTAIN, SETTLED)


# ---------------------------------------------------------------------------- property
SCORES = st.sampled_from([-2, -1, 1, 2])


@st.composite
def random_lists(draw):
    scores = draw(st.lists(SCORES, min_size=1, max_size=4))
    counts = []
    for k in range(len(scores) + 1):
        n_totals = len(reachable_totals(scores[:k]))
        counts.append(draw(st.lists(
            st.tuples(st.integers(0, 40), st.integers(0, 40)).filter(lambda c: sum(c) > 0),
            min_size=n_totals, max_size=n_totals,
        )))
    return ProbabilisticScoringList.from_json(json.dumps(list_file(scores, counts)))


@settings(max_examples=150, deadline=None)
@given(
    random_lists(),
    st.lists(st.sampled_from([True, False, None]), min_size=4, max_size=4),
    st.sampled_from([0.25, 1.0, 3.0, 10.0]),
    st.sampled_from([0.8, 0.95]),
    st.sampled_from(["upper", "point"]),
)
def test_a_settled_outcome_is_the_final_outcome_for_every_completion(model, answers, cost_ratio, confidence, basis):
    bands = StageBands(model, confidence)
    n_stages = len(model.scores_)
    for k in range(n_stages + 1):
        step = triage_step(bands, answers[:k], cost_ratio, basis)
        if step.stop_reason != SETTLED:
            continue
        for rest in itertools.product([True, False, None], repeat=n_stages - k):
            for later in range(k + 1, n_stages + 1):
                after = triage_step(bands, answers[:k] + list(rest[: later - k]), cost_ratio, basis)
                assert after.outcome == step.outcome


def fitted_lists():
    rng = np.random.default_rng(5)
    lists = []
    for _ in range(3):
        n = 400
        X = rng.integers(0, 2, size=(n, 4)).astype(float)
        logit = X @ rng.normal(0, 1.5, 4) - 1
        y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
        lists.append((ProbabilisticScoringList(score_set=(-2, -1, 1, 2)).fit(X, y), X))
    return lists


def test_settled_on_fitted_lists_holds_for_every_completion():
    settled = 0
    for (psl, _), cost_ratio in itertools.product(fitted_lists(), [1, 4, 10]):
        bands = StageBands(psl, 0.9)
        K = len(psl.scores_)
        for k in range(K + 1):
            for prefix in itertools.product([True, False, None], repeat=k):
                step = triage_step(bands, list(prefix), cost_ratio)
                if step.stop_reason != SETTLED:
                    continue
                settled += 1
                for rest in itertools.product([True, False, None], repeat=K - k):
                    assert triage_step(bands, list(prefix) + list(rest), cost_ratio).outcome == step.outcome
    assert settled > 0


# ---------------------------------------------------------------------------- look-ahead
def two_stage_totals(rows):
    """Training totals (n, 3) of the handmade list from (T_1, T_2, count) rows."""
    return np.repeat(np.array([[0, a, b] for a, b, _ in rows]), [c for *_, c in rows], axis=0)


def test_the_share_of_changed_outcomes_decides_the_stop():
    # M = 2, threshold 1/3. After "a = yes" (total 2, 280/500) the list rules in; at the end
    # total 3 (250/150) still rules in but total 2 (30/100) does not: not settled, so the
    # training patients with a = yes decide by how many of them end at total 2.
    bands = StageBands(handmade_list(COUNTS), 0.95)
    assert bands.outcomes(2, np.array([2, 3]), 1 / 3).tolist() == [0, 1]
    for changed, expect in ((3, UNLIKELY_TO_CHANGE), (5, None), (30, None)):
        rows = [(0, 0, 150), (0, 1, 50), (2, 2, changed), (2, 3, 100 - changed)]
        model = handmade_list(COUNTS, transition_counts(two_stage_totals(rows), [2]))
        bands = StageBands(model, 0.95)
        step = triage_step(bands, [True], cost_ratio=2)
        assert step.outcome == RULE_IN
        assert step.change_share == pytest.approx(changed / 100) and step.change_rows == 100
        assert (step.change_scope, step.change_reference) == ("answers", 2)
        assert step.stop_reason == expect
        # The tolerance is the clinician's: 10 % stops below 10 changed of 100, 1 % never here.
        assert (triage_step(bands, [True], 2, tolerance=0.1).stop_reason is not None) == (changed < 10)
        assert triage_step(bands, [True], 2, tolerance=0.01).stop_reason is None
    # An uncertain patient never stops on the share, however small.
    prior = triage_step(bands, [], cost_ratio=2)
    assert prior.outcome == UNCERTAIN and prior.stop_reason is None


def test_too_few_training_patients_with_these_answers_fall_back_to_the_stage():
    # Only 5 training patients have a = yes (fewer than MIN_ROWS = 20): the share is over
    # every training patient at stage 1 with the same outcome (ruled in: total 2).
    statistics = transition_counts(two_stage_totals([(0, 0, 200), (2, 3, 4), (2, 2, 1)]), [2])
    step = triage_step(StageBands(handmade_list(COUNTS, statistics), 0.95), [True], cost_ratio=2)
    assert step.outcome == RULE_IN and step.change_scope == "stage"
    assert step.change_rows == 5 and step.change_share == pytest.approx(1 / 5)
    assert step.stop_reason is None


def test_stop_stages_is_triage_step_for_every_patient():
    for psl, X in fitted_lists():
        bands = StageBands(psl, 0.95)
        totals = psl.stagewise_totals(X)
        holds = X[:, [literal.column for literal in psl.literals_]] > 0.5
        for cost_ratio, n_stages in itertools.product([1, 4, 10], [None, 2]):
            stop, codes = stop_stages(bands, totals, cost_ratio, n_stages)
            for i in range(0, len(X), 7):
                last = len(psl.scores_) if n_stages is None else n_stages
                expected = next(
                    k for k in range(last + 1)
                    if triage_step(bands, list(holds[i, :k]), cost_ratio, n_stages=n_stages).stop_reason is not None
                )
                assert stop[i] == expected
                step = triage_step(bands, list(holds[i, :expected]), cost_ratio, n_stages=n_stages)
                assert codes[i] == {RULE_OUT: -1, UNCERTAIN: 0, RULE_IN: 1}[step.outcome]


def test_answers_from_raw_values():
    psl = ProbabilisticScoringList.from_json(json.dumps(dict(list_file([2, 1], [[(1, 1)], [(1, 1), (1, 1)], [(1, 1)] * 4]))))
    assert answer_for(psl.literals_[0], 1) is True
    assert answer_for(psl.literals_[0], 0) is False
    assert answer_for(psl.literals_[1], None) is None
    assert answer_for(psl.literals_[1], float("nan")) is None
