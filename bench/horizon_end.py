"""Do lists of a risk within a horizon end too early? (issue 37, the chance rule on censored data)

Run from the repository root with the project's python:

    python bench/horizon_end.py                 # 20 cohorts, ~4 min
    python bench/horizon_end.py --cohorts 5

Each cohort is the breast-cancer study export of the browser test of the leak guard with its
first, moderate signal (logit slopes nodes 0.25, grade 0.6, size 0.02, ER -0.004; about 37 %
events, all before day 1,500; the others followed 1,200 to 3,000 days), 400 training rows
as the Train page fits them (600 rows, a third held out), horizon 2,000 days (the page's
default near the median follow-up), at most 6 questions, ``recommend_folds=5``. Per cohort,
three lists:

- ``horizon``: the time-to-event list (censoring weights; patients censored before the
  horizon drop out), as the app trains it;
- ``uncut``: the same with the chance rule off (``REQUIRED_Z = -inf``): every stage the
  search found, for the error of each length;
- ``yes/no``: a yes/no list of "event by the horizon" on the same patients minus those
  censored before it (no weights): what the chance rule and the internal folds do
  without the weights.

Printed: the recommended length and the kept length of each, the chance rule's z of each
stage of the horizon list against the yes/no list's, the effective sample size of the
weights (Kish), and the error of the uncut list's risks against the known risk of 20,000
new patients (mean squared difference) at 0 to 3 questions and at the recommended length.
"""

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import psl_core.chance as chance  # noqa: E402
import psl_core.model as model_module  # noqa: E402
from psl_core import ProbabilisticScoringList  # noqa: E402
from psl_core.survival import survival_outcome  # noqa: E402

HORIZON = 2000.0
TRAINING_ROWS = 400
SEEN = {}


def cohort(n, rng):
    """(X, event, time, true risk of the event by the horizon) of ``n`` patients."""
    age = rng.normal(56, 11, n).round()
    size = rng.gamma(3, 9, n).round()
    grade = rng.integers(1, 4, n)
    nodes = rng.poisson(3, n)
    er = rng.gamma(1.5, 60, n).round()
    logit = -1.2 + 0.25 * (nodes - 3) + 0.6 * (grade - 2) + 0.02 * (size - 27) - 0.004 * (er - 90)
    risk = 1 / (1 + np.exp(-logit))
    event = (rng.random(n) < risk).astype(int)
    X = pd.DataFrame({"age": age, "meno": (age > 50).astype(int), "size": size, "grade": grade, "nodes": nodes,
                      "er": er, "hormon": rng.integers(0, 2, n)})
    time = np.where(event == 1, rng.integers(60, 1500, n), rng.integers(1200, 3000, n)).astype(float)
    return X, event, time, risk


def evidence_spy(evaluator, chosen):
    """psl_core.chance.stage_evidence, keeping its z and the weights' effective sample size."""
    z = chance.stage_evidence(evaluator, chosen)
    weight = evaluator.weight
    SEEN["z"] = z
    SEEN["ess"] = len(evaluator.y) if weight is None else float(weight.sum() ** 2 / (weight**2).sum())
    SEEN["rows"] = len(evaluator.y)
    return z


def fit(X, y, seed, horizon=None, required_z=2.0):
    chance.REQUIRED_Z = required_z
    model = ProbabilisticScoringList(recommend_folds=5, random_state=seed, max_stages=6, horizon=horizon).fit(X, y)
    chance.REQUIRED_Z = 2.0
    return model, dict(SEEN)


def first(z):
    return float(z[0]) if len(z) else np.nan


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cohorts", type=int, default=20)
    args = parser.parse_args()
    model_module.stage_evidence = evidence_spy
    X_new, _, _, risk_new = cohort(20000, np.random.default_rng(999))
    rows = []
    for seed in range(args.cohorts):
        X, event, time, _ = cohort(TRAINING_ROWS, np.random.default_rng(seed))
        y = survival_outcome(time, event)
        horizon, seen = fit(X, y, seed, HORIZON)
        uncut, _ = fit(X, y, seed, HORIZON, -np.inf)
        known = (time > HORIZON) | (event == 1)
        yes_no, seen_yes_no = fit(X[known], event[known], seed)
        error = [float(np.mean((uncut.predict_proba(X_new, k)[:, 1] - risk_new) ** 2)) for k in range(uncut.n_stages_)]
        rows.append({
            "cohort": seed, "recommended": horizon.recommended_stages_, "kept": horizon.n_stages_ - 1,
            "yes/no recommended": yes_no.recommended_stages_, "yes/no kept": yes_no.n_stages_ - 1,
            "z stage 1": first(seen["z"]), "yes/no z stage 1": first(seen_yes_no["z"]),
            "weighted rows": seen["rows"], "effective rows": seen["ess"],
            **{f"error at {k}": error[k] if k < len(error) else np.nan for k in range(4)},
            "error at recommended": error[horizon.recommended_stages_],
        })
        print({key: round(value, 4) for key, value in rows[-1].items()}, flush=True)
    frame = pd.DataFrame(rows)
    print("\nmeans over", len(frame), "cohorts\n", frame.mean().round(4).to_string())
    print("recommended length 0 in", int((frame["recommended"] == 0).sum()), "cohorts (yes/no:",
          int((frame["yes/no recommended"] == 0).sum()), ")")
    for k in range(1, 4):
        gap = frame[f"error at {k}"] - frame["error at recommended"]
        print(f"error at {k} - at recommended: {gap.mean():+.5f} +- {gap.std() / np.sqrt(gap.count()):.5f}")
    stopped = frame[frame["recommended"] == 0]
    if len(stopped):
        print("cohorts recommending no question, error at 0..3:\n", stopped[[f"error at {k}" for k in range(4)]].round(4))


if __name__ == "__main__":
    main()
