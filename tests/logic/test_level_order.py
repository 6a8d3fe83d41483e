"""Ordered categories: the proposal from the column's own values, the order through preparing,
the learner, the words of the list and the bedside, and the model file."""

import json

import numpy as np
import pandas as pd
import pytest

from psl_core.binarization import read_columns
from psl_core.errors import DataError, PSLError
from psl_triage.bedside.questions import build_questions, condition
from psl_triage.data import (
    checked_order,
    infer_column_types,
    order_by_places,
    prepare_training_data,
    propose_level_order,
)
from psl_triage.model_file.store import open_model, save_model
from psl_triage.training.fit import train_list
from psl_triage.training.knowledge import knowledge_from_rows, knowledge_rows
from psl_triage.training.options import TrainingOptions
from psl_triage.training.tables import stage_condition
from psl_triage.words.editors import DIRECTION, DIRECTIONS
from tests.tables import SLEEP_LEVELS, dataset_session, sleep_table


@pytest.mark.parametrize("levels, expected", [
    (["5 hours", "10 or more hours", "4 or less hours", "7 hours"],
     ("4 or less hours", "5 hours", "7 hours", "10 or more hours")),
    (["3 to 5 days", "0 days", "1 or 2 days", "6 or more days"],
     ("0 days", "1 or 2 days", "3 to 5 days", "6 or more days")),
    (["Grade 3", "Grade 1", "Grade 2"], ("Grade 1", "Grade 2", "Grade 3")),
    (["stage 10", "stage 9"], ("stage 9", "stage 10")),
    # bands written with a thousands separator (as openintro's smoking.csv writes its incomes):
    # "1,500" is 1500, not 1, which would put it before "900 to 1,500"
    (["1,500 to 3,000", "3,000 or more", "0 to 900", "900 to 1,500"],
     ("0 to 900", "900 to 1,500", "1,500 to 3,000", "3,000 or more")),
])
def test_levels_with_numbers_are_proposed_in_the_numbers_order(levels, expected):
    assert propose_level_order(pd.Series(levels * 3 + [None])) == expected


@pytest.mark.parametrize("levels", [
    ["never", "sometimes", "always"],  # ordinal words: no evidence in the data
    ["Grade 1", "Grade 2", "not graded"],  # a level without a number
    ["<=20", "20-50", ">50"],  # two levels with the same first number
    ["1 or 2", "1 to 3"],
    ["5 hours"],  # one level
    ["1", "2", "4"],  # codes: chest pain types 1 to 4 have no order
    ["0 days", "1", "2 days"],
])
def test_no_proposal_without_evidence_or_with_ambiguous_numbers(levels):
    assert propose_level_order(pd.Series(levels * 2)) is None


def test_the_demo_proposes_no_order():
    """Its categorical columns are codes (chest pain 1..4, thal 3/6/7), their names words."""
    assert dataset_session(None).order_proposals() == {}


def test_an_ordered_pandas_categorical_is_proposed_in_its_own_order():
    series = pd.Series(pd.Categorical(["mild", "severe", "moderate", "mild"],
                                      categories=["mild", "moderate", "severe", "fatal"], ordered=True))
    assert propose_level_order(series) == ("mild", "moderate", "severe")  # absent "fatal" left out
    unordered = pd.Series(pd.Categorical(["mild", "severe", "moderate"]))
    assert propose_level_order(unordered) is None


def test_place_numbers_move_a_level_before_the_one_at_its_new_place():
    order = ("a", "b", "c", "d")
    assert order_by_places(order, [1, 2, 3, 2]) == ("a", "d", "b", "c")
    assert order_by_places(order, [4, 3, 2, 1]) == ("d", "c", "b", "a")
    assert order_by_places(order, [1, None, 3, 4]) == order
    assert checked_order(["a", "b"], ("b", "a")) == ("b", "a")
    assert checked_order(["a", "b", "c"], ("b", "a")) is None  # a level left out


