"""The Train page's table of what clinicians know (psl_triage.training.knowledge), into the learner's
constraints (issue 30)."""

from dataclasses import dataclass

import pytest

from psl_core.errors import PSLError
from psl_triage.training.fit import train_list
from psl_triage.training.knowledge import knowledge_from_rows, knowledge_rows
from psl_triage.training.options import TrainingOptions
from psl_triage.words.editors import ASKED, ASKS, DIRECTION, DIRECTIONS


@dataclass
class Info:
    display_name: str


COLUMNS = {"age": Info("Age"), "chol": Info("Cholesterol"), "cp": Info("Chest pain"), "sex": Info("Sex")}
KINDS = {"age": "numeric", "chol": "numeric", "cp": "categorical", "sex": "binary"}


def test_nothing_is_proposed():
    rows = knowledge_rows(COLUMNS)
    assert set(rows[DIRECTION]) == {DIRECTIONS[""]} and set(rows[ASKED]) == {ASKS[""]}
    assert knowledge_from_rows(rows, KINDS) == (None, None, None)


def test_choices_become_the_learners_constraints_in_table_order():
    rows = knowledge_rows(
        COLUMNS, {"age": "increasing", "sex": "decreasing"}, {"cp": "first", "age": "first", "chol": "never"},
    )
    assert knowledge_from_rows(rows, KINDS) == (
        {"age": "increasing", "sex": "decreasing"}, ["age", "cp"], ["chol"],
    )


def test_a_categorical_column_has_no_direction():
    rows = knowledge_rows(COLUMNS, {"cp": "increasing"})
    with pytest.raises(PSLError, match="Chest pain is categorical"):
        knowledge_from_rows(rows, KINDS)


def test_the_trained_list_keeps_to_them(demo_prepared):
    options = TrainingOptions(max_stages=4, required=["cp"], forbidden=["thal"], monotone={"age": "increasing"})
    model, metadata = train_list(demo_prepared, "demo", options)
    assert model.features_[0] == "cp" and "thal" not in model.features_
    assert all(
        (score > 0) != literal.negated for literal, score in zip(model.literals_, model.scores_)
        if literal.column == "age"
    )
    assert model.get_params()["monotone"] == {"age": "increasing"}
    assert "monotone" not in metadata["training_options"]
