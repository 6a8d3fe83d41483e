"""Every page's sentence on net benefit agrees (issue 39): the Evaluation and Validate pages, yes/no
and at a horizon (and the report, which takes the Evaluation's sentence), each build their
decision curves their own way, and one rule (:func:`psl_triage.judging.evidence.net_benefit_verdict`)
says where the list stands. On lists that beat, equal and lose to treating everyone and no one,
at M = 10, 1 and 0.1, every page must say the same. Before, at M = 10 one page said a list
"beats treating everyone" while another said it changed no decision and equalled treating all;
the horizon pages said nothing at all.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from psl_core.cost_ratio import decision_threshold
from psl_core.decision_curve import THRESHOLD_GRID, TREAT_ALL, TREAT_NONE, net_benefit_unchecked, treat_all_net_benefit
from psl_core.evaluation import PSL
from psl_core.survival import held_out_targets, survival_outcome
from psl_triage.judging.evidence import (
    BEATS,
    BELOW,
    EQUALS,
    decision_curve_sentence,
    held_out_decision_curves,
    net_benefit_verdict,
    site_decision_curves,
)
from psl_triage.judging.horizon import horizon_decision_curves
from psl_triage.judging.validation_horizon import site_horizon_curves

N, PREVALENCE, SPLITS, HORIZON = 600, 0.3, 20, 5.0
RNG = np.random.default_rng(3)
Y = (RNG.random(N) < PREVALENCE).astype(int)
RISKS = {  # a list that knows the outcome, one that says the base rate to all, one that has it backwards
    "good": np.where(Y == 1, 0.95, 0.02),
    "flat": np.full(N, 0.3),
    "bad": np.where(Y == 1, 0.02, 0.95),
}
EXPECTED = {  # (where the list stands, the better default) at M = 10, 1, 0.1
    ("good", 10): (BEATS, TREAT_ALL), ("good", 1): (BEATS, TREAT_NONE), ("good", 0.1): (BEATS, TREAT_NONE),
    ("flat", 10): (EQUALS, TREAT_ALL), ("flat", 1): (EQUALS, TREAT_NONE), ("flat", 0.1): (EQUALS, TREAT_NONE),
    ("bad", 10): (BELOW, TREAT_ALL), ("bad", 1): (BELOW, TREAT_NONE), ("bad", 0.1): (BELOW, TREAT_NONE),
}
PHRASES = {BEATS: "beats treating everyone and treating no one", EQUALS: "equals", BELOW: "falls below"}
DEFAULT_WORDS = {TREAT_ALL: "treating everyone", TREAT_NONE: "treating no one"}


def _halves():
    rng = np.random.default_rng(7)
    return [rng.permutation(N)[: N // 3] for _ in range(SPLITS)]


def evaluation_curves(p, m):
    """The yes/no Evaluation page's: the list and treat all on held-out parts of Monte Carlo splits."""
    grid = np.union1d(THRESHOLD_GRID, [decision_threshold(m)])
    rows = []
    for split, test in enumerate(_halves()):
        for stage, method, values in ((1, PSL, net_benefit_unchecked(Y[test], p[test], grid)),
                                      (pd.NA, TREAT_ALL, treat_all_net_benefit(Y[test].mean(), grid))):
            rows.append(pd.DataFrame({"split": split, "stage": stage, "method": method, "threshold": grid,
                                      "value": values}))
    table = pd.concat(rows, ignore_index=True).astype({"stage": "Int64"})
    result = SimpleNamespace(settings={"cost_ratio": m, "n_splits": SPLITS}, net_benefit=table)
    return held_out_decision_curves(result, 1)


def horizon_evaluation_curves(p, m):
    """The horizon Evaluation page's: the same splits, as horizon_splits returns them."""
    threshold = decision_threshold(m)
    grid = np.union1d(THRESHOLD_GRID, [threshold])
    outcome = _horizon_outcome()
    curves = {name: [] for name in ("list", "cox", "naive", "all")}
    for test in _halves():
        targets = held_out_targets(outcome[test], outcome[test], HORIZON)
        for name, risk in (("list", p[test]), ("cox", p[test]), ("naive", p[test]), ("all", np.ones(len(test)))):
            curves[name].append(targets.net_benefit(risk, grid))
    results = {f"{name}_decision_curve": np.array(values) for name, values in curves.items()}
    return horizon_decision_curves(results, grid, threshold)


def _horizon_outcome():
    """Every event before the horizon, nobody censored before it: the yes/no outcome at the horizon."""
    return survival_outcome(np.where(Y == 1, 1.0, 10.0), Y)


def validate_curves(p, m):
    return site_decision_curves(Y, p, decision_threshold(m))


def horizon_validate_curves(p, m):
    return site_horizon_curves(_horizon_outcome(), p, HORIZON, decision_threshold(m))[0]


PAGES = {"Evaluation": evaluation_curves, "Evaluation at the horizon": horizon_evaluation_curves,
         "Validate": validate_curves, "Validate at the horizon": horizon_validate_curves}


@pytest.mark.parametrize(("risk", "m"), list(EXPECTED))
def test_every_page_says_the_same_of_the_list_against_treating_everyone_and_no_one(risk, m):
    threshold, expected = decision_threshold(m), EXPECTED[risk, m]
    said = {}
    for page, curves_of in PAGES.items():
        curves = curves_of(RISKS[risk], m)
        at = curves[np.isclose(curves["threshold"], threshold)].set_index("method")
        row = at.loc[PSL]
        everyone = float(at.loc[TREAT_ALL, "mean"])
        assert net_benefit_verdict(row["mean"], row["lower"], row["upper"], everyone) == expected, page
        said[page] = decision_curve_sentence(curves, threshold, m)
    for page, sentence in said.items():
        assert PHRASES[expected[0]] in sentence, (page, sentence)
        if expected[0] != BEATS:
            assert DEFAULT_WORDS[expected[1]] in sentence.split(": the list ")[1], (page, sentence)
        # the interventions said against treating all read the same way round as the verdict
        if expected == (EQUALS, TREAT_ALL):
            assert "as many unnecessary interventions as treating all" in sentence
        if expected[0] == BELOW and expected[1] == TREAT_ALL:
            assert "more unnecessary interventions" in sentence and "avoiding" not in sentence
