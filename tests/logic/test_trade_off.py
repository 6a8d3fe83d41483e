"""Where M matters (issue 26, item 6): the range of M over which a list decides anything."""

import numpy as np
import pytest

from psl_core.cost_ratio import decision_threshold
from psl_core.decision import decision_range
from psl_triage.training.fit import train_list
from psl_triage.training.options import DEFAULT_SETUP, SETUPS, TrainingOptions
from psl_triage.words import shown
from psl_triage.words.trade_off import m_range_text


@pytest.fixture(scope="module")
def demo_list(demo_prepared):
    # The Train page's default setup (the recommended one), as a new user trains the demo.
    return train_list(demo_prepared, "Heart disease (UCI, Cleveland)", TrainingOptions(**SETUPS[DEFAULT_SETUP]))


def test_the_demo_at_default_settings_states_the_range_and_that_it_rules_nobody_out(demo_list):
    model, metadata = demo_list
    found = decision_range(model)
    assert found.stage == model.recommended_stages_
    low, high = found.changes
    assert 0 <= low < 1 < high < 10  # the paper's M = 10 lies outside
    text, one_sided = m_range_text(model, 10, "heart disease", "no heart disease")
    said = shown(text)
    # Since issue 37 the intervals hold the risk after the search, and the demo's rule nobody in: the
    # range then starts at 0.
    where = f"M is below {high:.2g}" if low == 0 else f"M lies between {low:.2g} and {high:.2g}"
    assert f"decides differently from the base rate alone only when {where}" in said
    assert "At M = 10 (threshold 9.1%) it changes no training patient's decision" in said
    assert "treated as **heart disease**" in said
    assert "it can rule nobody out" in said and one_sided
    text, one_sided = m_range_text(model, 1, "heart disease", "no heart disease")
    assert "it changes the decision for" in text and "rule nobody" not in text and not one_sided


@pytest.mark.parametrize("basis", ["upper", "point"])
def test_the_range_is_where_some_training_patient_is_decided_otherwise(demo_list, basis):
    """Brute force over a grid of M: the list changes a decision at some stage exactly inside the
    range, and rules someone out (in) exactly below (above) its limit."""
    model, _ = demo_list
    found = decision_range(model, basis=basis)
    _, prior_lower, prior_point, prior_upper = model.stage_interval(0)
    for m in np.geomspace(0.05, 500, 400):
        t = decision_threshold(m)
        prior = (prior_upper[0] >= t) if basis == "upper" else (prior_point[0] > t)
        changed = ruled_out = ruled_in = False
        for k in range(1, found.stage + 1):
            _, lower, point, upper = model.stage_interval(k)
            seen = (model.stage_positives_[k] + model.stage_negatives_[k]) > 0
            action = (upper >= t) if basis == "upper" else (point > t)
            changed |= bool((action[seen] != prior).any())
            ruled_out |= bool((upper[seen] < t).any())
            ruled_in |= bool((lower[seen] > t).any())
        low, high = found.changes
        assert changed == (low <= m < high), m
        assert ruled_out == found.can_rule_out(m) and ruled_in == found.can_rule_in(m), m


def test_a_list_without_questions_changes_nothing(demo_prepared):
    model, _ = train_list(demo_prepared, "demo", TrainingOptions(min_support=10_000))
    assert model.literals_ == []
    assert decision_range(model).changes is None
    text, one_sided = m_range_text(model, 10)
    assert "At no M does the list" in text and one_sided


def test_a_one_question_length_reads_its_first_question(demo_list):
    model, _ = demo_list
    text, _ = m_range_text(model, 10, "heart disease", "no heart disease", stage=1)
    assert "within its first question" in text and "first 1 question" not in text
