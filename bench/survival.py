"""Time-to-event lists against the Cox model and the naive yes/no list, at a 5-year horizon.

On the survival package's follow-up tables (R ``survival``; CSV exports of its datasets, not
shipped: pass the folder), 20 Monte Carlo splits (2/3 train, 1/3 test): the list with 5
questions (``ProbabilisticScoringList(horizon=tau, max_stages=5)``, the app's defaults
otherwise), a Cox model on all features (scikit-survival), and the same list trained on
"event during follow-up" (the naive yes/no list). Measures at tau: IPCW Brier score,
time-dependent AUC and observed/expected (psl_core.survival).

    .venv/bin/python bench/survival.py /path/to/tables/survival [n_splits] [recommend] [entropy]

``recommend``: the list as the Train page fits it, with its internal cross-validation
(``recommend_folds=5``, which also shrinks the risks toward the base rate). ``entropy``: the
paper's criterion, IPCW-weighted expected entropy, instead of the cross-validated Brier score.
"""

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from psl_core import ProbabilisticScoringList
from psl_core.survival import horizon_splits, survival_outcome

# table: (time column, event column or rule, columns that are not predictors, horizon in days)
TABLES = {
    "gbsg": ("rfstime", "status", ["pid"], 1825),
    "rotterdam": ("rtime", "recur", ["pid", "dtime", "death"], 1825),
    "flchain": ("futime", "death", ["chapter"], 1825),  # chapter: the cause of death
    "colon": ("time", "status", ["id", "study", "etype", "node4"], 1825),  # etype 2: death
    "pbc": ("time", lambda s: s == 2, ["id"], 1825),  # 2 = death; transplant (1) censored
}


def load(folder, name):
    time_column, event, drop, horizon = TABLES[name]
    frame = pd.read_csv(Path(folder) / f"{name}.csv").drop(columns=["rownames"])
    if name == "colon":
        frame = frame[frame["etype"] == 2]
    event_values = event(frame["status"]) if callable(event) else frame[event] == 1
    y = survival_outcome(frame[time_column].to_numpy(float), event_values.to_numpy(bool))
    X = frame.drop(columns=[time_column, "status" if callable(event) else event, *drop])
    return X.reset_index(drop=True), y, horizon


def main(folder, n_splits=20, recommend=False, entropy=False):
    settings = dict(max_stages=5, recommend_folds=5 if recommend else None, **({"loss": "entropy"} if entropy else {}))
    print("| table | n | events by tau | censored before tau | list Brier | Cox Brier | list - Cox | "
          "list AUC | Cox AUC | list O/E | naive O/E | s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name in TABLES:
        X, y, horizon = load(folder, name)
        start = time.perf_counter()
        r = horizon_splits(X, y, horizon, lambda: ProbabilisticScoringList(**settings), n_splits=n_splits)
        seconds = time.perf_counter() - start
        events = int(np.sum(y["event"] & (y["time"] <= horizon)))
        censored = int(np.sum(~y["event"] & (y["time"] <= horizon)))
        print(f"| {name} | {len(y)} | {events} | {censored} | {r['list_brier'].mean():.4f} | "
              f"{r['cox_brier'].mean():.4f} | {(r['list_brier'] - r['cox_brier']).mean():+.4f} | "
              f"{r['list_auc'].mean():.3f} | {r['cox_auc'].mean():.3f} | {r['list_oe'].mean():.3f} | "
              f"{r['naive_oe'].mean():.3f} | {seconds:.0f} |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20, "recommend" in sys.argv[3:], "entropy" in sys.argv[3:])
