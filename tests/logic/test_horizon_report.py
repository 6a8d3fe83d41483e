"""A horizon list's model report carries the Evaluation page's comparison at the horizon."""

from __future__ import annotations

from psl_triage.card import report_html
from psl_triage.data import infer_column_types, prepare_training_data
from psl_triage.evidence import report_evidence
from psl_triage.follow_up import FollowUp, horizon_comparison
from psl_triage.training import TrainingOptions, train_list
from tests.tables import follow_up_table


def test_the_report_shows_the_horizon_comparison_once_it_ran():
    frame = follow_up_table(seed=1)
    types = {**infer_column_types(frame), "pid": "ignore"}
    prepared = prepare_training_data(frame, types, "status", [1], "learn", follow_up=FollowUp("rfstime", 1000.0, "days"))
    model, metadata = train_list(prepared, "study.csv", TrainingOptions())
    stage = len(model.literals_)
    before = report_html(model, metadata, stage, 10.0, report_evidence(model, stage))
    assert before.count("Not computed in this session") == 3  # calibration, utility, subgroups
    table, curves = horizon_comparison(model, prepared, 2, 10.0)
    stored = {"model": model, "prepared": prepared, "table": table, "curves": curves, "cost_ratio": 10.0, "n_splits": 2}
    after = report_html(model, metadata, stage, 10.0, report_evidence(model, stage, horizon=stored))
    assert after.count("Not computed in this session") == 1  # subgroups only
    assert "Brier at the horizon" in after and "Observed / expected" in after and "Cox model, all features" in after
    assert "net benefit is" in after and "2 random splits" in after
