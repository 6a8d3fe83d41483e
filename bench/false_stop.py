"""Does the chance rule end a tiny table's list before a question known to help? (issue 37)

Run from the repository root with the project's python:

    python bench/false_stop.py                        # 77 rows, 100 draws per strength
    python bench/false_stop.py --rows 150 --draws 50

Each draw simulates a table of ``--rows`` training rows like bcc_coimbra's 77 (2/3 of 116):
two binary questions with a known effect (log odds ratio 1.5 for the first, ``--second``
for the second, half of the patients with each) and six numeric columns of noise, base
rate about 50 %. A list is fitted with ``recommend_folds=5`` (as the app fits it) twice:
with psl_core's rule (``REQUIRED_Z`` = 2) and with the rule off (any held-out gain kept,
the search before issue 37). Printed per strength and rule: how often the list asks both
useful questions, how often it ends before one of them (the rule's *false stop*: the list
without the rule asks it), the recommended length and how often it is below 2, and the
mean squared error against the true risk of 20,000 new patients at the recommended stage
and at 5 questions (the last stage of a shorter list), paired between the rules.
"""

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psl_core.chance  # noqa: E402
from psl_core import ProbabilisticScoringList  # noqa: E402

FIRST = 1.5
NOISE = 6
NEW_PATIENTS = 20_000
FIVE = 5


def draw(rows, second, rng):
    """(X, y, true risk) of ``rows`` patients."""
    a, b = rng.integers(0, 2, rows), rng.integers(0, 2, rows)
    logit = FIRST * (a - 0.5) + second * (b - 0.5)
    X = pd.DataFrame({"first": a, "second": b, **{f"noise{j}": rng.normal(size=rows) for j in range(NOISE)}})
    risk = 1 / (1 + np.exp(-logit))
    return X, rng.binomial(1, risk), risk


def one(rows, second, seed, required_z):
    rng = np.random.default_rng(seed)
    X, y, _ = draw(rows, second, rng)
    X_new, _, risk = draw(NEW_PATIENTS, second, rng)
    psl_core.chance.REQUIRED_Z = required_z
    try:
        model = ProbabilisticScoringList(recommend_folds=5, random_state=seed).fit(X, y)
    finally:
        psl_core.chance.REQUIRED_Z = REQUIRED_Z
    asked = [literal.column for literal in model.literals_]
    k = model.recommended_stages_
    error = {stage: float(np.mean((model.predict_proba(X_new, stage)[:, 1] - risk) ** 2))
             for stage in {k, min(FIVE, model.n_stages_ - 1)}}
    return {"length": model.n_stages_ - 1, "recommended": k, "asks_both": {"first", "second"} <= set(asked),
            "useful": len({"first", "second"} & set(asked)), "error_recommended": error[k],
            "error_five": error[min(FIVE, model.n_stages_ - 1)]}


REQUIRED_Z = psl_core.chance.REQUIRED_Z


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=77)
    parser.add_argument("--draws", type=int, default=100)
    parser.add_argument("--second", type=float, nargs="+", default=[0.8, 1.2, 1.6],
                        help="log odds ratios of the second question")
    args = parser.parse_args(argv)
    rows = []
    for second in args.second:
        for seed in range(args.draws):
            for rule, z in (("rule", REQUIRED_Z), ("off", -np.inf)):
                rows.append({"second": second, "seed": seed, "rule": rule, **one(args.rows, second, seed, z)})
        frame = pd.DataFrame(rows)
        part = frame[frame["second"] == second].pivot(index="seed", columns="rule")
        false_stop = part["useful"]["rule"] < part["useful"]["off"]
        print(f"second log OR {second}: {args.draws} draws of {args.rows} rows")
        print(frame[frame["second"] == second].groupby("rule")[
            ["length", "recommended", "asks_both", "error_recommended", "error_five"]
        ].mean().round(4).to_string())
        print(f"  false stop (a useful question asked without the rule, not with it): {false_stop.mean():.3f}; "
              f"recommended below 2: {(part['recommended']['rule'] < 2).mean():.3f}")
        for column in ("error_recommended", "error_five"):
            gap = part[column]["rule"] - part[column]["off"]
            print(f"  {column}: rule - off {gap.mean():+.5f} (SE {gap.std() / np.sqrt(len(gap)):.5f})")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
