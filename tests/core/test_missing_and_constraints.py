"""Missing values learned by the search, and the clinicians' constraints (issue 30):
monotone columns, required and forbidden questions."""

import json

import numpy as np
import pandas as pd
import pytest
from test_search import naive_criterion, random_data

from psl_core import PAPER_SETUP, DataError, ProbabilisticScoringList, PSLError
from psl_core.binarization import numeric_cuts
from psl_core.candidates import score_tracks
from psl_core.recommend import stratified_folds


def with_missing(X, seed, share=0.25, columns=(0, 2)):
    rng = np.random.default_rng(seed + 1000)
    X = X.copy()
    for j in columns:
        X[rng.random(len(X)) < share, j] = np.nan
    return X


def missing_candidates(X, score_set, first_stage, used):
    """(column, score, negated, indicator) of every candidate, missing directions included:
    a column with missing values gives every literal twice, a missing answer counting as
    the literal's true and as its false side; a numeric column's outer cut on the missing
    answers' side asks "is the value missing?"."""
    for j in range(X.shape[1]):
        if j in used:
            continue
        column = X[:, j]
        missing = np.isnan(column)
        present = column[~missing]
        binary = np.isin(present, (0, 1)).all()
        base = np.array([0.5]) if binary else numeric_cuts(present)[0]
        for s, negated in score_tracks(score_set, first_stage):
            for high in (True, False) if missing.any() else (None,):
                cuts = base.copy()
                if high is not None and not binary:
                    cuts[-1 if high else 0] = np.inf if high else -np.inf
                for cut in cuts:
                    hit = column > cut
                    if high is not None:
                        hit = np.where(missing, high, hit)
                    yield j, s, negated, (hit != negated).astype(int)


@pytest.mark.parametrize("loss", ["entropy", "cv_brier"])
@pytest.mark.parametrize("seed", range(5))
def test_with_missing_values_each_stage_is_the_exhaustive_minimizer(seed, loss):
    X, y = random_data(seed, n=60)
    X = with_missing(X, seed)
    score_set = (-2, -1, 1, 2)
    psl = ProbabilisticScoringList(
        score_set=score_set, calibration="isotonic", prior_strength=0.0, threshold_search="brute",
        loss=loss, cv_folds=3, random_state=seed, max_feature_uses=1, min_support=1,
    ).fit(X, y)
    assert psl.literals_
    folds = stratified_folds(y, 3, seed, list(X.T))
    totals = np.zeros(len(y), dtype=int)
    used = set()
    for k, (literal, score) in enumerate(zip(psl.literals_, psl.scores_)):
        best = min(
            naive_criterion(totals + s * hit, y, loss, folds)
            for _, s, _, hit in missing_candidates(X, score_set, k == 0, used)
        )
        chosen_hit = literal.evaluate(X[:, literal.column])
        assert psl.stage_criterion_[k + 1] == pytest.approx(best, abs=1e-9)
        assert naive_criterion(totals + score * chosen_hit, y, loss, folds) == pytest.approx(best, abs=1e-9)
        if np.isnan(X[:, literal.column]).any():
            assert literal.missing is not None
        totals = totals + score * chosen_hit
        used.add(literal.column)


@pytest.mark.parametrize("seed", range(3))
def test_on_complete_rows_the_list_is_the_one_without_missing_handling(seed):
    X, y = random_data(seed, n=200)
    learned = ProbabilisticScoringList(random_state=seed).fit(X, y)
    refused = ProbabilisticScoringList(random_state=seed, missing="error").fit(X, y)
    def questions(model):
        return [(lit.column, lit.threshold, lit.category, lit.negated) for lit in model.literals_]

    assert questions(learned) == questions(refused) and learned.scores_ == refused.scores_
    assert all(literal.missing is None for literal in refused.literals_)
    assert not any(literal.missing_learned for literal in learned.literals_)
    np.testing.assert_array_equal(learned.predict_proba(X), refused.predict_proba(X))


