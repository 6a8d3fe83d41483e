"""Question costs: what the cost-aware search and the cost-aware stop save, and what they cost in Brier.

Run from the repository root with the project's python:

    python bench/costs.py                     # the demo, 20 splits: ~2 min
    python bench/costs.py --splits 5 --weights 0 0.1

Data: the bundled demo (Cleveland heart disease) as the app prepares it (297 x 13). Costs
(:data:`DEMO_COSTS`, illustrative units of effort, not prices): history and examination
free; the resting ECG 1; one blood test 2 (cholesterol and fasting sugar,
:data:`DEMO_GROUPS`); one exercise test 5 (its four values); the two imaging columns
(thallium scintigraphy, vessels on fluoroscopy) 20 each. A test is paid once, by the first
of its values asked.

For each split (stratified, a third held out, as ``compare.py``) and search weight
``cost_weight`` (:func:`psl_core.costs.search_penalties`) the list is fitted as the app
fits it (default setup, ``recommend_folds=5``) and the held-out patients are triaged with
its first ``recommended_stages_`` questions, 95 % intervals, the risk-averse basis, the
default stop rule (tolerance 5 %) and, with ``--values``, the cost stop at each value V of a
changed outcome (:func:`psl_core.costs.not_worth_asking`; "-" = no cost stop). Printed per
weight, V and M: the held-out Brier score at the recommended length (mean over splits, and
its paired difference from weight 0 with the standard error over splits), the mean cost
of the questions asked per patient at the bedside, the mean number asked, the agreement
of the stopped outcome with the whole recommended list's and the mean M-weighted loss of
the action taken (M per missed positive, 1 per false alarm, uncertain = positive).
"""

import argparse
import sys
from pathlib import Path

import numpy as np

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))
sys.path.insert(0, str(BENCH_DIR.parent))
from compare import make_splits, paired_difference  # noqa: E402
from evaluation_speed import demo_data  # noqa: E402

from psl_core import ProbabilisticScoringList  # noqa: E402
from psl_core.decision import StageBands, stop_stages  # noqa: E402

DEMO_COSTS = {
    "restecg": 1,
    "chol": 2, "fbs": 2,
    "thalach": 5, "exang": 5, "oldpeak": 5, "slope": 5,
    "thal": 20, "ca": 20,
}
"""Illustrative costs of the demo's columns (units of effort); the others cost 0."""

DEMO_GROUPS = {
    "chol": "blood test", "fbs": "blood test",
    "thalach": "exercise test", "exang": "exercise test", "oldpeak": "exercise test", "slope": "exercise test",
}
"""The demo's columns measured together: each test is paid once."""

COST_RATIOS = (1.0, 3.0, 10.0)


def bedside(model, X_test, y_test, cost_ratio, change_value):
    """(mean cost, mean questions, agreement with the whole list, mean loss) of one split at one M."""
    length = model.recommended_stages_
    bands = StageBands(model, 0.95)
    totals = model.stagewise_totals(X_test)
    final = bands.outcomes(length, totals[:, length], 1 / (1 + cost_ratio))
    stop, codes = stop_stages(bands, totals, cost_ratio, length, change_value=change_value)
    spent = np.concatenate([[0.0], np.cumsum(model.stage_costs_)])[stop]
    loss = np.where(codes >= 0, 1 - y_test, cost_ratio * y_test)
    return spent.mean(), stop.mean(), np.mean(codes == final), loss.mean()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=20)
    parser.add_argument("--weights", type=float, nargs="+", default=[0.0, 0.05, 0.1, 0.25])
    parser.add_argument("--values", nargs="+", default=["-", "100", "40"],
                        help="values V of a changed outcome for the cost stop ('-': none)")
    args = parser.parse_args()
    X, y = demo_data()
    splits = make_splits(y, args.splits)
    values = [None if v == "-" else float(v) for v in args.values]
    brier = np.empty((len(args.weights), len(splits)))
    table = np.empty((len(args.weights), len(values), len(COST_RATIOS), len(splits), 4))
    lengths = np.empty((len(args.weights), len(splits)))
    for w, weight in enumerate(args.weights):
        for i, (train, test) in enumerate(splits):
            X_train, X_test = X.iloc[train], X.iloc[test]
            model = ProbabilisticScoringList(
                recommend_folds=5, question_costs=DEMO_COSTS, cost_groups=DEMO_GROUPS, cost_weight=weight,
            ).fit(X_train, y[train])
            p = model.predict_proba(X_test, stage=model.recommended_stages_)[:, 1]
            brier[w, i] = np.mean((p - y[test]) ** 2)
            lengths[w, i] = model.recommended_stages_
            for v, value in enumerate(values):
                for m, cost_ratio in enumerate(COST_RATIOS):
                    table[w, v, m, i] = bedside(model, X_test, y[test], cost_ratio, value)
    print(f"=== demo (n={len(y)}, d={X.shape[1]}, splits={args.splits}); costs {DEMO_COSTS}; tests {DEMO_GROUPS} ===")
    for w, weight in enumerate(args.weights):
        print(
            f"cost_weight {weight:g}: recommended length {lengths[w].mean():.1f}, held-out Brier "
            f"{brier[w].mean():.4f} (minus weight 0: {paired_difference(brier[w], brier[0])})"
        )
        for v, value in enumerate(values):
            for m, cost_ratio in enumerate(COST_RATIOS):
                spent, asked, agree, loss = table[w, v, m].T
                se = np.std(loss, ddof=1) / np.sqrt(len(loss)) if len(loss) > 1 else 0.0
                print(
                    f"  V={'-' if value is None else f'{value:g}':>4} M={cost_ratio:<4g} cost {spent.mean():6.2f}  "
                    f"questions {asked.mean():.2f}  agree {agree.mean():.1%}  loss {loss.mean():.3f} +/- {se:.3f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
