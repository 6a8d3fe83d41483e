"""Calibration, ROC and Monte Carlo evaluation (psl_core.evaluation) against values
computed independently here: by hand on tiny datasets, with scikit-learn, or with the
model's own per-split methods."""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score, roc_curve
from sklearn.model_selection import StratifiedShuffleSplit

from psl_core import ProbabilisticScoringList
from psl_core.decision import StageBands, triage_step
from psl_core.errors import DataError, PSLError
from psl_core.evaluation import (
    FIXED_STAGE,
    LR_REGULARIZED,
    LR_UNREGULARIZED,
    MEASURES,
    METHODS,
    PSL,
    STEPWISE,
    band_summary,
    brier_decomposition,
    expected_calibration_error,
    hull_segments,
    isotonic_recalibration,
    monte_carlo_cv,
    reliability_table,
    roc_table,
)
from psl_core.logistic import fit_logistic
from psl_core.metrics import stagewise_metrics
from psl_core.stopping import DEFAULT_TOLERANCE

SPLITS = 4
COST_RATIO = 2.0  # threshold 1/3: decisions of both kinds on the demo data
CONFIDENCE = 0.9
LEVELS = (0.5, 0.8, 0.9, 0.99)


def make_list():
    return ProbabilisticScoringList(max_stages=6)


@pytest.fixture(scope="module")
def cv(demo_prepared):
    return monte_carlo_cv(
        demo_prepared.X, demo_prepared.y, make_list, n_splits=SPLITS, seed=3, cost_ratio=COST_RATIO,
        confidence=CONFIDENCE, confidences=LEVELS,
    )


@pytest.fixture(scope="module")
def first_split(demo_prepared):
    """The first split of the cv fixture, rebuilt here, with the list fitted on it."""
    splitter = StratifiedShuffleSplit(n_splits=SPLITS, test_size=1 / 3, random_state=3)
    train, test = next(splitter.split(np.zeros(len(demo_prepared.y)), demo_prepared.y))
    model = make_list().fit(demo_prepared.X.iloc[train], demo_prepared.y[train])
    return model, train, test


# ---------------------------------------------------------------------------- Brier decomposition
def test_brier_decomposition_by_hand():
    # Three distinct scores (three ROC segments): 0.2 holds 1 of 2 positive,
    # 0.6 holds 2 of 3, 0.9 holds 1 of 1.
    y = np.array([0, 1, 0, 1, 1, 1])
    p = np.array([0.2, 0.2, 0.6, 0.6, 0.6, 0.9])
    brier = np.mean((p - y) ** 2)
    calibration = (2 * (0.2 - 1 / 2) ** 2 + 3 * (0.6 - 2 / 3) ** 2 + 1 * (0.9 - 1) ** 2) / 6
    refinement = (2 * (1 / 2) * (1 / 2) + 3 * (2 / 3) * (1 / 3) + 0) / 6
    parts = brier_decomposition(y, p)
    assert parts["brier"] == pytest.approx(brier)
    assert parts["calibration_loss"] == pytest.approx(calibration)
    assert parts["refinement_loss"] == pytest.approx(refinement)
    assert parts["calibration_loss"] + parts["refinement_loss"] == pytest.approx(parts["brier"], abs=1e-15)
    # The rates 1/2, 2/3, 1 increase: the ROC curve is convex, hull = segments.
    assert parts["hull_refinement_loss"] == pytest.approx(refinement)


def test_pooled_hull_rates_do_not_split_the_brier_score_exactly():
    # Score 0.2 holds a positive, 0.8 a negative: isotonic calibration pools both to 1/2.
    y, p = np.array([1, 0]), np.array([0.2, 0.8])
    parts = brier_decomposition(y, p)
    assert parts["brier"] == pytest.approx(0.64)
    # Exact split over the two segments: rates 1 and 0.
    assert parts["calibration_loss"] == pytest.approx(0.64)
    assert parts["refinement_loss"] == pytest.approx(0.0)
    # With the pooled (hull) rate the two terms would be 0.09 + 0.25 = 0.34 < 0.64:
    hull = isotonic_recalibration(y, p)
    assert hull == pytest.approx([0.5, 0.5])
    assert np.mean((p - hull) ** 2) + np.mean(hull * (1 - hull)) == pytest.approx(0.34)
    assert parts["hull_refinement_loss"] == pytest.approx(0.25)


