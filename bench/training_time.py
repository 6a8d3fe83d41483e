"""How long a training takes against what the Train page estimates before it starts
(``psl_triage.training.runs.training_estimate``, whose constants were measured with this
script on a 2-core machine, and that estimate at the machine's present load,
``psl_triage.training.fit.training_slowdown``, as the Train page checks it): tables of
categorical and numeric columns, trained with the recommended setup as the Train page does
(``train_list``, internal folds included).

    nice -n 10 .venv/bin/python bench/training_time.py
"""

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from psl_core.warmup import warm_kernels  # noqa: E402
from psl_triage.data.demo import load_demo  # noqa: E402
from psl_triage.data.session import DatasetSession  # noqa: E402
from psl_triage.training.fit import train_list, training_slowdown  # noqa: E402
from psl_triage.training.options import SETUPS, TrainingOptions  # noqa: E402
from psl_triage.training.runs import training_estimate  # noqa: E402

SHAPES = (  # categorical columns, their levels, numeric columns, rows, maximum stages
    (60, 29, 0, 5000, 10), (60, 29, 0, 5000, 30), (0, 2, 40, 5000, None), (30, 29, 0, 2500, 20),
    (20, 10, 10, 2000, None),
)


def table(n_categorical, levels, n_numeric, n_rows, seed=0):
    rng = np.random.default_rng(seed)
    columns, signal = {}, np.zeros(n_rows)
    names = np.array([f"L{k:02d}" for k in range(levels)])
    for j in range(n_categorical):
        codes = rng.integers(0, levels, n_rows)
        columns[f"c{j}"] = names[codes]
        signal += 0.8 * (codes % 3 == 0) * (j < 5)
    for j in range(n_numeric):
        columns[f"x{j}"] = rng.normal(size=n_rows).round(2)
        signal += 0.7 * columns[f"x{j}"] * (j < 3)
    chance = 1 / (1 + np.exp(-(signal - signal.mean() - 1)))
    columns["outcome"] = np.where(rng.random(n_rows) < chance, "yes", "no")
    return pd.DataFrame(columns)


def prepared(frame):
    data = DatasetSession(load_demo)
    data.read_upload("t", "t.csv", lambda: frame.to_csv(index=False).encode(), 10**9)
    data.choose_outcome("outcome")
    data.choose_positive(["yes"])
    return data.refresh()


if __name__ == "__main__":
    warm_kernels()
    print("categorical x levels + numeric, rows, max stages: estimated s quiet, x slowdown = at this load "
          "(questions, stages) / measured s (stages searched)")
    for n_categorical, levels, n_numeric, n_rows, max_stages in SHAPES:
        data = prepared(table(n_categorical, levels, n_numeric, n_rows))
        options = TrainingOptions(**SETUPS["recommended"], max_stages=max_stages)
        estimate = training_estimate(data.X, options)
        loaded = estimate.slowed(training_slowdown(data.X, estimate.rows))
        searched = []
        start = time.perf_counter()
        train_list(data, "t", options, progress=lambda stage, n, seen=searched: seen.append(stage))
        seconds = time.perf_counter() - start
        print(f"{n_categorical} x {levels} + {n_numeric}, {n_rows} rows, {max_stages}: {estimate.seconds:.1f} s, "
              f"x {loaded.slowdown:.2f} = {loaded.seconds:.1f} s "
              f"({estimate.questions} questions, up to {estimate.stages} stages) / {seconds:.1f} s "
              f"({len(searched)} stages searched)", flush=True)