def signal_in_missingness(n=1200, seed=0):
    """A lab value that is mostly not ordered for patients who look well: its missingness
    carries the outcome, its value a little more."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    lab = rng.normal(size=n) + 0.8 * y
    ordered = rng.random(n) < np.where(y, 0.9, 0.3)
    return pd.DataFrame({
        "lab": np.where(ordered, lab, np.nan),
        "age": rng.normal(60, 10, n) + 3 * y,
        "sex": np.where(rng.random(n) < 0.5, "f", "m"),
    }), y.astype(int)


def test_a_missing_answer_goes_where_the_list_learned():
    X, y = signal_in_missingness()
    psl = ProbabilisticScoringList(max_stages=3).fit(X, y)
    on_lab = [(literal, score) for literal, score in zip(psl.literals_, psl.scores_) if literal.column == "lab"]
    assert on_lab, "the missingness of the lab carries the outcome: the list asks about it"
    assert all(literal.missing is not None for literal, _ in on_lab)
    # Points a missing lab gets, by the learned directions: fewer than a measured one's on average.
    missing_points = sum(score * literal.missing for literal, score in on_lab)
    measured = X["lab"].notna()
    lab_points = psl.stagewise_totals(X)[:, -1] - psl.stagewise_totals(X.assign(lab=0.0))[:, -1]
    assert np.all(lab_points[~measured] == missing_points - sum(
        score * literal.evaluate(np.array([0.0]))[0] for literal, score in on_lab
    ))
    assert psl.predict_proba(X)[~measured, 1].mean() < psl.predict_proba(X)[measured, 1].mean()


def test_a_column_without_missing_training_values_sends_them_to_its_common_answer():
    X, y = signal_in_missingness()
    psl = ProbabilisticScoringList(max_stages=3, required=["age"]).fit(X, y)
    age = psl.literals_[0]
    assert age.column == "age" and not age.missing_learned
    assert age.missing == (age.evaluate(X["age"].to_numpy()).mean() > 0.5)
    unseen = X.assign(age=np.nan)
    np.testing.assert_array_equal(
        psl.stagewise_totals(unseen)[:, 1], np.full(len(X), psl.scores_[0] * int(age.missing)),
    )
    with pytest.raises(DataError, match="'age' has missing values"):
        ProbabilisticScoringList(missing="error", required=["age"]).fit(X.fillna(0), y).predict_proba(
            unseen.fillna({"lab": 0}),
        )


def test_every_row_is_kept_and_text_categories_may_be_missing():
    X, y = signal_in_missingness()
    X.loc[X.index[::7], "sex"] = None
    psl = ProbabilisticScoringList().fit(X, y)
    assert psl.stagewise_totals(X).shape[0] == len(X)
    assert int(np.sum(psl.stage_positives_[0]) + np.sum(psl.stage_negatives_[0])) == len(X)


def monotone_data(seed, n=300):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.normal(size=n), rng.integers(0, 6, n).astype(float), rng.integers(0, 2, n).astype(float)])
    # Noise and a U-shape, so that an unconstrained list would give some higher values fewer points.
    logit = 1.5 * np.sin(2 * X[:, 0]) - 0.4 * X[:, 1] + (X[:, 1] - 2.5) ** 2 / 3 + X[:, 2] - 0.5
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    return with_missing(X, seed, 0.1, (0,)), y


@pytest.mark.parametrize("seed", range(8))
def test_a_monotone_column_never_gives_a_higher_value_fewer_points(seed):
    X, y = monotone_data(seed)
    rng = np.random.default_rng(seed)
    directions = {j: str(rng.choice(["increasing", "decreasing"])) for j in range(3)}
    psl = ProbabilisticScoringList(monotone=directions, min_support=5, max_feature_uses=3).fit(X, y)
    grid = np.unique(X[~np.isnan(X)])
    for j, direction in directions.items():
        points = np.zeros(len(grid), dtype=int)
        for literal, score in zip(psl.literals_, psl.scores_):
            if literal.column == j:
                points = points + score * literal.evaluate(grid)
            steps = np.diff(points)  # at every stage
            assert (steps >= 0).all() if direction == "increasing" else (steps <= 0).all(), (j, direction)


def test_without_the_constraint_the_same_data_breaks_monotonicity():
    """The data of the property test is not monotone by itself: the test has something to catch."""
    broken = 0
    for seed in range(8):
        X, y = monotone_data(seed)
        psl = ProbabilisticScoringList(min_support=5, max_feature_uses=3).fit(X, y)
        for j in (0, 1):
            grid = np.unique(X[~np.isnan(X[:, j]), j])
            points = sum(
                (score * literal.evaluate(grid) for literal, score in zip(psl.literals_, psl.scores_)
                 if literal.column == j), np.zeros(len(grid), dtype=int),
            )
            steps = np.diff(points)
            broken += (steps > 0).any() and (steps < 0).any()
    assert broken > 0


@pytest.mark.parametrize("seed", range(6))
def test_forbidden_columns_are_never_asked_and_required_ones_come_first(seed):
    X, y = monotone_data(seed)
    rng = np.random.default_rng(seed)
    order = [int(j) for j in rng.permutation(3)]
    psl = ProbabilisticScoringList(forbidden=[order[0]], required=[order[2], order[1]], **PAPER_SETUP).fit(X, y)
    assert order[0] not in psl.features_
    assert psl.features_[:2] == [order[2], order[1]]


def test_required_columns_are_asked_even_when_they_do_not_help():
    X, y = signal_in_missingness()
    X["noise"] = np.random.default_rng(3).normal(size=len(X))
    psl = ProbabilisticScoringList(required=["noise"]).fit(X, y)
    assert psl.features_[0] == "noise" and len(psl.features_) > 1


def test_a_required_column_that_cannot_be_asked_is_named_with_what_to_do():
    X, y = signal_in_missingness(200)
    X["rare"] = np.r_[np.ones(5, int), np.zeros(195, int)]
    with pytest.raises(DataError, match="required column 'rare' has no question .* lower min_support") as caught:
        ProbabilisticScoringList(required=["rare"]).fit(X, y)
    assert (caught.value.column, caught.value.min_support) == ("rare", 10)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"monotone": {"age": "up"}}, "monotone\\['age'\\] must be one of"),
        ({"monotone": ["age"]}, "monotone must be a mapping"),
        ({"monotone": {"weight": "increasing"}}, "'weight', which is not a column"),
        ({"required": "age"}, "required must be a list"),
        ({"forbidden": ["age", "age"]}, "lists a column twice"),
        ({"required": ["age"], "forbidden": ["age"]}, "both required and forbidden"),
        ({"missing": "impute"}, "'missing' parameter .* must be a str among"),
    ],
)
def test_bad_constraints_name_the_parameter(params, message):
    X, y = signal_in_missingness(200)
    with pytest.raises(PSLError, match=message):
        ProbabilisticScoringList(**params).fit(X, y)


def test_a_categorical_column_cannot_be_monotone():
    X, y = signal_in_missingness(200)
    with pytest.raises(DataError, match="categorical column 'sex'.*no order"):
        ProbabilisticScoringList(monotone={"sex": "increasing"}).fit(X, y)


def test_learned_directions_and_constraints_survive_the_model_file():
    X, y = signal_in_missingness()
    X.loc[X.index[::5], "sex"] = None
    psl = ProbabilisticScoringList(
        monotone={"age": "increasing"}, forbidden=["sex"], required=["age"], max_stages=4,
    ).fit(X, y)
    assert any(literal.asks_missing for literal in psl.literals_) or any(
        literal.missing is not None for literal in psl.literals_
    )
    text = psl.to_json()
    loaded = ProbabilisticScoringList.from_json(text)
    assert loaded.literals_ == psl.literals_
    for name in ("missing", "monotone", "required", "forbidden"):
        assert loaded.get_params()[name] == psl.get_params()[name]
    np.testing.assert_array_equal(loaded.predict_proba(X), psl.predict_proba(X))
    np.testing.assert_array_equal(loaded.stagewise_totals(X), psl.stagewise_totals(X))


def test_a_list_that_asks_whether_a_value_is_missing_is_saved_without_infinity():
    X, y = signal_in_missingness()
    X["lab"] = X["lab"].where(X["lab"].isna(), np.random.default_rng(1).normal(size=len(X)))  # value: noise
    psl = ProbabilisticScoringList(max_stages=1).fit(X, y)
    assert psl.literals_[0].asks_missing, "the strongest single question: is the lab missing?"
    stage = json.loads(psl.to_json())["stages"][0]
    assert stage["threshold"] is None and stage["missing"] in (True, False)
    assert psl.describe_stage(1).startswith("lab ") and "measured" in psl.describe_stage(1)


def test_a_file_from_before_missing_values_were_learned_loads_unchanged():
    X, y = random_data(0, n=200)
    document = json.loads(ProbabilisticScoringList(missing="error").fit(X, y).to_json())
    for name in ("missing", "monotone", "required", "forbidden"):
        del document["params"][name]
    older = ProbabilisticScoringList.from_json(json.dumps(document))
    assert older.missing == "error" and older.monotone is None
    assert all(literal.missing is None for literal in older.literals_)
    with pytest.raises(DataError, match="missing values"):
        older.predict_proba(with_missing(X, 0))
