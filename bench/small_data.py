"""Small data: is the recommended list ever worse than the base rate on a small noisy table?

Run from the repository root with the project's python:

    python bench/small_data.py              # 4 datasets, 20 splits, default and paper setups
    python bench/small_data.py --splits 5 --datasets pima
    python bench/small_data.py --setups default --params '{"min_support": 20}'   # a variant

Issue 18's test: each shared table subsampled to 120 rows (all 116 of bcc_coimbra) with 15
added noise columns (independent standard normal), over 20 splits. Split s draws the 120
rows (stratified, seed s), adds the noise (seed s) and splits them 2/3 train, 1/3 test
(stratified, seed s). The list is fitted on the training part with ``recommend_folds=5``,
as the app trains it, and the test Brier score of its recommended stage is compared with
the base rate's (the training prevalence for everybody). Printed per dataset and setup: in
how many splits the list is no worse than the base rate, the mean test Brier of both, and
the mean recommended length.

With ``--full``, the issue's other half: each whole table, 20 splits of a third
(``StratifiedShuffleSplit``, seed 0), the same fit, and the mean test Brier score of the
recommended stage (these must not get worse by more than 0.002 when the small tables improve).

With ``--population`` (tables of more than 120 rows), whether a split that fails is a worse
list or 40 unlucky test rows: the small list's Brier gain over the base rate on the rest of
the table (the rows not drawn, with their own noise columns), and how often a *strong* list,
fitted the same way on those rows, is no worse than the base rate on the same 40 test rows.
"""

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from sklearn.model_selection import StratifiedShuffleSplit, train_test_split

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))
sys.path.insert(0, str(BENCH_DIR.parent))
from bench_datasets import DATASETS, load_dataset  # noqa: E402

from psl_core import PAPER_SETUP, ProbabilisticScoringList  # noqa: E402

SETUPS = {"default": {}, "paper": PAPER_SETUP}
N_ROWS = 120
N_NOISE = 15


def small_split(X, y, seed, rest=False):
    """(X_train, X_test, y_train, y_test): 120 rows with 15 noise columns, split 2/3 : 1/3;
    with ``rest``, also (X_rest, y_rest): the rows not drawn, with noise columns of their own."""
    rng = np.random.default_rng(seed)
    rows, others = np.arange(len(y)), np.arange(0)
    if len(y) > N_ROWS:
        rows, others = train_test_split(rows, train_size=N_ROWS, stratify=y, random_state=seed)
    noisy = np.column_stack([X[rows], rng.standard_normal((len(rows), N_NOISE))])
    split = train_test_split(noisy, y[rows], test_size=1 / 3, stratify=y[rows], random_state=seed)
    if not rest:
        return split
    noise = np.random.default_rng(1000 + seed).standard_normal((len(others), N_NOISE))
    return split, (np.column_stack([X[others], noise]), y[others])


def recommended_fit(X_train, y_train, params):
    return ProbabilisticScoringList(recommend_folds=5, **params).fit(X_train, y_train)


def brier_gain(model, X, y, base_rate):
    """The base rate's Brier score on (X, y) less that of the model's recommended stage."""
    p = model.predict_proba(X, stage=model.recommended_stages_)[:, 1]
    return np.mean((base_rate - y) ** 2) - np.mean((p - y) ** 2)


def recommended_brier(X_train, X_test, y_train, y_test, params):
    """(test Brier of the recommended stage, of the base rate, the recommended length)."""
    model = recommended_fit(X_train, y_train, params)
    base = np.mean((y_train.mean() - y_test) ** 2)
    return base - brier_gain(model, X_test, y_test, y_train.mean()), base, model.recommended_stages_


def population_gains(X, y, seed, params):
    """(the small list's gain on its test rows, on the rest of the table; a list fitted on the
    rest: its gain on the same test rows), gains over the training base rate."""
    (X_train, X_test, y_train, y_test), (X_rest, y_rest) = small_split(X, y, seed, rest=True)
    small, strong, base = recommended_fit(X_train, y_train, params), recommended_fit(X_rest, y_rest, params), y_train.mean()
    return brier_gain(small, X_test, y_test, base), brier_gain(small, X_rest, y_rest, base), brier_gain(strong, X_test, y_test, base)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=20)
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--setups", nargs="+", default=list(SETUPS))
    parser.add_argument("--params", type=json.loads, default={},
                        help="JSON object of estimator parameters set on top of each setup")
    parser.add_argument("--full", action="store_true",
                        help="also the whole tables: 20 splits of a third, mean test Brier at the recommended stage")
    parser.add_argument("--population", action="store_true",
                        help="also the small list on the rest of the table, and a list fitted on the rest")
    args = parser.parse_args()
    for name in args.datasets:
        X, y, _ = load_dataset(name)
        print(f"=== {name}: {min(N_ROWS, len(y))} of {len(y)} rows + {N_NOISE} noise columns, {args.splits} splits ===")
        for setup in args.setups:
            params = {**SETUPS[setup], **args.params}
            list_brier, base_brier, length = map(np.array, zip(*(
                recommended_brier(*small_split(X, y, seed), params) for seed in range(args.splits)
            )))
            no_worse = int(np.sum(list_brier <= base_brier + 1e-12))
            print(f"{setup:>8}: list no worse than the base rate in {no_worse}/{args.splits} splits; "
                  f"test Brier list {list_brier.mean():.4f}, base rate {base_brier.mean():.4f}; "
                  f"recommended length {np.mean(length):.1f} (0 in {int(np.sum(length == 0))})",
                  flush=True)
            if args.full:
                splits = StratifiedShuffleSplit(20, test_size=1 / 3, random_state=0).split(X, y)
                full = [recommended_brier(X[train], X[test], y[train], y[test], params)[0] for train, test in splits]
                print(f"{'':>8}  whole table, 20 splits of a third: test Brier at the recommended stage "
                      f"{np.mean(full):.4f} (SE {np.std(full, ddof=1) / np.sqrt(len(full)):.4f})", flush=True)
            if args.population and len(y) > N_ROWS:
                test, rest, strong = np.array([population_gains(X, y, seed, params) for seed in range(args.splits)]).T
                failed = test < -1e-12
                print(f"{'':>8}  rest of the table ({len(y) - N_ROWS} rows): the list no worse than the base rate in "
                      f"{int(np.sum(rest >= -1e-12))}/{args.splits} splits (mean gain {rest.mean():+.4f}; "
                      f"{int(np.sum(failed & (rest > 0)))} of the {int(failed.sum())} failed splits gain there); "
                      f"a list fitted on it, on the same test rows: no worse in {int(np.sum(strong >= -1e-12))}/{args.splits}",
                      flush=True)


if __name__ == "__main__":
    main()
