"""The Evaluation page's fixed cost: starting joblib's worker processes before the first split.

Run from the repository root with the project's python (about 30 s under load):

    PYTHONPATH=. python bench/worker_start.py

Each repeat is a new process that runs three Monte Carlo evaluations of 2 splits of a
one-question list on 90 rows: the first starts the workers (each imports psl_core and loads
its compiled kernels), the other two reuse them. Printed: the cold run, the warm runs, and
the start-up (cold minus the faster warm run): :data:`psl_triage.training.runs.WORKER_START_S`.
"""

import argparse
import statistics
import subprocess
import sys
import time

ONE_PROCESS = """
import time
import numpy as np
import pandas as pd
from psl_core import ProbabilisticScoringList
from psl_core.evaluation import monte_carlo_cv

rng = np.random.default_rng(0)
X = pd.DataFrame({"a": rng.normal(size=90), "b": rng.normal(size=90)})
y = (X["a"] + rng.normal(size=90) > 0).astype(int).to_numpy()
times = []
for _ in range(3):
    start = time.perf_counter()
    monte_carlo_cv(X, y, lambda: ProbabilisticScoringList(max_stages=1), n_splits=2, evidence=False)
    times.append(time.perf_counter() - start)
print(times[0], min(times[1:]))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    start_ups = []
    for _ in range(args.repeats):
        out = subprocess.run([sys.executable, "-c", ONE_PROCESS], capture_output=True, text=True, check=True)
        cold, warm = map(float, out.stdout.split())
        start_ups.append(cold - warm)
        print(f"cold {cold:.2f} s, warm {warm:.2f} s: start-up {cold - warm:.2f} s", flush=True)
    print(f"median start-up {statistics.median(start_ups):.2f} s over {args.repeats} runs "
          f"({time.strftime('%H:%M')}; compare psl_triage.training.runs.WORKER_START_S)")


if __name__ == "__main__":
    main()
