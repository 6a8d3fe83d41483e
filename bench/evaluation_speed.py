"""How long the Evaluation page's Monte Carlo cross-validation takes, serial and in parallel.

Run from the repository root with the project's python:

    python bench/evaluation_speed.py                  # demo and breast cancer, 100 splits, 1 and all cores
    python bench/evaluation_speed.py --datasets demo --splits 20 --jobs -1
    python bench/evaluation_speed.py --max-stages 8
    python bench/evaluation_speed.py --datasets demo --jobs -1 --evidence-ratio

Datasets: ``demo`` (the bundled 303-patient heart data as the app prepares it: 297 rows x
13 columns) and ``breast_cancer`` (scikit-learn's 569 x 30 table, 1 = malignant). The
list is psl_core's default setup (``ProbabilisticScoringList()``, every stage measured,
as the page runs it). For each ``--jobs`` value a warm-up run of 2 splits comes first
(numba's kernels loaded, joblib's worker processes started: printed as "start-up"); then
:func:`psl_core.evaluation.monte_carlo_cv` with every stage measured for the list and both
logistic-regression baselines, the three-way view at its default confidence levels, and
the decision curves and held-out calibration (``--evidence-ratio`` times the same run
without them: their share of the time).
Wall time depends on what else runs on the machine (the load average is printed); CPU
time counts this process and its worker processes (psutil) and is the steadier figure.
"""

import argparse
import contextlib
import os
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from psl_core import ProbabilisticScoringList  # noqa: E402
from psl_core.evaluation import monte_carlo_cv  # noqa: E402
from psl_triage.data import infer_column_types, prepare_training_data  # noqa: E402
from psl_triage.data.demo import load_demo  # noqa: E402


def demo_data():
    df, meta = load_demo()
    types = infer_column_types(df, meta.columns)
    prepared = prepare_training_data(df, types, meta.outcome, meta.positive_class, "drop", meta.columns)
    return prepared.X, prepared.y


def breast_cancer_data():
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    return X, (1 - y).to_numpy()


DATASETS = {"demo": demo_data, "breast_cancer": breast_cancer_data}


def cpu_seconds():
    """CPU seconds of this process and its live children (joblib's workers)."""
    try:
        import psutil
    except ImportError:
        return time.process_time()
    me = psutil.Process()
    total = sum(me.cpu_times()[:2])
    for child in me.children(recursive=True):
        with contextlib.suppress(psutil.Error):  # a worker that just ended
            total += sum(child.cpu_times()[:2])
    return total


def timed(X, y, make_model, n_splits, n_jobs, evidence=True):
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = monte_carlo_cv(X, y, make_model, n_splits=n_splits, n_jobs=n_jobs, evidence=evidence)
    return result, time.perf_counter() - wall, cpu_seconds() - cpu


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=100)
    parser.add_argument("--datasets", nargs="+", choices=list(DATASETS), default=list(DATASETS))
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, -1],
                        help="n_jobs values to time (default: 1 and -1, every core)")
    parser.add_argument("--max-stages", type=int, default=None, help="default: every feature")
    parser.add_argument("--evidence-ratio", action="store_true",
                        help="also time each run without the decision curves and held-out calibration")
    args = parser.parse_args(argv)
    load = os.getloadavg()
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")

    def make_model():
        return ProbabilisticScoringList(max_stages=args.max_stages)

    for name in args.datasets:
        X, y = DATASETS[name]()
        print(f"\n{name}: {len(y)} rows x {X.shape[1]} columns, {args.splits} splits")
        reference = None
        for n_jobs in args.jobs:
            _, start_up, _ = timed(X, y, make_model, 2, n_jobs)
            result, wall, cpu = timed(X, y, make_model, args.splits, n_jobs)
            stages = result.measures.groupby("split")["stage"].max()
            same = ""
            if reference is None:
                reference = result
            else:
                same = ", same result as n_jobs={}: {}".format(
                    args.jobs[0], result.measures.equals(reference.measures)
                    and result.three_way.equals(reference.three_way))
            print(f"  n_jobs={n_jobs:>2}: {wall:6.2f} s wall, {cpu:6.2f} s CPU "
                  f"({1000 * wall / args.splits:.0f} ms wall per split; start-up {start_up:.2f} s; "
                  f"lists of {stages.min()}-{stages.max()} stages{same})", flush=True)
            if args.evidence_ratio:
                _, plain_wall, plain_cpu = timed(X, y, make_model, args.splits, n_jobs, evidence=False)
                print(f"  without decision curves and calibration: {plain_wall:6.2f} s wall, "
                      f"{plain_cpu:6.2f} s CPU; with them / without: {wall / plain_wall:.2f} wall, "
                      f"{cpu / plain_cpu:.2f} CPU", flush=True)
    load = os.getloadavg()
    print(f"\nload average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
