"""Categories grouped (issue 30): a categorical column with more than two levels may be asked
as one question ``x in {a, b}``, its levels ordered by the ordered categorical's order or by
event rate, cut like a numeric column."""

import numpy as np
import pandas as pd
import pytest

from psl_core import DataError, ProbabilisticScoringList
from psl_core.binarization import CATEGORY, Literal, candidate_features, read_columns
from psl_core.errors import RequiredColumnError

RISK = {"a": 0.1, "b": 0.5, "c": 0.12, "d": 0.55, "e": 0.1, "f": 0.5}


def interleaved(seed=1, n=900):
    """Six levels whose risks interleave: three high, three low."""
    rng = np.random.default_rng(seed)
    levels = rng.choice(list(RISK), n)
    y = (rng.random(n) < np.vectorize(RISK.get)(levels)).astype(int)
    return pd.DataFrame({"unit": levels, "noise": rng.normal(size=n)}), y


def test_a_six_level_column_is_one_question_on_its_high_risk_levels():
    X, y = interleaved()
    psl = ProbabilisticScoringList().fit(X, y)
    first = psl.literals_[0]
    assert first.column == "unit" and first.categories is not None
    high = {"b", "d", "f"}
    asked = set(first.categories)
    assert asked in (high, set(RISK) - high)
    assert psl.describe_stage(1) in {f"unit = {' or '.join(first.categories)}"}
    assert sum(literal.column == "unit" for literal in psl.literals_) <= 2  # not one question per level


def test_the_grouping_orders_levels_by_event_rate_and_an_ordered_categorical_by_its_order():
    X, y = interleaved()
    grouping = [f for f in candidate_features(read_columns(X), y) if f.levels is not None]
    assert len(grouping) == 1 and set(grouping[0].levels[-3:]) == {"b", "d", "f"}
    ordered = pd.DataFrame({"grade": pd.Categorical(["ii", "i", "iii", "i"], ["i", "ii", "iii"], ordered=True)})
    (feature,) = [f for f in candidate_features(read_columns(ordered)) if f.levels is not None]
    assert feature.levels == ("i", "ii", "iii")
    assert [set(feature.literal(c).categories) for c in range(len(feature.cuts))] == [
        {"i", "ii", "iii"}, {"ii", "iii"}, {"iii"}, set(),
    ]
    two = pd.DataFrame({"sex": ["f", "m", "f", "m"]})
    assert all(f.levels is None for f in candidate_features(read_columns(two), np.array([0, 1, 0, 1])))


@pytest.mark.parametrize("seed", range(6))
def test_an_ordered_monotone_category_never_gives_a_higher_level_fewer_points(seed):
    rng = np.random.default_rng(seed)
    n = 500
    levels = ["none", "mild", "moderate", "severe", "critical"]
    grade = rng.choice(levels, n)
    risk = dict(zip(levels, rng.permutation([0.1, 0.2, 0.35, 0.5, 0.6])))  # not monotone by itself
    y = (rng.random(n) < np.vectorize(risk.get)(grade)).astype(int)
    X = pd.DataFrame({"grade": pd.Categorical(grade, levels, ordered=True), "noise": rng.normal(size=n)})
    psl = ProbabilisticScoringList(monotone={"grade": "increasing"}, max_feature_uses=3).fit(X, y)
    column = np.array(levels, dtype=object)
    points = np.zeros(len(levels), dtype=int)
    for literal, score in zip(psl.literals_, psl.scores_):
        if literal.column == "grade":
            assert literal.categories is not None  # one-vs-rest is not monotone in the levels
            points = points + score * literal.evaluate(column)
            assert (np.diff(points) >= 0).all()


def test_a_monotone_ordered_category_is_cut_in_its_order_without_group_categories():
    """Its one-vs-rest questions cannot keep a direction: its cuts are its only questions, so it
    gets them with group_categories=False too. With two levels it has no cut besides its
    one-vs-rest question: a required one is then named, not a crash."""
    rng = np.random.default_rng(3)
    levels = ["none", "mild", "moderate", "severe"]
    place = rng.integers(0, 4, 400)
    y = (rng.random(400) < 0.1 + 0.2 * place).astype(int)
    X = pd.DataFrame({"grade": pd.Categorical(np.array(levels)[place], levels, ordered=True)})
    psl = ProbabilisticScoringList(group_categories=False, monotone={"grade": "increasing"}, required=["grade"]).fit(X, y)
    assert psl.literals_[0].column == "grade" and psl.literals_[0].categories is not None
    X["two"] = pd.Categorical(np.where(place > 1, "high", "low"), ["low", "high"], ordered=True)
    with pytest.raises(RequiredColumnError, match="required column 'two' has no question"):
        ProbabilisticScoringList(monotone={"two": "increasing"}, required=["two"]).fit(X, y)


