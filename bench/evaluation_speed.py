"""How long the Evaluation page's Monte Carlo cross-validation takes on the demo data.

Run from the repository root with the project's python:

    python bench/evaluation_speed.py                  # 100 splits, the paper's setup
    python bench/evaluation_speed.py --splits 20 --max-stages 8

One warm-up split absorbs numba's compilation (reported separately); then the timed run of
:func:`psl_core.evaluation.monte_carlo_cv` with every stage measured for the list and both
logistic-regression baselines, and the three-way view at its default confidence levels.
Wall time depends on what else runs on the machine; the process's CPU time is printed too.
"""

import argparse
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from psl_core import ProbabilisticScoringList  # noqa: E402
from psl_core.evaluation import monte_carlo_cv  # noqa: E402
from psl_triage.data import infer_column_types, prepare_training_data  # noqa: E402
from psl_triage.demo import load_demo  # noqa: E402


def demo_data():
    df, meta = load_demo()
    types = infer_column_types(df, meta.columns)
    prepared = prepare_training_data(df, types, meta.outcome, meta.positive_class, "drop", meta.columns)
    return prepared.X, prepared.y


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=100)
    parser.add_argument("--max-stages", type=int, default=None, help="default: every feature")
    args = parser.parse_args(argv)
    X, y = demo_data()

    def make_model():
        return ProbabilisticScoringList(max_stages=args.max_stages)

    start = time.perf_counter()
    monte_carlo_cv(X, y, make_model, n_splits=1)
    warm_up = time.perf_counter() - start

    wall, cpu = time.perf_counter(), time.process_time()
    result = monte_carlo_cv(X, y, make_model, n_splits=args.splits)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    stages = result.measures.groupby("split")["stage"].max()
    print(f"demo data: {len(y)} rows x {X.shape[1]} columns; lists of {stages.min()}-{stages.max()} stages")
    print(f"warm-up (1 split, includes numba compilation): {warm_up:.2f} s")
    print(f"{args.splits} splits: {wall:.2f} s wall, {cpu:.2f} s CPU "
          f"({1000 * wall / args.splits:.0f} ms per split)")


if __name__ == "__main__":
    main()
