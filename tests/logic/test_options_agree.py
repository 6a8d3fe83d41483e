"""The estimator's parameters are declared once (psl_core.parameters): TrainingOptions, the
model file's JSON Schema and the Train page's choices agree with the declaration."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from psl_core import PAPER_SETUP, ProbabilisticScoringList
from psl_core.parameters import PARAMETER_CONSTRAINTS, parameter_choices, parameter_range
from psl_core.serialization import SCHEMA_FILE
from psl_core.serialization import schema as model_schema
from psl_triage.training.choices import NOT_OFFERED_CHOICES, NUMBER_CHOICES, RADIO_CHOICES, start_value
from psl_triage.training.options import LEARNER_OPTIONS, NOT_OFFERED, SET_BY_THE_APP, SETUPS, TrainingOptions
from psl_triage.training.session import FROM_TABLES, OPTION_NAMES
from psl_triage.words.train import CHOICE_LABELS, OPTION_LABELS
from tests.paths import ROOT
from ui.training import FORM_LAYOUT


def test_the_schemas_parameter_list_is_the_declared_one_in_both_copies():
    declared = set(PARAMETER_CONSTRAINTS)
    assert set(model_schema()["$defs"]["params"]["properties"]) == declared
    published = json.loads((ROOT / "docs" / SCHEMA_FILE).read_text(encoding="utf-8"))
    assert set(published["$defs"]["params"]["properties"]) == declared


def test_every_parameter_is_offered_left_at_its_default_or_set_by_the_app_once():
    groups = [set(LEARNER_OPTIONS), set(NOT_OFFERED), set(SET_BY_THE_APP)]
    assert set.union(*groups) == set(PARAMETER_CONSTRAINTS)
    assert sum(map(len, groups)) == len(PARAMETER_CONSTRAINTS)  # no parameter in two groups


def test_training_options_has_a_field_per_learner_option_defaulting_to_the_papers_setup():
    names = [f.name for f in fields(TrainingOptions)]
    assert names[: len(LEARNER_OPTIONS)] == list(LEARNER_OPTIONS)
    assert set(names) - set(LEARNER_OPTIONS) == {"test_fraction", "seed", "cost_ratio", "cost_unit"}
    defaults, estimator = TrainingOptions(), ProbabilisticScoringList().get_params()
    for name in LEARNER_OPTIONS:
        assert getattr(defaults, name) == PAPER_SETUP.get(name, estimator[name]), name
    assert defaults.setup() == "paper"


def test_the_options_reach_the_estimator_under_the_same_names():
    options = TrainingOptions(**SETUPS["recommended"], max_stages=3, seed=7)
    params = options.estimator().get_params()
    assert all(params[name] == getattr(options, name) for name in LEARNER_OPTIONS)
    assert params["random_state"] == 7 and params["recommend_folds"] is not None


@pytest.mark.parametrize("name", sorted(RADIO_CHOICES))
def test_a_radio_offers_what_the_estimator_accepts_each_with_words(name):
    accepted = set(parameter_choices(name))
    offered = set(RADIO_CHOICES[name])
    assert offered | set(NOT_OFFERED_CHOICES.get(name, ())) == accepted
    assert set(CHOICE_LABELS[name]) == offered
    assert start_value(name) in offered and all(setup[name] in offered for setup in SETUPS.values() if name in setup)


@pytest.mark.parametrize("name", sorted(set(NUMBER_CHOICES) & set(LEARNER_OPTIONS)))
def test_a_number_field_stays_within_what_the_estimator_accepts(name):
    low, high, _ = parameter_range(name)
    field = NUMBER_CHOICES[name]
    assert field["min_value"] >= low and (high is None or field.get("max_value", high) <= high)
    for setup in SETUPS.values():
        if name in setup:
            assert field["min_value"] <= setup[name] <= field.get("max_value", setup[name])


def test_the_page_has_a_widget_with_words_for_every_learner_option():
    in_form = {name for column in FORM_LAYOUT for name in column}
    assert set(LEARNER_OPTIONS) <= in_form | set(FROM_TABLES) | {"score_set", "cost_weight"}
    assert set(OPTION_NAMES) <= in_form | {"cost_weight"}
    assert in_form <= set(OPTION_LABELS)