def test_brier_decomposition_adds_up_on_random_scores():
    rng = np.random.default_rng(5)
    for _ in range(20):
        p = rng.choice(np.linspace(0, 1, 7), 50)
        y = (rng.random(50) < 0.5).astype(int)
        parts = brier_decomposition(y, p)
        assert parts["calibration_loss"] + parts["refinement_loss"] == pytest.approx(parts["brier"], abs=1e-12)
        assert parts["hull_refinement_loss"] >= parts["refinement_loss"] - 1e-12
        assert parts["hull_refinement_loss"] <= parts["brier"] + 1e-12


# ---------------------------------------------------------------------------- ROC and hull
def random_scores(seed, n=80, levels=9):
    rng = np.random.default_rng(seed)
    p = rng.choice(np.linspace(0.05, 0.95, levels), n)
    y = (rng.random(n) < p ** 0.7).astype(int)
    return y, p


@pytest.mark.parametrize("seed", range(6))
def test_roc_points_are_scikit_learns(seed):
    y, p = random_scores(seed)
    table = roc_table(y, p)
    fpr, tpr, _ = roc_curve(y, p, drop_intermediate=False)
    assert table["fpr"].to_numpy() == pytest.approx(fpr)
    assert table["tpr"].to_numpy() == pytest.approx(tpr)
    assert np.trapezoid(table["tpr"], table["fpr"]) == pytest.approx(roc_auc_score(y, p))


@pytest.mark.parametrize("seed", range(6))
def test_hull_is_convex_and_carries_the_isotonic_rates(seed):
    y, p = random_scores(seed)
    table = roc_table(y, p)
    hull = table[table["on_hull"]]
    assert (hull.iloc[0]["fpr"], hull.iloc[0]["tpr"]) == (0, 0)
    assert (hull.iloc[-1]["fpr"], hull.iloc[-1]["tpr"]) == (1, 1)
    # Every ROC point lies on or below the hull (linear interpolation between vertices).
    assert np.all(table["tpr"] <= np.interp(table["fpr"], hull["fpr"], hull["tpr"]) + 1e-12)
    segments = hull_segments(y, p)
    slopes = segments["slope"].to_numpy()
    assert np.all(np.diff(slopes) < 0), "hull segments must have strictly decreasing slopes"
    # Slope = (positives / P) / (negatives / N), rate = positives / cases, and every score of a
    # segment gets that rate from isotonic regression (scikit-learn's, fitted independently).
    n_pos, n_neg = y.sum(), len(y) - y.sum()
    with np.errstate(divide="ignore"):
        expected = (segments["positives"] / n_pos) / (segments["negatives"] / n_neg)
    assert slopes == pytest.approx(expected.to_numpy())
    calibrated = IsotonicRegression(out_of_bounds="clip").fit(p, y).predict(p)
    assert isotonic_recalibration(y, p) == pytest.approx(calibrated)
    for segment in segments.itertuples():
        inside = (p <= segment.score_high) & (p >= segment.score_low)
        assert inside.sum() == segment.positives + segment.negatives
        assert calibrated[inside] == pytest.approx(segment.rate)


def test_roc_needs_both_classes():
    with pytest.raises(DataError, match="positive and negative"):
        roc_table([1, 1, 1], [0.2, 0.5, 0.9])


# ---------------------------------------------------------------------------- reliability
def test_reliability_table_by_hand():
    y = np.array([0, 1, 0, 1, 1, 1])
    p = np.array([0.05, 0.15, 0.12, 0.55, 0.58, 1.0])
    table = reliability_table(y, p, n_bins=2)
    assert table["n"].tolist() == [3, 3]
    assert table["mean_predicted"].tolist() == pytest.approx([0.32 / 3, 2.13 / 3])
    assert table["observed_rate"].tolist() == pytest.approx([1 / 3, 1.0])
    expected = 0.5 * abs(1 / 3 - 0.32 / 3) + 0.5 * abs(1 - 2.13 / 3)
    assert expected_calibration_error(table) == pytest.approx(expected)
    ten = reliability_table(y, p, n_bins=10)  # empty bins are left out; p = 1 is in the last
    assert ten["bin_lower"].tolist() == pytest.approx([0.0, 0.1, 0.5, 0.9])
    assert ten["n"].sum() == 6


