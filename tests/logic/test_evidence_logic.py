"""The evidence's words and choices (psl_triage.judging.evidence): candidate parameters, Riley's
sentences, subgroup bands and sentences, the decision curves' sentence."""

import numpy as np
import pandas as pd
import pytest
from scipy.special import expit, logit

from psl_core.subgroups import subgroup_measures
from psl_triage.judging.evidence import (
    candidate_parameters,
    development_adequacy,
    group_labels,
    site_decision_curves,
    subgroup_display,
    subgroup_sentences,
    validation_adequacy,
)
from psl_triage.words import shown


def test_candidate_parameters_count_columns_by_kind(demo_prepared):
    total, counts = candidate_parameters(demo_prepared, max_feature_uses=2)
    kinds = pd.Series({name: info.kind for name, info in demo_prepared.columns.items()})
    assert counts["binary"] == ((kinds == "binary").sum(), (kinds == "binary").sum())
    assert counts["numeric"] == ((kinds == "numeric").sum(), 4 * (kinds == "numeric").sum())
    categories = sum(demo_prepared.X[c].nunique() - 1 for c in kinds[kinds == "categorical"].index)
    assert counts["categorical"][1] == categories
    assert total == sum(p for _, p in counts.values())
    assert candidate_parameters(demo_prepared, max_feature_uses=1)[0] < total


def test_development_adequacy_says_when_the_table_is_too_small(demo_prepared):
    size, table, sentences = development_adequacy(demo_prepared)
    assert list(table["Met"]) == ["no", "no", "no"]  # 297 rows against thousands
    assert size.minimum > len(demo_prepared.y)
    text = " ".join(shown(s) for s in sentences)
    assert "smaller than the criteria ask" in text and "may still be trained" in text
    _, table, sentences = development_adequacy(demo_prepared, max_feature_uses=1, c_statistic=0.9)
    assert "anticipated C-statistic of 0.90" in " ".join(sentences)


def test_validation_adequacy_reports_widths_and_a_verdict():
    rng = np.random.default_rng(2)
    p = expit(rng.normal(-1, 1.5, 400))
    y = rng.binomial(1, p)
    size, table, sentence = validation_adequacy(y, p)
    assert set(table["Measure"]) == {"O/E", "Calibration slope", "C-statistic (AUC)"}
    assert "smaller than a precise validation needs" in sentence
    assert (table["Width on this table"] > 0).all()
    assert validation_adequacy(np.zeros(10, dtype=int), np.full(10, 0.3))[0] is None


def test_numeric_columns_become_bands_and_missing_a_group():
    values = pd.Series([30, 40, 50, 60, 70, 80, np.nan, 45, 55])
    labels = group_labels(values, bands=3)
    assert labels.iloc[6] == "missing"
    assert labels.iloc[0].startswith("< ") and labels.iloc[5].startswith("≥ ")
    assert labels.nunique() == 4
    assert list(group_labels(pd.Series(["f", "m", None]))) == ["f", "m", "missing"]


def test_bands_run_from_low_to_high_and_read_as_a_condition_on_the_column():
    from psl_triage.words.evidence import subgroup_note

    rng = np.random.default_rng(5)
    age = pd.Series(rng.integers(14, 45, 600).astype(float))
    p = expit(rng.normal(-1.0, 1.0, 600))
    y = rng.binomial(1, np.where(age >= 25, expit(logit(p) + 1.5), p))
    labels = group_labels(age, bands=3)
    table = subgroup_measures(y, p, labels, threshold=0.2, n_boot=20)
    groups = list(table.index[:-1])
    assert groups[0].startswith("< ") and " to < " in groups[1] and groups[2].startswith("≥ ")
    text = " ".join(shown(s) for s in subgroup_sentences(table, "age"))
    assert "In the group **age " in text and "age = " not in text
    assert "race's" not in subgroup_note(0.1) and "the group's patients" in subgroup_note(0.1)


def test_subgroup_sentence_names_the_miscalibrated_group_and_the_tiny_one():
    rng = np.random.default_rng(11)
    n = 1500
    group = rng.choice(["men", "women"], n).astype(object)
    p = expit(rng.normal(-1.0, 1.0, n))
    y = rng.binomial(1, np.where(group == "women", expit(logit(p) + 1.2), p))
    group[:5] = "other"
    table = subgroup_measures(y, p, group, threshold=0.2, n_boot=100)
    text = [shown(s) for s in subgroup_sentences(table, "sex")]
    assert any("sex = women" in s for s in text) and not any("sex = men" in s for s in text)
    assert any("Too small to judge" in s and "sex = other." in s for s in text)
    display = subgroup_display(table).set_index("Group")
    assert display.loc["other", "O/E"] == "too small to judge"
    assert display.loc["other", "Patients"] == 5


def test_site_decision_curves_hold_the_threshold_and_the_range():
    rng = np.random.default_rng(4)
    p = rng.uniform(0, 1, 300)
    y = rng.binomial(1, p)
    curves = site_decision_curves(y, p, threshold=1 / 11, threshold_range=(0.05, 0.3), n_boot=50)
    assert set(curves["method"]) == {"PSL", "Treat all", "Treat none"}
    psl = curves[curves["method"] == "PSL"]
    assert np.isclose(psl["threshold"], 1 / 11).any() and psl["threshold"].max() == pytest.approx(0.3)
    assert (psl["lower"] <= psl["mean"] + 1e-12).all() and (psl["mean"] <= psl["upper"] + 1e-12).all()


