"""Question costs: checked, saved with the list, steering the search and the bedside stop."""

import json

import numpy as np
import pandas as pd
import pytest

from psl_core import ModelFileError, ProbabilisticScoringList, PSLError
from psl_core.costs import (
    check_change_value,
    check_cost_groups,
    check_cost_weight,
    check_question_costs,
    not_worth_asking,
    search_penalties,
    stage_costs,
)
from psl_core.decision import NOT_WORTH_COST, StageBands, stop_stages, triage_step


@pytest.fixture(scope="module")
def data():
    """Two exact copies of one informative measurement ("scan" listed first, "exam" second)
    and a weaker free one: without costs the search takes "scan" (the first of equals)."""
    rng = np.random.default_rng(7)
    n = 400
    signal = rng.normal(0, 1, n)
    X = pd.DataFrame({
        "scan": signal.round(2),
        "exam": signal.round(2),
        "age": (50 + 10 * rng.normal(0, 1, n) + 4 * signal).round(),
    })
    y = (rng.random(n) < 1 / (1 + np.exp(-2.5 * signal))).astype(int)
    return X, y


def fingerprint(model):
    return (model.features_, model.thresholds_, model.scores_,
            [np.round(q, 12).tolist() for q in model.stage_probabilities_])


def test_costs_without_weight_leave_the_list_as_it_was(data):
    X, y = data
    plain = ProbabilisticScoringList(max_stages=3).fit(X, y)
    costed = ProbabilisticScoringList(max_stages=3, question_costs={"scan": 50, "exam": 1}).fit(X, y)
    assert fingerprint(costed) == fingerprint(plain)
    assert plain.features_[0] == "scan"
    assert plain.stage_costs_.tolist() == [0.0] * len(plain.literals_)
    assert costed.stage_costs_[0] == 50


def test_the_weighted_search_asks_the_cheap_copy_first(data):
    X, y = data
    model = ProbabilisticScoringList(max_stages=3, question_costs={"scan": 50, "exam": 1}, cost_weight=0.1).fit(X, y)
    assert model.features_[0] == "exam"
    assert "scan" not in model.features_  # its copy already answers it: never worth paying for
    # The criteria and probabilities are the plain ones of the chosen questions.
    plain_exam = ProbabilisticScoringList(max_stages=3).fit(X.drop(columns="scan"), y)
    assert fingerprint(model) == fingerprint(plain_exam)


def test_a_column_asked_before_costs_nothing():
    assert stage_costs({"a": 3.0, "b": 2.0}, ["a", "b", "a", "c"]).tolist() == [3.0, 2.0, 0.0, 0.0]
    assert stage_costs(None, ["a"]).tolist() == [0.0]


def test_a_group_is_paid_once_at_its_dearest_column():
    costs, groups = {"hr": 5.0, "st": 4.0, "ca": 20.0}, {"hr": "exercise test", "st": "exercise test"}
    assert stage_costs(costs, ["st", "ca", "hr", "age"], groups).tolist() == [5.0, 20.0, 0.0, 0.0]
    assert check_cost_groups({"hr": "exercise test"}, ["hr", "st"]) == {"hr": "exercise test"}
    assert check_cost_groups({}) is None


@pytest.mark.parametrize("groups, message", [
    ([("hr", "x")], "must be a mapping"),
    ({"hr": ""}, r"cost_groups\['hr'\] must be a group name"),
    ({"hr": 3}, "must be a group name"),
    ({"nope": "x"}, "cost_groups names 'nope', which is not a column of X"),
])
def test_bad_cost_groups_are_named(groups, message):
    with pytest.raises(PSLError, match=message):
        check_cost_groups(groups, ["hr", "st"])