def _prepared(table=None, order=SLEEP_LEVELS):
    table = sleep_table() if table is None else table
    types = infer_column_types(table.drop(columns="Outcome"))
    return prepare_training_data(table, types, "Outcome", 1, "learn", orders={"Sleep": order})


def test_an_order_reaches_the_learner_and_the_column_metadata():
    prepared = _prepared()
    column = prepared.X["Sleep"]
    assert column.cat.ordered and tuple(column.cat.categories) == SLEEP_LEVELS
    learned = {c.name: c.levels for c in read_columns(prepared.X, allow_missing=True)}
    assert learned == {"Sleep": SLEEP_LEVELS, "Age": None}  # the learner's Column carries the order
    info = prepared.columns["Sleep"]
    assert info.kind == "categorical" and info.levels == SLEEP_LEVELS
    assert tuple(info.category_labels) == SLEEP_LEVELS
    unordered = prepare_training_data(sleep_table(), {"Sleep": "categorical", "Age": "numeric"}, "Outcome", 1)
    assert unordered.columns["Sleep"].levels is None and not unordered.X["Sleep"].cat.ordered
    assert list(unordered.columns["Sleep"].category_labels)[0] == "10 or more hours"  # as before: by name


def test_an_order_that_leaves_out_a_level_is_refused_by_name():
    with pytest.raises(DataError, match=r"'Sleep' leaves out its 1 category '9 hours'"):
        _prepared(order=tuple(level for level in SLEEP_LEVELS if level != "9 hours"))


def test_the_session_offers_the_proposal_and_keeps_the_order():
    table = sleep_table()
    session = dataset_session(None, table, "sleep")
    session.choose_outcome("Outcome")
    assert session.order_proposals() == {"Sleep": SLEEP_LEVELS}
    assert session.refresh().columns["Sleep"].levels is None  # a proposal changes nothing by itself
    session.set_order("Sleep", SLEEP_LEVELS)
    assert session.order_proposals() == {} and session.level_order("Sleep") == SLEEP_LEVELS
    assert session.refresh().columns["Sleep"].levels == SLEEP_LEVELS
    assert session.column_table().set_index("column").loc["Sleep", "type"] == "categorical, ordered"
    session.set_types({**session.active.column_types, "Sleep": "ignore"})
    assert session.level_order("Sleep") is None and "Sleep" not in session.refresh().columns
    session.set_types({**session.active.column_types, "Sleep": "categorical"})
    assert session.level_order("Sleep") == SLEEP_LEVELS  # kept while the column was out
    session.set_order("Sleep", None)
    assert session.refresh().columns["Sleep"].levels is None


def test_a_direction_is_offered_for_an_ordered_column_only():
    prepared = _prepared()
    rows = knowledge_rows(prepared.columns)
    rows.loc["Sleep", DIRECTION] = DIRECTIONS["decreasing"]
    assert knowledge_from_rows(rows, {"Sleep": "ordered", "Age": "numeric"})[0] == {"Sleep": "decreasing"}
    with pytest.raises(PSLError, match="Sleep is categorical"):
        knowledge_from_rows(rows, {"Sleep": "categorical", "Age": "numeric"})


def _sleep_list(tmp_path=None):
    prepared = _prepared()
    options = TrainingOptions(monotone={"Sleep": "decreasing"}, required=["Sleep"], test_fraction=0.0)
    return prepared, *train_list(prepared, "sleep", options)


def test_never_fewer_points_with_fewer_hours_and_a_range_in_words():
    prepared, model, metadata = _sleep_list()
    literal = model.literals_[0]
    assert literal.column == "Sleep" and literal.categories is not None
    places = [SLEEP_LEVELS.index(str(level)) for level in literal.categories]
    assert places == list(range(min(places), max(places) + 1))  # a cut in the order
    columns = metadata["columns"]
    text = stage_condition(model, 1, columns)
    assert text.startswith("Sleep: ") and (" or more" in text or " or less" in text)
    question = build_questions(model, columns)[0]
    assert [value for value, _ in question.options] == list(SLEEP_LEVELS)
    assert question.condition == condition(literal, columns["Sleep"])


