"""Where the full list ends (issue 37, psl_core.chance): past the recommended length a question
must lower the held-out score by more than chance, measured on the rows' paired differences."""

import numpy as np
import pandas as pd
import pytest

import psl_core.chance
from psl_core import ProbabilisticScoringList
from psl_core.binarization import candidate_features, read_columns
from psl_core.calibration import CALIBRATION_CODES
from psl_core.chance import REQUIRED_Z, kept_stages, stage_evidence
from psl_core.recommend import stratified_folds
from psl_core.search import CRITERION_CODES, LabelEvaluator, apply_option, greedy_search


def small_table(demo_csv_path, seed, permuted=False):
    """150 rows of heart_cleveland; with ``permuted`` the outcome is shuffled (no question helps)."""
    frame = pd.read_csv(demo_csv_path).dropna().sample(150, random_state=seed).reset_index(drop=True)
    y = (frame.pop("num") > 0).to_numpy(dtype=int)
    if permuted:
        y = np.random.default_rng(seed).permutation(y)
    return frame, y


def test_a_stages_paired_gain_is_the_criterions_improvement(demo_csv_path):
    X, y = small_table(demo_csv_path, 0)
    columns = read_columns(X)
    evaluator = LabelEvaluator(
        candidate_features(columns, y), y, (-3, -2, -1, 1, 2, 3), CALIBRATION_CODES["sigmoid"],
        CRITERION_CODES["cv_brier"], 2.0, stratified_folds(y, 5, 0, [c.values for c in columns]),
    )
    chosen, _ = greedy_search(evaluator, (-3, -2, -1, 1, 2, 3), 4, "bisect", 1, min_support=10)
    totals, reach = np.zeros(len(y), dtype=np.int64), (0, 0)
    for option in chosen:
        after = apply_option(evaluator.features, option, totals, reach)
        gain, se = psl_core.chance.paired_gain(evaluator, (totals, reach), after)
        evaluator.set_totals(totals, *reach)
        before_value = evaluator.current_value()
        evaluator.set_totals(after[0], *after[1])
        assert gain == pytest.approx(before_value - evaluator.current_value(), abs=1e-9) and se > 0  # the sigmoid fit's tolerance
        totals, reach = after
    assert stage_evidence(evaluator, chosen).shape == (len(chosen),)


def test_a_list_keeps_the_stages_up_to_the_last_question_that_beats_chance():
    z = np.array([5.0, 0.5, 3.0, 1.0, 0.5])
    assert kept_stages(z, 1) == 3  # stage 2 keeps its place before stage 3
    assert kept_stages(z, 3) == 3 and kept_stages(z, 4) == 4  # never fewer than the protected ones
    assert kept_stages(np.array([0.1, 0.2]), 0) == 0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_list_on_noise_ends_by_chance_at_its_recommended_length(demo_csv_path, seed):
    """150 rows with the outcome shuffled: every question's gain is chance, and before the rule
    the full list grew to 8 to 13 questions. No question past the recommended length gains
    more than REQUIRED_Z standard errors, so the list ends there."""
    X, y = small_table(demo_csv_path, seed, permuted=True)
    psl = ProbabilisticScoringList(recommend_folds=5).fit(X, y)
    assert psl.end_reason_ == "chance" and psl.n_stages_ - 1 == psl.recommended_stages_


def test_the_rule_keeps_the_recommended_length_and_its_stages(demo_csv_path, monkeypatch):
    X, y = small_table(demo_csv_path, 3)
    cut = ProbabilisticScoringList(recommend_folds=5).fit(X, y)
    monkeypatch.setattr(psl_core.chance, "REQUIRED_Z", -np.inf)
    whole = ProbabilisticScoringList(recommend_folds=5).fit(X, y)
    assert cut.end_reason_ == "chance" and whole.end_reason_ != "chance"
    assert cut.recommended_stages_ == whole.recommended_stages_ < cut.n_stages_ < whole.n_stages_
    for k in range(cut.n_stages_):
        assert np.array_equal(cut.stage_probabilities_[k], whole.stage_probabilities_[k])
    assert np.allclose(cut.predict_proba(X), whole.predict_proba(X, stage=cut.n_stages_ - 1))
    again = ProbabilisticScoringList.from_json(cut.to_json())
    assert (again.end_reason_, again.n_stages_) == ("chance", cut.n_stages_)


def test_without_recommend_folds_or_a_held_out_criterion_the_search_ends_as_before(demo_csv_path):
    X, y = small_table(demo_csv_path, 0, permuted=True)
    assert ProbabilisticScoringList().fit(X, y).end_reason_ != "chance"
    assert ProbabilisticScoringList(loss="entropy", recommend_folds=5).fit(X, y).end_reason_ != "chance"
    assert REQUIRED_Z > 0