@pytest.mark.parametrize("bad", [0, 2.5, True])
def test_reliability_rejects_bad_bins(bad):
    with pytest.raises(PSLError, match="n_bins"):
        reliability_table([0, 1], [0.1, 0.9], n_bins=bad)


def test_scores_must_be_probabilities():
    with pytest.raises(DataError, match=r"\[0, 1\]"):
        brier_decomposition([0, 1], [0.1, 1.2])
    with pytest.raises(DataError, match="0/1"):
        brier_decomposition([0, 2], [0.1, 0.2])


# ---------------------------------------------------------------------------- logistic regression
@pytest.mark.parametrize("C", [1.0, 0.1, np.inf])
def test_fit_logistic_equals_scikit_learn(C):
    rng = np.random.default_rng(2)
    X = (rng.random((300, 6)) < 0.4).astype(float)
    y = (rng.random(300) < 1 / (1 + np.exp(-(X @ rng.normal(size=6) - 0.3)))).astype(int)
    ours = fit_logistic(X, y, C)
    reference = LogisticRegression(C=C, tol=1e-12, max_iter=10_000).fit(X, y)
    assert ours == pytest.approx(np.r_[reference.intercept_, reference.coef_[0]], abs=1e-5)


def test_fit_logistic_with_collinear_features_predicts_like_scikit_learn():
    # Three one-hot categories sum to 1, like the intercept: the unpenalized optimum is a line,
    # but its predictions are unique.
    rng = np.random.default_rng(4)
    category = rng.integers(0, 3, 200)
    X = np.eye(3)[category]
    y = (rng.random(200) < np.array([0.2, 0.5, 0.7])[category]).astype(int)
    w = fit_logistic(X, y, np.inf)
    p = 1 / (1 + np.exp(-(w[0] + X @ w[1:])))
    rates = np.array([y[category == c].mean() for c in range(3)])
    assert p == pytest.approx(rates[category], abs=1e-6)


# ---------------------------------------------------------------------------- Monte Carlo CV
def test_results_are_tidy(cv):
    assert list(cv.measures.columns) == ["split", "stage", "method", "measure", "value"]
    assert list(cv.three_way.columns) == ["split", "rule", "stage", "confidence", "measure", "value"]
    assert sorted(cv.measures["split"].unique()) == list(range(SPLITS))
    assert set(cv.measures["method"]) == set(METHODS)
    assert set(cv.measures["measure"]) == set(MEASURES)
    assert not cv.measures.duplicated(["split", "stage", "method", "measure"]).any()
    assert set(cv.three_way["rule"]) == {FIXED_STAGE, STEPWISE}
    assert sorted(cv.three_way["confidence"].unique()) == pytest.approx(sorted(LEVELS))
    assert cv.settings == {"n_splits": SPLITS, "test_size": 1 / 3, "seed": 3, "cost_ratio": COST_RATIO,
                           "confidence": CONFIDENCE, "tolerance": DEFAULT_TOLERANCE, "change_value": None}


def split_values(results, **where):
    rows = results
    for column, value in where.items():
        rows = rows[rows[column] == value]
    return rows


def test_list_measures_equal_stagewise_metrics_on_the_same_split(demo_prepared, cv, first_split):
    model, _, test = first_split
    expected = stagewise_metrics(model, demo_prepared.X.iloc[test], demo_prepared.y[test], COST_RATIO, CONFIDENCE)
    ours = split_values(cv.measures, split=0, method=PSL)
    ours = ours.pivot(index="stage", columns="measure", values="value")
    assert len(ours) == model.n_stages_
    for measure in MEASURES:
        assert ours[measure].to_numpy() == pytest.approx(expected[measure].to_numpy(), abs=1e-12), measure