def test_the_report_carries_sample_size_calibration_utility_and_subgroups(demo_prepared):
    from psl_core.evaluation import monte_carlo_cv
    from psl_triage.judging.card import report_html
    from psl_triage.judging.evidence import report_evidence
    from psl_triage.training.fit import train_list
    from psl_triage.training.options import TrainingOptions

    model, metadata = train_list(demo_prepared, "demo", TrainingOptions(max_stages=4))
    bare = report_html(model, metadata)
    assert "Sample size justification" in bare and "Riley" in bare
    size, _, _ = development_adequacy(demo_prepared, model.max_feature_uses)
    assert f"minimum {size.minimum} rows" in bare
    assert bare.count("Not computed in this session") == 3

    result = monte_carlo_cv(demo_prepared.X, demo_prepared.y, lambda: model.__class__(max_stages=4),
                            n_splits=3, n_jobs=1, cost_ratio=2.0)
    sex = group_labels(demo_prepared.X["sex"])
    p = model.predict_proba(demo_prepared.X)[:, 1]
    table = subgroup_measures(demo_prepared.y, p, sex.to_numpy(), 1 / 3, n_boot=50)
    evidence = report_evidence(2, result, [("the training rows", "sex", table)])
    report = report_html(model, metadata, 2, 2.0, evidence)
    assert "Not computed in this session" not in report
    assert "O/E: observed over expected events" in report and "Calibration slope" in report
    assert "net benefit is" in report and "3 Monte Carlo splits" in report
    assert "By sex, on the training rows" in report and "All patients" in report


def test_a_column_with_too_many_values_is_refused_for_subgroups():
    from psl_triage.judging.evidence import MAX_GROUPS, too_many_groups

    names = pd.Series([f"patient {i}" for i in range(100)])
    assert "has 100 different values" in shown(too_many_groups(group_labels(names), "name"))
    assert too_many_groups(group_labels(pd.Series(["a", "b"] * 10)), "sex") is None
    assert too_many_groups(group_labels(pd.Series(np.arange(100.0))), "age") is None  # banded
    assert MAX_GROUPS >= 10


def test_the_bedside_point_at_a_site_is_the_triage_pages_rule(demo_prepared):
    from psl_core.decision import StageBands, triage_step
    from psl_triage.bedside.session import recommended_length
    from psl_triage.judging.evidence import site_bedside_point
    from psl_triage.training.fit import train_list
    from psl_triage.training.options import TrainingOptions

    model, _ = train_list(demo_prepared, "demo", TrainingOptions(max_stages=5))
    X, y = demo_prepared.X.iloc[:120], demo_prepared.y[:120]
    rows, n = site_bedside_point(model, X, y, 2.0, n_boot=20)
    assert n == 120 and list(rows["method"]) == ["bedside stop rule"]
    length = recommended_length(model)
    bands = StageBands(model, 0.95)
    holds = np.column_stack([lit.evaluate(X[lit.column].to_numpy()) for lit in model.literals_])
    acted = []
    for i in range(len(y)):
        step = next(s for k in range(length + 1)
                    if (s := triage_step(bands, [bool(h) for h in holds[i, :k]], 2.0, n_stages=length)).stop_reason)
        acted.append(step.outcome != "rule out")
    acted = np.array(acted)
    expected = np.mean(acted & (y == 1)) - np.mean(acted & (y == 0)) * (1 / 3) / (2 / 3)
    assert rows["mean"].iloc[0] == pytest.approx(expected, abs=1e-12)


def test_the_decision_curve_sentence_reads_the_interval():
    from psl_triage.judging.evidence import decision_curve_sentence

    def curves(mean, lower, upper, everyone):
        return pd.DataFrame({"method": ["PSL", "Treat all"], "threshold": [0.1, 0.1], "mean": [mean, everyone],
                             "lower": [lower, everyone], "upper": [upper, everyone],
                             "interventions_avoided": [5.0, np.nan]})

    assert "its interval above both" in decision_curve_sentence(curves(0.3, 0.25, 0.35, 0.2), 0.1, 9)
    assert "its interval reaches" in decision_curve_sentence(curves(0.3, 0.15, 0.35, 0.2), 0.1, 9)
    assert "does not beat" in decision_curve_sentence(curves(-0.01, -0.05, 0.02, -0.1), 0.1, 9)


def test_a_negative_reduction_in_interventions_reads_as_more_interventions():
    from psl_triage.words.evidence import decision_curve_sentence

    row = {"mean": 0.1, "lower": 0.05, "upper": 0.15}
    said = decision_curve_sentence({**row, "interventions_avoided": -3.7}, 0.12, ("not above", "Treat all"), 10, 1 / 11, [])
    assert "avoiding" not in said and "-3.7" not in said
    assert "the equivalent of 3.7 more unnecessary interventions per 100 patients than treating all" in said
    said = decision_curve_sentence({**row, "interventions_avoided": 2.5}, 0.05, ("beats", "Treat all"), 10, 1 / 11, [])
    assert "avoiding 2.5 unnecessary interventions per 100 patients against treating all" in said
    said = decision_curve_sentence({**row, "interventions_avoided": np.nan}, 0.05, ("beats", "Treat all"), 10, 1 / 11, [])
    assert "unnecessary" not in said
