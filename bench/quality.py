"""Stagewise test Brier score of psl_core's options on the shared datasets.

Run from the repository root with the project's python:

    python bench/quality.py                 # 4 datasets, 10 splits, 6 stages
    python bench/quality.py --splits 3 --max-stages 5

Same data and splits as ``compare.py``: ``StratifiedShuffleSplit(n_splits, test_size=1/3,
random_state=0)``. For each configuration it prints the mean test Brier score of stages
0..K (a list that ended before stage K keeps its last stage's estimates), the value at 5
features, the best stage, and the median fit time. The configurations
are psl_core's defaults, the paper's setup, and the paper's setup with one option beyond it
changed at a time (and a few combinations), and the default list cut at its recommended
length; this is the evidence behind the defaults.
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.model_selection import StratifiedShuffleSplit

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))
sys.path.insert(0, str(BENCH_DIR.parent))
from bench_datasets import DATASETS, load_dataset  # noqa: E402

from psl_core import PAPER_SETUP, ProbabilisticScoringList  # noqa: E402

CONFIGS = {
    "default": {},
    "paper": PAPER_SETUP,
    "paper+prior2": {**PAPER_SETUP, "prior_strength": 2.0},
    "paper+sigmoid": {**PAPER_SETUP, "calibration": "sigmoid"},
    "paper+beta": {**PAPER_SETUP, "calibration": "beta"},
    "paper+cv_brier": {**PAPER_SETUP, "loss": "cv_brier"},
    "paper+reuse2": {**PAPER_SETUP, "max_feature_uses": 2},
    "paper+beam4": {**PAPER_SETUP, "beam_width": 4},
    "sigmoid+prior2": {**PAPER_SETUP, "calibration": "sigmoid", "prior_strength": 2.0},
    "default, uses 1": {"max_feature_uses": 1},
    "default+prior8": {"prior_strength": 8.0},
    "default, beta": {"calibration": "beta"},
    "default, nested cv": {"loss": "nested_cv_brier"},
    "default, any threshold": {"min_support": 1},
    "default, recommended": {"recommend_folds": 5},
}
"""A configuration with ``recommend_folds`` is scored as a list cut at its recommended
length (internal cross-validation, the stage with the lowest held-out Brier score): the
question whether the validated length should end the list, not only be the app's default
triage length (``stopping.py`` compares the two on lists of any length)."""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=10)
    parser.add_argument("--max-stages", type=int, default=6)
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    args = parser.parse_args()
    for name in args.datasets:
        X, y, _ = load_dataset(name)
        splitter = StratifiedShuffleSplit(n_splits=args.splits, test_size=1 / 3, random_state=0)
        splits = list(splitter.split(X, y))
        print(f"=== {name} (n={len(y)}, d={X.shape[1]}, splits={args.splits}) ===")
        print(f"{'config':>22}  Brier of stages 0..{args.max_stages}")
        for label, params in CONFIGS.items():
            brier = np.full((len(splits), args.max_stages + 1), np.nan)
            seconds = []
            for i, (train, test) in enumerate(splits):
                model = ProbabilisticScoringList(max_stages=args.max_stages, **params)
                start = time.perf_counter()
                model.fit(X[train], y[train])
                seconds.append(time.perf_counter() - start)
                last = model.n_stages_ - 1 if model.recommended_stages_ is None else model.recommended_stages_
                for k in range(args.max_stages + 1):
                    # A list that ended early answers with its last stage from there on.
                    p = model.predict_proba(X[test], stage=min(k, last))[:, 1]
                    brier[i, k] = np.mean((p - y[test]) ** 2)
            mean = np.nanmean(brier, axis=0)
            at5 = f"{mean[5]:.4f}" if len(mean) > 5 else "  -   "
            print(
                f"{label:>22}  " + " ".join(f"{v:.4f}" for v in mean)
                + f"  @5 {at5}  best {np.nanmin(mean):.4f}  fit {1000 * np.median(seconds):.0f} ms"
            )


if __name__ == "__main__":
    main()