def test_the_weighted_search_asks_a_paid_groups_columns_for_free(data):
    """With "scan" and "exam" one test, asking one pays for the other: the weighted search
    may then take the second at no cost, and the bedside charges it nothing."""
    X, y = data
    X = X.assign(exam=X["exam"] + np.random.default_rng(0).normal(0, 0.3, len(X)).round(2))
    groups = {"scan": "imaging", "exam": "imaging"}
    model = ProbabilisticScoringList(
        max_stages=3, question_costs={"scan": 50, "exam": 50}, cost_groups=groups, cost_weight=0.1,
    ).fit(X, y)
    assert {"scan", "exam"} <= set(model.features_)  # the second of the group came free
    costs = model.stage_costs_
    assert costs.tolist() == [50.0, 0.0, 0.0]  # one payment, however many of its columns are asked
    alone = ProbabilisticScoringList(max_stages=3, question_costs={"scan": 50, "exam": 50}, cost_weight=0.1).fit(X, y)
    assert "exam" not in alone.features_  # paid for on its own, it is not worth it
    loaded = ProbabilisticScoringList.from_json(model.to_json())
    assert loaded.cost_groups == groups and loaded.stage_costs_.tolist() == costs.tolist()


def test_search_penalties_scale_with_the_largest_cost():
    penalties = search_penalties(["a", "b", "b", "c"], {"a": 10.0, "b": 5.0}, 0.2, -3.0)
    np.testing.assert_allclose(penalties.penalty, [0.6, 0.3, 0.3, 0.0])
    assert penalties.payers == [("column", "a"), ("column", "b"), ("column", "b"), ("column", "c")]
    # A group costs its dearest column, for each of its candidates.
    grouped = search_penalties(["a", "b", "c"], {"a": 10.0, "b": 5.0}, 0.2, -3.0, {"b": "lab", "c": "lab"})
    np.testing.assert_allclose(grouped.penalty, [0.6, 0.3, 0.3])
    assert grouped.payers[1] == grouped.payers[2] == ("group", "lab")
    assert search_penalties(["a"], {"a": 10.0}, 0.0, 1.0) is None
    assert search_penalties(["a"], {"a": 0.0}, 0.5, 1.0) is None
    assert search_penalties(["a"], None, 0.5, 1.0) is None


@pytest.mark.parametrize("costs, message", [
    ([("a", 1)], "must be a mapping"),
    ({"a": -1}, r"question_costs\['a'\] must be a finite number >= 0"),
    ({"a": float("nan")}, "finite number"),
    ({"a": float("inf")}, "finite number"),
    ({"a": True}, "finite number"),
    ({"a": "3"}, "finite number"),
    ({1.5: 1}, "keys must be column names or positions"),
])
def test_bad_costs_are_named(costs, message):
    with pytest.raises(PSLError, match=message):
        check_question_costs(costs)
    with pytest.raises(PSLError, match=message):
        ProbabilisticScoringList(question_costs=costs)._check_params()


def test_a_cost_for_an_unknown_column_is_named_at_fit(data):
    X, y = data
    with pytest.raises(PSLError, match=r"question_costs names 'scna', which is not a column of X"):
        ProbabilisticScoringList(question_costs={"scna": 2}).fit(X, y)
    # Positions for an array.
    with pytest.raises(PSLError, match="question_costs names 5"):
        ProbabilisticScoringList(question_costs={5: 2}).fit(X.to_numpy(), y)


@pytest.mark.parametrize("weight", [-0.1, float("nan"), float("inf"), True, "0.1"])
def test_bad_cost_weights_are_named(weight):
    with pytest.raises(PSLError, match="cost_weight must be a finite number >= 0"):
        check_cost_weight(weight)


@pytest.mark.parametrize("value", [0, -1, float("nan"), float("inf"), True])
def test_bad_change_values_are_named(value):
    with pytest.raises(PSLError, match="change_value must be a finite number > 0"):
        check_change_value(value)


def test_costs_round_trip_through_the_model_file(data):
    X, y = data
    costs = {"scan": 50.0, "exam": 1.5}
    model = ProbabilisticScoringList(max_stages=2, question_costs=costs, cost_weight=0.1).fit(X, y)
    document = json.loads(model.to_json())
    assert document["params"]["question_costs"] == [{"column": "scan", "cost": 50.0}, {"column": "exam", "cost": 1.5}]
    loaded = ProbabilisticScoringList.from_json(model.to_json())
    assert loaded.question_costs == costs and loaded.cost_weight == 0.1
    assert loaded.stage_costs_.tolist() == model.stage_costs_.tolist()
    # Array input: positions, which JSON keeps as numbers.
    array_model = ProbabilisticScoringList(max_stages=2, question_costs={0: 4}).fit(X.to_numpy(), y)
    assert ProbabilisticScoringList.from_json(array_model.to_json()).question_costs == {0: 4.0}


