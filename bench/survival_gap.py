"""Where the list's gap to Cox at the horizon comes from (issue 29): experiments.

    .venv/bin/python bench/survival_gap.py [n_splits] [table ...]

On each split (the same 2/3 : 1/3 splits as ``bench/survival.py``) besides the list and Cox:

- ``ipcw_lr``: logistic regression on all features, fitted on the IPCW-weighted yes/no problem
  the list learns from (patients censored before tau left out): what dropping them costs a
  model that is not a list;
- ``cox_lit``: a Cox model on the list's own five yes/no answers: what its questions can do
  with the censored patients kept;
- ``km_total``: the list's questions, the risk per total re-estimated by Kaplan-Meier within
  the total (censored patients kept) instead of the IPCW-weighted rate.
"""

import sys
import time
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import ShuffleSplit
from sklearn.utils import _safe_indexing

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from survival_tables import TABLES, load  # noqa: E402

from psl_core import ProbabilisticScoringList  # noqa: E402
from psl_core.survival import (  # noqa: E402
    cox_risk,
    design_matrix,
    ipcw_brier,
    ipcw_targets,
    kaplan_meier_risk,
)


def ipcw_logistic(X_train, y_train, X_test, horizon):
    A, B = design_matrix(X_train, X_test)
    mean, scale = A.mean(axis=0), A.std(axis=0)
    scale[scale == 0] = 1.0
    outcome, weight = ipcw_targets(y_train, horizon)
    kept = weight > 0
    model = LogisticRegression(C=1e4, max_iter=2000).fit((A[kept] - mean) / scale, outcome[kept], sample_weight=weight[kept])
    return model.predict_proba((B - mean) / scale)[:, 1]


def km_by_total(totals_train, y_train, totals_test, horizon, fallback):
    risk = np.full(len(totals_test), fallback)
    for t in np.unique(totals_test):
        member = totals_train == t
        if member.sum() >= 5 and y_train["event"][member].any():
            risk[totals_test == t] = kaplan_meier_risk(y_train[member], horizon)
    return risk


def run(name, n_splits, settings):
    X, y, horizon = load(name)
    scores = {}
    started = time.perf_counter()
    for train, test in ShuffleSplit(n_splits=n_splits, test_size=1 / 3, random_state=0).split(np.zeros(len(y))):
        X_train, X_test = _safe_indexing(X, train), _safe_indexing(X, test)
        psl = ProbabilisticScoringList(horizon=horizon, **settings).fit(X_train, y[train])
        literals_train = np.diff(psl.stagewise_totals(X_train), axis=1) != 0
        literals_test = np.diff(psl.stagewise_totals(X_test), axis=1) != 0
        risks = {
            "list": psl.predict_proba(X_test)[:, 1],
            "cox": cox_risk(X_train, y[train], X_test, horizon),
            "ipcw_lr": ipcw_logistic(X_train, y[train], X_test, horizon),
            "cox_lit": cox_risk(literals_train.astype(float), y[train], literals_test.astype(float), horizon),
            "km_total": km_by_total(psl.total_scores(X_train), y[train], psl.total_scores(X_test), horizon,
                                    kaplan_meier_risk(y[train], horizon)),
        }
        for key, risk in risks.items():
            scores.setdefault(key, []).append(ipcw_brier(y[train], y[test], risk, horizon))
    out = {key: np.array(v) for key, v in scores.items()}
    censored = np.mean(~y["event"] & (y["time"] <= horizon))
    cells = " | ".join(f"{(out[k] - out['cox']).mean():+.4f}" for k in out if k != "cox")
    print(f"| {name} | {len(y)} | {censored:.0%} | {out['cox'].mean():.4f} | {cells} | "
          f"{time.perf_counter() - started:.0f} |", flush=True)


def main():
    n_splits = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    names = sys.argv[2:] or list(TABLES)
    print("| table | n | censored before tau | Cox Brier | list - Cox | ipcw_lr - Cox | cox_lit - Cox | "
          "km_total - Cox | s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in names:
        run(name, n_splits, dict(max_stages=5, recommend_folds=5))


if __name__ == "__main__":
    main()
