"""Where to stop a list: test Brier score at the recommended length against the whole list.

Run from the repository root with the project's python:

    python bench/stopping.py                # 4 datasets, 20 splits, defaults and paper setup
    python bench/stopping.py --splits 5 --datasets pima

Same data and splits as ``compare.py``. Each list is fitted with ``recommend_folds=5`` and
no ``max_stages``, as the app trains it, and scored on the test part at three lengths:

- ``lowest``: ``recommended_stages_``, the stage with the lowest mean held-out Brier score
  of the internal cross-validation (psl_core's rule);
- ``1-SE``: the shortest stage whose mean held-out Brier score is within one standard error
  of the lowest (the one-standard-error rule), from ``validation_brier_`` and
  ``validation_brier_se_``;
- ``whole``: every stage of the list.

It prints the mean test Brier score and number of questions of each, and the paired
differences (per split) with their standard errors over the splits.
"""

import argparse
import sys
from pathlib import Path

import numpy as np

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))
sys.path.insert(0, str(BENCH_DIR.parent))
from bench_datasets import DATASETS, load_dataset  # noqa: E402
from compare import make_splits, paired_difference  # noqa: E402

from psl_core import PAPER_SETUP, ProbabilisticScoringList  # noqa: E402

SETUPS = {"default": {}, "paper": PAPER_SETUP}
RULES = ("lowest", "1-SE", "whole")


def one_se_stage(model):
    """The shortest stage within one standard error of the lowest mean held-out Brier score."""
    brier, se = model.validation_brier_, model.validation_brier_se_
    best = int(np.nanargmin(brier))
    return int(np.flatnonzero(brier <= brier[best] + np.nan_to_num(se[best]))[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=20)
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    args = parser.parse_args()
    for name in args.datasets:
        X, y, _ = load_dataset(name)
        splits = make_splits(y, args.splits)
        print(f"=== {name} (n={len(y)}, d={X.shape[1]}, splits={args.splits}) ===")
        for label, params in SETUPS.items():
            brier = np.empty((len(splits), len(RULES)))
            length = np.empty((len(splits), len(RULES)))
            for i, (train, test) in enumerate(splits):
                model = ProbabilisticScoringList(recommend_folds=5, **params).fit(X[train], y[train])
                stages = (model.recommended_stages_, one_se_stage(model), model.n_stages_ - 1)
                for j, k in enumerate(stages):
                    p = model.predict_proba(X[test], stage=k)[:, 1]
                    brier[i, j], length[i, j] = np.mean((p - y[test]) ** 2), k
            cells = "  ".join(
                f"{rule} {brier[:, j].mean():.4f} ({length[:, j].mean():.1f} q)" for j, rule in enumerate(RULES)
            )
            print(
                f"{label:>8}  {cells}\n          lowest - whole: {paired_difference(brier[:, 0], brier[:, 2])}"
                f"\n          lowest - 1-SE: {paired_difference(brier[:, 0], brier[:, 1])}",
                flush=True,
            )


if __name__ == "__main__":
    main()