def test_an_unordered_category_still_cannot_be_monotone():
    X, y = interleaved()
    with pytest.raises(DataError, match="categorical column 'unit'"):
        ProbabilisticScoringList(monotone={"unit": "increasing"}).fit(X, y)


def test_a_grouping_survives_the_model_file_and_a_missing_level():
    X, y = interleaved()
    X.loc[X.index[::9], "unit"] = None
    psl = ProbabilisticScoringList().fit(X, y)
    assert any(literal.categories is not None for literal in psl.literals_)
    loaded = ProbabilisticScoringList.from_json(psl.to_json())
    assert loaded.literals_ == psl.literals_
    np.testing.assert_array_equal(loaded.predict_proba(X), psl.predict_proba(X))


def test_a_grouping_quotes_its_levels_when_a_level_name_holds_or():
    """"Sleep = 5 hours or 4 or less hours" reads as three levels; quoted it reads as two
    (found with Stat2Data/YouthRisk2009 and openintro/yrbss's race in the browser)."""
    grouped = Literal("Sleep", CATEGORY, categories=("5 hours", "4 or less hours"))
    assert grouped.describe() == "Sleep = '5 hours' or '4 or less hours'"
    none_of = Literal("race", CATEGORY, categories=("Asian", "Black, not Hispanic"), negated=True)
    assert none_of.describe() == "race is none of 'Asian', 'Black, not Hispanic'"
    assert Literal("unit", CATEGORY, categories=("a", "b")).describe() == "unit = a or b"  # plain names stay


def provoking(seed, n):
    """Two categorical columns (two to five levels) and three yes/no columns with random
    effects: the search's later stages like to re-weight an early category question."""
    rng = np.random.default_rng(seed)
    X, logit = pd.DataFrame(), np.zeros(n)
    for j in range(2):
        levels = list("abcde"[: rng.integers(2, 6)])
        values = rng.choice(levels, n)
        X[f"c{j}"] = values
        effect = dict(zip(levels, rng.normal(0, 1.5, len(levels))))
        logit += np.vectorize(effect.get)(values)
    for j in range(3):
        answer = rng.random(n) < rng.uniform(0.2, 0.8)
        X[f"b{j}"] = answer.astype(int)
        logit += rng.normal(0, 1.5) * answer
    return X, (rng.random(n) < 1 / (1 + np.exp(-(logit - logit.mean())))).astype(int)


@pytest.mark.parametrize(("seed", "n"), [(0, 150), (1, 150), (5, 300), (7, 300), (4, 600)])
def test_a_question_asked_once_is_never_asked_again_in_another_form(seed, n):
    """Issue 37: "baseline_esr = 4_51+" at stage 1 with -3 and at stage 4 with +1. A category
    question, asked one-vs-rest, as a grouping or as its complement, is one question."""
    X, y = provoking(seed, n)
    psl = ProbabilisticScoringList().fit(X, y)
    asked = []
    for literal in psl.literals_:
        if literal.kind == CATEGORY:
            side = set(literal.categories) if literal.categories is not None else {literal.category}
            levels = set(X[literal.column])
            asked.append((literal.column, min(tuple(sorted(side)), tuple(sorted(levels - side)))))
    assert len(asked) == len(set(asked)), [psl.describe_stage(k) for k in range(1, psl.n_stages_)]


def test_a_two_level_column_asked_once_leaves_no_question_on_it():
    X = pd.DataFrame({"sex": np.repeat(["f", "m"], 50)})
    y = np.tile([0, 1], 50)
    y[:35] = 1
    psl = ProbabilisticScoringList(loss="entropy", min_support=1).fit(X, y)
    assert (psl.n_stages_, psl.end_reason_) == (2, "length")
