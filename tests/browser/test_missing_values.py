"""Missing values in the browser (issue 30): a table with gaps trains without a drop or impute
step, the list shows where a missing answer goes, and a bedside "not measured" answer moves
the risk as the list says."""

from __future__ import annotations

import numpy as np
import pandas as pd
from playwright.sync_api import expect
from psl_flows import answer, expect_trained, expect_triage_state, expected_triage, open_triage, start_training
from test_uploads import expected_preparation, upload_table

from psl_core.decision import NOT_MEASURED
from psl_triage.bedside.questions import missing_note
from psl_triage.training.fit import train_list
from psl_triage.training.options import DEFAULT_SETUP, SETUPS, TrainingOptions

MAX_STAGES = 3


def lab_table(path):
    """A lab whose high values carry risk, not ordered for the patients at high risk."""
    rng = np.random.default_rng(7)
    n = 600
    lab = rng.normal(size=n)
    ordered = rng.random(n) < 0.6
    logit = -2.2 + 2.5 * (lab > 0.8) * ordered + 2.0 * ~ordered
    outcome = rng.random(n) < 1 / (1 + np.exp(-logit))
    pd.DataFrame({
        "troponin": np.where(ordered, np.round(lab * 10 + 40, 1), np.nan),
        "age": np.round(rng.normal(60, 10, n)),
        "admitted": np.where(outcome, "yes", "no"),
    }).to_csv(path, index=False)
    _, prepared = expected_preparation(path)  # the landing page's default choices
    return prepared


def test_a_table_with_gaps_trains_and_not_measured_follows_the_list(app, tmp_path):
    path = tmp_path / "troponin.csv"
    prepared = lab_table(path)
    assert prepared.n_rows_after == 600 and prepared.X["troponin"].isna().any()
    app.open()
    upload_table(app, path)
    # No drop or impute step: the default keeps the gaps for the learner, and every row.
    expect(app.alerts("info").filter(has_text="missing values in 'troponin'")).to_contain_text("600 of 600 rows")
    expect(app.alerts("success").filter(has_text="Ready")).to_contain_text("600 rows")

    start_training(app, max_stages=MAX_STAGES)
    expect_trained(app)
    model, metadata = train_list(prepared, "troponin", TrainingOptions(**SETUPS[DEFAULT_SETUP], max_stages=MAX_STAGES))
    notes = [missing_note(literal) for literal in model.literals_]
    asks = [literal.describe() for literal in model.literals_ if literal.asks_missing]
    assert any(notes) or asks, "the list learned where a missing troponin goes"
    for text in [note for note in notes if note] + asks:  # the list's table shows it
        expect(app.page.get_by_text(text, exact=False).first).to_be_attached()

    open_triage(app, 10.0)
    expected = expected_triage(model, metadata, 10.0)
    expect_triage_state(app, expected)
    moved = False
    for _ in range(MAX_STAGES):
        if expected.halted:
            break
        question = expected.next_question
        raw = NOT_MEASURED if question.column == "troponin" else 60.0
        if raw == NOT_MEASURED:
            assert question.literal.missing_learned
            expect(app.page.get_by_test_id("stForm")).to_contain_text(question.missing_rule)
            before = expected.current
        answer(app, question, raw)
        expected.answer(raw)
        expect_triage_state(app, expected)  # total, probability and interval as psl_core says
        if raw == NOT_MEASURED:
            after = expected.steps[question.stage]
            # "Not measured" is one answer, not a range: the total moves by the learned points.
            assert len(after.totals) == 1
            moved = moved or after.totals != before.totals or question.literal.missing is False
    assert moved or not any(q.column == "troponin" for q in expected.questions[: expected.stage])