def test_the_model_file_keeps_the_levels(tmp_path):
    _, model, metadata = _sleep_list()
    stored = save_model(model, "sleep", metadata, tmp_path)
    document = json.loads(stored.path.read_text())
    assert document["metadata"]["columns"]["Sleep"]["levels"] == list(SLEEP_LEVELS)
    loaded = open_model(stored.path)
    readable = loaded.metadata.readable_columns()["Sleep"]
    assert readable["levels"] == list(SLEEP_LEVELS)
    assert [value for value, _ in build_questions(loaded.model, loaded.metadata.readable_columns())[0].options] == list(
        SLEEP_LEVELS)


@pytest.mark.parametrize("categories, negated, expected", [
    (("7 hours", "8 hours", "9 hours", "10 or more hours"), False, "Sleep: 7 hours or more"),
    (("4 or less hours", "5 hours"), False, "Sleep: 5 hours or less"),
    (("5 hours", "6 hours", "7 hours"), False, "Sleep: between 5 hours and 7 hours"),
    (("7 hours", "8 hours", "9 hours", "10 or more hours"), True, "Sleep: 6 hours or less"),
    (("9 hours", "10 or more hours"), False, "Sleep: 9 hours or more"),
    (("4 or less hours", "5 hours", "10 or more hours"), False, None),  # not a run: as psl_core says it
])
def test_a_grouping_of_ordered_levels_reads_as_a_range(categories, negated, expected):
    from psl_core.binarization import Literal

    literal = Literal("Sleep", "category", None, None, negated, categories=categories)
    info = {"label": "Sleep", "levels": list(SLEEP_LEVELS)}
    assert condition(literal, info) == (expected or literal.describe("Sleep"))
    assert condition(literal, {"label": "Sleep"}) == literal.describe("Sleep")  # unordered: as today


def test_a_model_file_with_levels_that_are_not_text_is_refused(tmp_path):
    from psl_core.errors import ModelFileError

    _, model, metadata = _sleep_list()
    document = json.loads(save_model(model, "sleep", metadata, tmp_path).path.read_text())
    document["metadata"]["columns"]["Sleep"]["levels"] = [4, 5]
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(document))
    with pytest.raises(ModelFileError, match="levels"):
        open_model(path)


def test_declaring_a_column_ordered_starts_from_its_proposal_else_from_the_names():
    table = sleep_table().assign(Mood=lambda frame: np.where(frame.index % 3 == 0, "never",
                                                             np.where(frame.index % 3 == 1, "sometimes", "always")))
    session = dataset_session(None, table, "sleep")
    session.choose_outcome("Outcome")
    assert session.levels("Sleep") == SLEEP_LEVELS
    assert session.levels("Mood") == ("always", "never", "sometimes")  # no evidence: by name, to be edited
    session.set_order("Mood", order_by_places(session.levels("Mood"), [3, 1, 2]))
    assert session.refresh().columns["Mood"].levels == ("never", "sometimes", "always")


def test_the_data_page_says_an_ordered_column_is_cut_only_with_a_direction():
    """Without a direction an ordered column is asked on one category too (gss2010.csv's
    degree, declared ordered, gave "degree = JUNIOR COLLEGE", its middle level); only a
    direction on Train keeps it to cuts in its order. The Data page said it "is asked by a
    cut in that order"."""
    from psl_core.binarization import candidate_features
    from psl_triage.words.data import ORDER_CAPTION

    prepared = _prepared()
    columns = read_columns(prepared.X, allow_missing=True)
    singles = {feature.category for feature in candidate_features(columns, prepared.y)
               if feature.column == "Sleep" and feature.category is not None}
    assert "6 hours" in singles  # a middle level alone: not a cut
    assert "is asked by a cut in that order" not in ORDER_CAPTION
    assert "one category" in ORDER_CAPTION and "only by cuts" in ORDER_CAPTION
