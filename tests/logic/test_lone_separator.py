"""One column alone separating the outcome far better than any other is asked about, with its
name and held-out AUC (issue 39): a finding that good seldom stands alone."""

from __future__ import annotations

import numpy as np
import pandas as pd

from psl_triage.data import infer_column_types
from psl_triage.data.roles import propose_roles
from psl_triage.data.separation import held_out_auc, lone_separator


def study(n=400, seed=0, lone=True):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    table = pd.DataFrame({
        "age": rng.integers(30, 80, n) + 6 * y,
        "bp": rng.normal(130, 15, n).round() + 8 * y,
        "smoker": (rng.random(n) < 0.3 + 0.2 * y).astype(int),
        "marker": rng.normal(0, 1, n).round(2) + (2.8 if lone else 2.2) * y,
        "outcome": y,
    })
    if not lone:
        table["score"] = rng.normal(0, 1, n).round(2) + 2.6 * y
    return table


def test_a_column_far_ahead_of_every_other_is_asked_about_with_its_auc():
    table = study()
    roles = propose_roles(table, infer_column_types(table), "outcome", [1])
    assert roles["marker"].role == "leak"
    assert "held-out AUC of 0.9" in roles["marker"].evidence and "known at triage" in roles["marker"].evidence
    assert {roles[name].role for name in ("age", "bp", "smoker")} == {"question"}


def test_two_strong_columns_together_are_findings_not_a_lone_separator():
    table = study(lone=False)
    roles = propose_roles(table, infer_column_types(table), "outcome", [1])
    assert {role.role for role in roles.values()} == {"question"}


def test_held_out_auc_learns_the_direction_and_the_categories_on_the_other_half():
    rng = np.random.default_rng(1)
    y = (rng.random(600) < 0.5).astype(int)
    halves = rng.permutation(600) % 2
    assert held_out_auc(-3.0 * y + rng.normal(0, 1, 600), y, halves, numeric=True) > 0.9
    categories = np.where(y == 1, "b", "a").astype(object)
    assert held_out_auc(categories, y, halves, numeric=False) == 1.0
    assert lone_separator({"a": 0.95, "b": 0.85}) is None
    assert lone_separator({"a": 0.95, "b": 0.7}).column == "a"