def literal_matrix(model, X):
    return np.column_stack([lit.evaluate(X[lit.column].to_numpy()) for lit in model.literals_]).astype(float)


@pytest.mark.parametrize("method, C", [(LR_REGULARIZED, 1.0), (LR_UNREGULARIZED, np.inf)])
def test_baselines_are_logistic_regressions_on_the_lists_features(demo_prepared, cv, first_split, method, C):
    model, train, test = first_split
    features = literal_matrix(model, demo_prepared.X)
    y_test = demo_prepared.y[test]
    rows = split_values(cv.measures, split=0, method=method)
    for k in range(1, model.n_stages_):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            reference = LogisticRegression(C=C, tol=1e-10, max_iter=10_000)
            reference.fit(features[train, :k], demo_prepared.y[train])
        p = reference.predict_proba(features[test, :k])[:, 1]
        values = split_values(rows, stage=k).set_index("measure")["value"]
        assert values["brier"] == pytest.approx(np.mean((p - y_test) ** 2), abs=1e-4)
        assert values["auc"] == pytest.approx(roc_auc_score(y_test, p), abs=1e-9)
        decided = p > 1 / (1 + COST_RATIO)
        loss = np.mean(np.where(decided, 1 - y_test, COST_RATIO * y_test))
        assert values["expected_loss"] == pytest.approx(loss)
    prior = split_values(rows, stage=0).set_index("measure")["value"]
    rate = demo_prepared.y[train].mean()
    assert prior["brier"] == pytest.approx(np.mean((rate - y_test) ** 2))


def test_three_way_fixed_stage_by_hand(demo_prepared, cv, first_split):
    model, _, test = first_split
    X_test, y_test = demo_prepared.X.iloc[test], demo_prepared.y[test]
    threshold = 1 / (1 + COST_RATIO)
    rows = split_values(cv.three_way, split=0, rule=FIXED_STAGE)
    checked_partial = False
    for k in range(model.n_stages_):
        for level in LEVELS:
            lower, _, upper = model.predict_interval(X_test, k, level).T
            positive, negative = lower > threshold, upper < threshold
            decided = positive | negative
            values = split_values(rows, stage=k, confidence=level).set_index("measure")["value"]
            assert values["coverage"] == pytest.approx(decided.mean())
            assert values["questions"] == k
            if decided.any():
                correct = np.where(positive, y_test == 1, y_test == 0)[decided]
                loss = np.where(positive, 1 - y_test, COST_RATIO * y_test)[decided]
                assert values["accuracy"] == pytest.approx(correct.mean())
                assert values["expected_loss"] == pytest.approx(loss.mean())
                checked_partial |= 0 < decided.mean() < 1
            else:
                assert np.isnan(values["accuracy"]) and np.isnan(values["expected_loss"])
    assert checked_partial, "the test data should leave some patients undecided"


def test_three_way_bedside_rule_is_the_triage_pages_rule(demo_prepared, cv, first_split):
    """Each test patient triaged answer by answer with triage_step, as the Triage page does."""
    model, _, test = first_split
    X_test, y_test = demo_prepared.X.iloc[test], demo_prepared.y[test]
    rows = split_values(cv.three_way, split=0, rule=STEPWISE)
    assert rows["stage"].isna().all()
    length = model.recommended_stages_ if model.recommended_stages_ is not None else len(model.literals_)
    holds = np.column_stack([literal.evaluate(X_test[literal.column].to_numpy()) for literal in model.literals_])
    for level in LEVELS:
        bands = StageBands(model, level)
        outcomes, asked = [], []
        for i in range(len(y_test)):
            step = next(
                step for k in range(length + 1)
                if (step := triage_step(bands, [bool(h) for h in holds[i, :k]], COST_RATIO, n_stages=length)).stop_reason
            )
            outcomes.append(step.outcome)
            asked.append(step.stage)
        outcomes = np.array(outcomes)
        done = outcomes != "uncertain"
        values = rows[rows["confidence"] == level].set_index("measure")["value"]
        assert values["coverage"] == pytest.approx(done.mean())
        assert values["questions"] == pytest.approx(np.mean(asked))
        if done.any():
            assert values["accuracy"] == pytest.approx(np.mean((outcomes[done] == "rule in") == (y_test[done] == 1)))


