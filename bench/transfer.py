"""Transfer: a list learned at Cleveland, validated at Hungary, Switzerland and the VA.

Run from the repository root with the project's python:

    python bench/transfer.py                 # 3 sites, 20 random halves, both setups
    python bench/transfer.py --halves 5 --setups default

The four UCI heart-disease tables share their columns (``shared/data/heart_*.csv``, outcome
``num`` > 0 as in the demo, ``bench_datasets.py``). ``slope``, ``ca`` and ``thal`` are
missing for most patients outside Cleveland (Hungary: 190, 291, 266 of 294), so the list is
learned from the other ten columns (``cp`` and ``restecg`` as categories, ``sex``, ``fbs``,
``exang`` as yes/no); ``chol`` = 0 means "not measured" in the Swiss and VA files and is read
as missing everywhere. Missing answers are never guessed: a patient counts at a stage when
the questions up to it are answered (:mod:`psl_core.validation`).

The list is fitted on all of Cleveland with ``recommend_folds=5`` and judged at its
recommended stage. At each target site the patients are split into random stratified halves
(``--halves`` times, seeded): the list is recalibrated on one half
(:func:`psl_core.validation.recalibrate`, same questions and points) and both the original
and the recalibrated list are judged on the other half. Printed per site: the original
list on the whole site with bootstrap 95 % intervals, then the mean (sd over the halves) of
calibration-in-the-large, Brier score and AUC before and after recalibration, the median
[quartiles] of the calibration slope (infinite in a half where the list's risks separate
the outcomes, counted apart), and in how many halves the slope moved toward 1.
"""

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedShuffleSplit

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))
sys.path.insert(0, str(BENCH_DIR.parent))
from bench_datasets import data_dir  # noqa: E402

from psl_core import PAPER_SETUP, ProbabilisticScoringList  # noqa: E402
from psl_core.validation import (  # noqa: E402
    recalibratable_stages,
    recalibrate,
    stagewise_validation,
    validation_report,
)

SITES = ("hungarian", "switzerland", "va")
COLUMNS = ("age", "sex", "cp", "trestbps", "chol", "fbs", "restecg", "thalach", "exang", "oldpeak")
CATEGORIES = ("cp", "restecg")
SETUPS = {"default": {}, "paper": PAPER_SETUP}
SHOWN = ("citl", "slope", "brier", "auc")


def load_site(site):
    """(X, y) of one site: the shared columns, missing as NaN, categories as text."""
    frame = pd.read_csv(data_dir() / f"heart_{site}.csv")
    X = frame[list(COLUMNS)].astype(float)
    X["chol"] = X["chol"].where(X["chol"] > 0)
    for name in CATEGORIES:
        X[name] = X[name].map(lambda v: None if pd.isna(v) else str(int(v))).astype(object)
    return X, (frame["num"] > 0).to_numpy(dtype=np.int64)


def slope_summary(slopes):
    """Median and quartiles of the finite slopes, and how many halves had none (separated)."""
    finite = slopes[np.isfinite(slopes)]
    text = "slope median " + (
        f"{finite.median():.2f} [{finite.quantile(0.25):.2f}, {finite.quantile(0.75):.2f}]" if len(finite) else "–"
    )
    return text + (f" ({len(slopes) - len(finite)} halves separated)" if len(finite) < len(slopes) else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--halves", type=int, default=20)
    parser.add_argument("--setups", nargs="+", default=list(SETUPS))
    parser.add_argument("--sites", nargs="+", default=list(SITES))
    args = parser.parse_args()
    X_train, y_train = load_site("cleveland")
    complete = X_train.notna().all(axis=1).to_numpy()
    X_train, y_train = X_train[complete].reset_index(drop=True), y_train[complete]
    for name in CATEGORIES:
        X_train[name] = pd.Categorical(X_train[name])
    for setup in args.setups:
        model = ProbabilisticScoringList(recommend_folds=5, **SETUPS[setup]).fit(X_train, y_train)
        stage = model.recommended_stages_
        print(f"=== setup {setup}: {len(model.literals_)} questions, recommended stage {stage} "
              f"(Cleveland n={len(y_train)}) ===")
        print("   " + "; ".join(
            f"{lit.column} {lit.category or ''}{'' if lit.threshold is None else f'> {lit.threshold:g}'}: {s:+d}"
            for lit, s in zip(model.literals_[:stage], model.scores_)))
        for site in args.sites:
            X, y = load_site(site)
            counts = stagewise_validation(model, X, y)["n_rows"]
            judged = int(stage)
            while counts.iloc[judged] < 20 and judged > 0:  # too few answering patients: judge earlier
                judged -= 1
            whole = validation_report(model, X, y, stage=judged, n_boot=1000)
            print(f"-- {site} (n={len(y)}, {100 * y.mean():.1f} % positive): judged at stage {judged} on "
                  f"{whole.n_rows} answering patients --")
            print("   original, whole site: " + ", ".join(
                f"{m} {r.estimate:.3f} [{r.lower:.3f}, {r.upper:.3f}]"
                for m, r in whole.measures.loc[list(SHOWN)].iterrows()))
            before, after, kept = [], [], []
            splitter = StratifiedShuffleSplit(n_splits=args.halves, test_size=0.5, random_state=0)
            for fit_rows, test_rows in splitter.split(np.zeros(len(y)), y):
                X_fit, X_test = X.iloc[fit_rows], X.iloc[test_rows]
                n_stages = min(judged, max(recalibratable_stages(model, X_fit, y[fit_rows]), 0))
                fitted = recalibrate(model, X_fit, y[fit_rows], n_stages)
                at = min(judged, n_stages)
                before.append(validation_report(model, X_test, y[test_rows], at, n_boot=1).measures["estimate"])
                after.append(validation_report(fitted, X_test, y[test_rows], at, n_boot=1).measures["estimate"])
                kept.append(at)
            before, after = pd.DataFrame(before)[list(SHOWN)], pd.DataFrame(after)[list(SHOWN)]
            for label, table in (("before", before), ("after", after)):
                print(f"   {label:6s} (held-out halves): " + ", ".join(
                    slope_summary(table[m]) if m == "slope" else f"{m} {table[m].mean():.3f} ({table[m].std():.3f})"
                    for m in SHOWN))
            comparable = np.isfinite(before["slope"]) & np.isfinite(after["slope"])
            toward = np.abs(after["slope"] - 1)[comparable] < np.abs(before["slope"] - 1)[comparable]
            print(f"   slope nearer 1 after recalibration in {int(toward.sum())} of {int(comparable.sum())} halves "
                  "with finite slopes; "
                  f"Brier lower in {int((after['brier'] < before['brier']).sum())}; stages judged {sorted(set(kept))}")


if __name__ == "__main__":
    main()