def test_a_file_from_before_costs_loads_without_them(data):
    X, y = data
    document = json.loads(ProbabilisticScoringList(max_stages=2).fit(X, y).to_json())
    del document["params"]["question_costs"], document["params"]["cost_weight"]
    loaded = ProbabilisticScoringList.from_json(json.dumps(document))
    assert loaded.question_costs is None and loaded.cost_weight == 0
    assert StageBands(loaded).costs is None


@pytest.mark.parametrize("entries, message", [
    ([{"column": "scan", "cost": 1}, {"column": "scan", "cost": 2}], "gives a column's cost twice"),
    ([{"column": "nope", "cost": 1}], "question_costs names 'nope'"),
    ([{"column": "scan", "cost": -1}], "cost"),
    ([{"column": "scan"}], "cost"),
])
def test_broken_costs_in_a_file_are_rejected(data, entries, message):
    X, y = data
    document = json.loads(ProbabilisticScoringList(max_stages=2).fit(X, y).to_json())
    document["params"]["question_costs"] = entries
    with pytest.raises(ModelFileError, match=message):
        ProbabilisticScoringList.from_json(json.dumps(document))


def test_not_worth_asking_compares_the_expected_gain_with_the_cost():
    assert not_worth_asking(0.1, 20, 100)          # 0.1 x 100 = 10 < 20
    assert not not_worth_asking(0.3, 20, 100)      # 30 >= 20
    assert not not_worth_asking(None, 20, 100)     # no statistics: no cost stop
    assert not not_worth_asking(0.1, 20, None)     # no value: no cost stop
    assert not not_worth_asking(0.0, 0, 100)       # a free question is always worth asking


@pytest.fixture(scope="module")
def costed(data):
    X, y = data
    return ProbabilisticScoringList(recommend_folds=3, question_costs={"scan": 50, "exam": 50, "age": 1}).fit(X, y)


def test_the_bedside_stops_before_a_question_not_worth_its_cost(costed, data):
    X, _ = data
    bands = StageBands(costed)
    totals = costed.stagewise_totals(X)
    free_stop, free_codes = stop_stages(bands, totals, 1.0)
    tight_stop, _ = stop_stages(bands, totals, 1.0, change_value=1e-6)
    # A value this small makes every paid question not worth it: nobody is asked one.
    paid = np.flatnonzero(costed.stage_costs_ > 0)
    assert (tight_stop <= paid[0]).all()
    # Without a value, the costs change nothing.
    same_stop, same_codes = stop_stages(bands, totals, 1.0, change_value=None)
    assert (same_stop == free_stop).all() and (same_codes == free_codes).all()
    # A larger value never stops earlier than a smaller one.
    for low, high in ((10.0, 100.0), (100.0, 1e4)):
        assert (stop_stages(bands, totals, 1.0, change_value=low)[0]
                <= stop_stages(bands, totals, 1.0, change_value=high)[0]).all()


def test_the_step_names_the_cost_stop(costed):
    bands = StageBands(costed)
    steps = [
        triage_step(bands, [bool(b) for b in np.binary_repr(code, k)] if k else [], 1.0, change_value=1.0)
        for k in range(len(costed.literals_)) for code in range(2 ** k)
    ]
    stopped = [s for s in steps if s.stop_reason == NOT_WORTH_COST]
    assert stopped
    for step in stopped:
        assert step.change_share * 1.0 < costed.stage_costs_[step.stage]


def test_the_evaluation_runs_the_bedside_rule_with_the_cost_stop(data):
    from psl_core.evaluation import STEPWISE, monte_carlo_cv

    X, y = data
    costs = {"scan": 50.0, "exam": 50.0, "age": 1.0}

    def questions(change_value):
        result = monte_carlo_cv(
            X, y, lambda: ProbabilisticScoringList(max_stages=4, question_costs=costs), n_splits=3, cost_ratio=1.0,
            n_jobs=1, change_value=change_value,
        )
        rows = result.three_way
        asked = rows[(rows["rule"] == STEPWISE) & (rows["measure"] == "questions")]["value"]
        return asked.mean(), result.settings["change_value"]

    free, _ = questions(None)
    dear, value = questions(0.5)
    assert value == 0.5 and dear < free  # 0.5 x any share < 1: no paid question is asked
    assert dear == 0
