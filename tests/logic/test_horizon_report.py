"""A horizon list's model report carries the Evaluation page's comparison at the horizon."""

from __future__ import annotations

from psl_triage.data import infer_column_types, prepare_training_data
from psl_triage.data.follow_up import FollowUp
from psl_triage.judging.card import report_html
from psl_triage.judging.evidence import report_evidence
from psl_triage.judging.horizon import horizon_comparison
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions
from psl_triage.words.lists import cox_model_label as cox_label
from tests.tables import cox_failing, follow_up_table


def test_the_report_shows_the_horizon_comparison_once_it_ran():
    frame = follow_up_table(seed=1)
    types = {**infer_column_types(frame), "pid": "ignore"}
    prepared = prepare_training_data(frame, types, "status", [1], "learn", follow_up=FollowUp("rfstime", 1000.0, "days"))
    model, metadata = train_list(prepared, "study.csv", TrainingOptions())
    stage = len(model.literals_)
    before = report_html(model, metadata, stage, 10.0, report_evidence(stage))
    assert before.count("Not computed in this session") == 2  # calibration, utility
    table, curves = horizon_comparison(model, prepared, 2, 10.0)
    stored = {"model": model, "prepared": prepared, "table": table, "curves": curves, "cost_ratio": 10.0, "n_splits": 2}
    after = report_html(model, metadata, stage, 10.0, report_evidence(stage, horizon=stored))
    assert after.count("Not computed in this session") == 0
    assert "Brier at the horizon" in after and "Observed / expected" in after and "Cox model, all features" in after
    assert "net benefit is" in after and "2 random splits" in after
    # At the stage the user chose, the report says which.
    table, curves = horizon_comparison(model, prepared, 2, 10.0, stage=1)
    stored.update(table=table, curves=curves, stage=1)
    assert ", at 1 question" in report_html(model, metadata, stage, 10.0, report_evidence(stage, horizon=stored))


def test_a_horizon_lists_report_says_why_it_has_no_subgroups():
    """The walk on survival/pbc: the report sent its reader to the Evaluation or Validate page
    for subgroups, which neither shows for a horizon list. It says why there are none, and what
    to do instead; a yes/no list's report keeps its hint."""
    from psl_triage.words.report import HORIZON_SUBGROUPS, SUBGROUPS_PAGE
    from tests.tables import small_model

    frame = follow_up_table(seed=1)
    types = {**infer_column_types(frame), "pid": "ignore"}
    prepared = prepare_training_data(frame, types, "status", [1], "learn", follow_up=FollowUp("rfstime", 1000.0, "days"))
    model, metadata = train_list(prepared, "study.csv", TrainingOptions(max_stages=2))
    report = report_html(model, metadata, 2, 10.0, report_evidence(2))
    assert HORIZON_SUBGROUPS in report and SUBGROUPS_PAGE not in report
    yes_no = small_model()
    assert SUBGROUPS_PAGE in report_html(yes_no, {}, 1, 10.0, report_evidence(1))


def test_a_held_out_part_is_weighted_by_the_training_parts_censoring():
    """train_list's test measures of a horizon list: the held-out patients censored before the
    horizon drop out, the others carry 1 / G with G estimated on the training patients."""
    import numpy as np

    from psl_core.survival import censoring_curve, ipcw_targets, survival_outcome
    from psl_triage.data.follow_up import survival_part

    rng = np.random.default_rng(4)
    times, events = rng.exponential(10.0, 60).round(1), rng.random(60) < 0.6
    train, test = np.arange(40), np.arange(40, 60)
    kept, outcome, weight = survival_part(times[test], events[test], 8.0, times[train], events[train])
    expected_outcome, expected_weight = ipcw_targets(
        survival_outcome(times[test], events[test]), 8.0, censoring_curve(survival_outcome(times[train], events[train])))
    assert kept.tolist() == np.flatnonzero(expected_weight > 0).tolist() and 0 < len(kept) < 20
    np.testing.assert_array_equal(outcome, expected_outcome[kept])
    np.testing.assert_allclose(weight, expected_weight[kept], rtol=0, atol=0)
    alone = survival_part(times[test], events[test], 8.0)  # G from the part itself
    assert not np.allclose(alone[2], weight) or alone[0].tolist() != kept.tolist()


def test_the_comparison_keeps_the_list_and_says_where_cox_could_not_be_fitted(monkeypatch):
    """medicaldata/blood_storage at 24 months: the Cox model failed on one split and the whole
    comparison was lost. The list's numbers stay; the Cox row says on how many splits it could
    not be fitted, and shows "not fitted" when it could be fitted on none."""
    frame = follow_up_table(seed=1)
    types = {**infer_column_types(frame), "pid": "ignore"}
    prepared = prepare_training_data(frame, types, "status", [1], "learn", follow_up=FollowUp("rfstime", 1000.0, "days"))
    model, _ = train_list(prepared, "study.csv", TrainingOptions(max_stages=2))
    cox_failing(monkeypatch, 1)
    table, curves = horizon_comparison(model, prepared, 2, 10.0)
    cox = table.iloc[1]
    assert cox["model"].startswith("Cox model, all features (could not be fitted on 1 of the 2 splits")
    assert "nan" not in " ".join(map(str, table.to_numpy().ravel()))
    assert (curves[curves["method"] == cox_label(0, 2)]["n"] == 1).all()
    cox_failing(monkeypatch, 2)
    table, _ = horizon_comparison(model, prepared, 2, 10.0)
    assert "could not be fitted on any of the 2 splits" in table.iloc[1]["model"]
    assert set(table.iloc[1].drop("model")) == {"not fitted"} and "not fitted" not in set(table.iloc[0])


def test_the_horizon_comparison_takes_its_threshold_from_m_checked():
    """The threshold 1/(1+M) comes from psl_core.cost_ratio (issue 38, item 3): an M out of
    range is refused there, by name, before any split is fitted (a ZeroDivisionError before)."""
    import pytest

    from psl_core.errors import PSLError

    frame = follow_up_table(seed=1)
    types = {**infer_column_types(frame), "pid": "ignore"}
    prepared = prepare_training_data(frame, types, "status", [1], "learn", follow_up=FollowUp("rfstime", 1000.0, "days"))
    model, _ = train_list(prepared, "study.csv", TrainingOptions(max_stages=2))
    with pytest.raises(PSLError, match="cost_ratio"):
        horizon_comparison(model, prepared, 2, -1.0)