def test_progress_reproducibility_and_lists_of_any_length(demo_prepared):
    def two_stages():
        return ProbabilisticScoringList(max_stages=2)

    calls = []
    kwargs = {"n_splits": 3, "seed": 1, "confidences": (0.9,)}
    first = monte_carlo_cv(
        demo_prepared.X, demo_prepared.y, two_stages, progress=lambda *a: calls.append(a), **kwargs
    )
    assert calls == [(1, 3), (2, 3), (3, 3)]
    again = monte_carlo_cv(demo_prepared.X, demo_prepared.y, two_stages, **kwargs)
    pd.testing.assert_frame_equal(first.measures, again.measures)
    assert first.measures["stage"].max() == 2
    # A numpy X works as well (columns by position).
    numeric = demo_prepared.X.select_dtypes("number")
    array = monte_carlo_cv(numeric.to_numpy(), demo_prepared.y, two_stages, **kwargs)
    frame = monte_carlo_cv(numeric, demo_prepared.y, two_stages, **kwargs)
    assert array.measures["value"].to_numpy() == pytest.approx(frame.measures["value"].to_numpy())


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"n_splits": 0}, PSLError, "n_splits"),
        ({"n_splits": 2.0}, PSLError, "n_splits"),
        ({"test_size": 1.5}, PSLError, "test_size"),
        ({"cost_ratio": -1}, PSLError, "cost_ratio"),
        ({"confidence": 1.0}, PSLError, "confidence"),
        ({"confidences": (0.5, 2)}, PSLError, "confidence"),
    ],
)
def test_bad_arguments_name_the_problem(demo_prepared, kwargs, error, match):
    with pytest.raises(error, match=match):
        monte_carlo_cv(demo_prepared.X, demo_prepared.y, make_list, **kwargs)


def test_too_few_cases_to_split_is_a_data_error():
    X = pd.DataFrame({"a": [0.0, 1.0, 2.0, 3.0, 4.0]})
    with pytest.raises(DataError, match="cannot split"):
        monte_carlo_cv(X, np.array([0, 0, 0, 0, 1]), make_list, n_splits=2)


def test_band_summary_by_hand():
    results = pd.DataFrame(
        {
            "split": [0, 1, 2, 0, 1, 2],
            "stage": [1, 1, 1, 2, 2, 2],
            "method": [PSL] * 6,
            "measure": ["brier"] * 6,
            "value": [0.1, 0.2, 0.3, 0.5, np.nan, 0.7],
        }
    )
    summary = band_summary(results).set_index("stage")
    assert summary.loc[1, "mean"] == pytest.approx(0.2)
    assert summary.loc[1, "sd"] == pytest.approx(0.1)
    assert summary.loc[1, "lower"] == pytest.approx(0.2 - 1.96 * 0.1 / np.sqrt(3))
    assert summary.loc[1, "upper"] == pytest.approx(0.2 + 1.96 * 0.1 / np.sqrt(3))
    assert summary.loc[2, "n"] == 2 and summary.loc[2, "mean"] == pytest.approx(0.6)


def test_band_summary_keeps_the_stepwise_rows(cv):
    summary = band_summary(cv.three_way)
    stepwise = summary[summary["rule"] == STEPWISE]
    assert len(stepwise) == len(LEVELS) * 4
    assert (stepwise[stepwise["measure"] == "coverage"]["n"] == SPLITS).all()


def test_the_bedside_rule_asks_at_most_the_bedside_length(demo_prepared):
    cv = monte_carlo_cv(demo_prepared.X, demo_prepared.y, make_list, n_splits=2, seed=1, confidences=(0.9,),
                        bedside_stages=2)
    questions = split_values(cv.three_way, rule=STEPWISE, measure="questions")["value"]
    assert (questions <= 2).all()
