"""How psl_core's fit time grows with rows and features, on synthetic data.

Run from the repository root with the project's python:

    python bench/scaling.py            # rows 1k..1M x features 10, 30, 100, max_stages=5
    python bench/scaling.py --quick    # rows 1k..100k x features 10, 30 (about a minute)
    python bench/scaling.py --rows 1000 100000 --features 10 --max-stages 3

Data: a logistic model on random features, half continuous (standard normal, full float
precision, so every value is distinct: the worst case for threshold search) and half binary
(Bernoulli(0.3)); the first 10 features carry signal, the rest are noise. One fit per
configuration, after a small warm-up fit that absorbs numba's compilation (reported), with the
process's peak resident memory during the fit (Linux: VmHWM, reset before each fit).
Row counts run in increasing order; a configuration whose time, extrapolated from the same
feature count's smaller runs (log-log slope, at least linear), would overrun --budget
seconds for the whole run is skipped and listed with its prediction.
"""

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

DEFAULT_ROWS = (1_000, 10_000, 100_000, 1_000_000)
DEFAULT_FEATURES = (10, 30, 100)
QUICK_ROWS = (1_000, 10_000, 100_000)
QUICK_FEATURES = (10, 30)
N_INFORMATIVE = 10


def synthetic(n_rows, n_features, seed=0):
    """X float64 (n_rows, n_features): continuous columns first, then binary; y in {0, 1}."""
    rng = np.random.default_rng(seed)
    n_continuous = (n_features + 1) // 2
    X = np.empty((n_rows, n_features))
    X[:, :n_continuous] = rng.standard_normal((n_rows, n_continuous))
    X[:, n_continuous:] = rng.random((n_rows, n_features - n_continuous)) < 0.3
    weights = np.zeros(n_features)
    # Interleave signal between continuous and binary columns.
    informative = np.argsort(np.arange(n_features) % n_continuous, kind="stable")[:N_INFORMATIVE]
    weights[informative] = rng.normal(0.0, 1.0, size=len(informative))
    standardized = (X - X.mean(axis=0)) / np.where(X.std(axis=0) > 0, X.std(axis=0), 1.0)
    logits = standardized @ weights - 0.5
    y = (rng.random(n_rows) < 1.0 / (1.0 + np.exp(-logits))).astype(np.int64)
    return X, y


def reset_peak_memory():
    """Reset the process's peak resident memory (Linux: /proc/self/clear_refs); False if unsupported."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def resident_mb(field):
    """VmRSS (now) or VmHWM (peak since the last reset) of this process in MB; NaN if unknown."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def predict_seconds(points, n_rows):
    """Extrapolate from this feature count's measured points, assuming at least linear growth."""
    if not points:
        return None
    slope = max(1.0, loglog_slope([p[0] for p in points[-2:]], [p[1] for p in points[-2:]])
                if len(points) >= 2 else 1.0)
    last_rows, last_seconds = points[-1][:2]
    return last_seconds * (n_rows / last_rows) ** slope


def loglog_slope(rows, seconds):
    if len(rows) < 2:
        return float("nan")
    return float(np.polyfit(np.log(rows), np.log(seconds), 1)[0])


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="psl_core fit time vs rows and features")
    parser.add_argument("--quick", action="store_true", help="rows up to 100k, features 10 and 30")
    parser.add_argument("--rows", type=int, nargs="+")
    parser.add_argument("--features", type=int, nargs="+")
    parser.add_argument("--max-stages", type=int, default=5)
    parser.add_argument("--setup", choices=["paper", "default"], default="paper",
                        help="psl_core's paper setup (PAPER_SETUP, the default here) or its defaults")
    parser.add_argument("--budget", type=float, default=540.0,
                        help="seconds for the whole run; a configuration whose predicted time "
                             "would exceed it is skipped and reported (default 540)")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    rows = args.rows or (QUICK_ROWS if args.quick else DEFAULT_ROWS)
    features = args.features or (QUICK_FEATURES if args.quick else DEFAULT_FEATURES)

    try:
        from psl_core import PAPER_SETUP, ProbabilisticScoringList
    except ImportError as error:
        print(f"psl_core could not be imported ({type(error).__name__}: {error})", file=sys.stderr)
        return 1

    params = {} if args.setup == "default" else PAPER_SETUP

    def make_model():
        return ProbabilisticScoringList(**params, max_stages=args.max_stages)

    X, y = synthetic(500, 6, seed=1)
    start = time.perf_counter()
    make_model().fit(X, y)
    print(f"warm-up fit (500 rows, 6 features, includes JIT compile/cache load): "
          f"{time.perf_counter() - start:.2f} s")
    print(f"max_stages={args.max_stages}, psl_core's {args.setup} setup\n")
    load = os.getloadavg()
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    print("peak MB: the process's peak resident memory during the fit (VmHWM, reset before it; it holds")
    print("the data: X float64 and y); before MB: resident memory just before the fit")
    print(f"{'features':>8}  {'rows':>9}  {'wall s':>9}  {'CPU s':>9}  {'us/row':>8}  {'data s':>7}"
          f"  {'before MB':>9}  {'peak MB':>8}")

    timings = {n_features: [] for n_features in features}
    run_start = time.perf_counter()
    for n_rows in sorted(rows):
        for n_features in features:
            predicted = predict_seconds(timings[n_features], n_rows)
            elapsed = time.perf_counter() - run_start
            if predicted is not None and elapsed + predicted > args.budget:
                print(f"{n_features:>8}  {n_rows:>9}  {'skipped':>9}  (predicted ~{predicted:.0f} s, "
                      f"{elapsed:.0f} s of the {args.budget:.0f} s budget used)", flush=True)
                continue
            timings[n_features].append(timed_fit(make_model, n_rows, n_features))
    print_growth(timings)
    return 0


def timed_fit(make_model, n_rows, n_features):
    """Fit one configuration on fresh synthetic data and print its row of the table; (rows, wall
    seconds, CPU seconds) of the fit."""
    start = time.perf_counter()
    X, y = synthetic(n_rows, n_features)
    data_seconds = time.perf_counter() - start
    before = resident_mb("VmRSS")
    reset = reset_peak_memory()
    start, cpu_start = time.perf_counter(), time.process_time()
    make_model().fit(X, y)
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    peak = resident_mb("VmHWM") if reset else float("nan")
    del X, y
    print(f"{n_features:>8}  {n_rows:>9}  {seconds:>9.3f}  {cpu_seconds:>9.3f}  "
          f"{1e6 * seconds / n_rows:>8.2f}  {data_seconds:>7.2f}  {before:>9.0f}  {peak:>8.0f}", flush=True)
    return n_rows, seconds, cpu_seconds


def print_growth(timings):
    """The growth exponent of wall and CPU time with rows, per feature count."""
    print("\ngrowth exponent: least-squares slope of log(time) vs log(rows), 1 = linear;")
    print("CPU time is the steadier measure when other processes share the cores")
    for n_features, points in timings.items():
        r = [p[0] for p in points]
        parts = []
        for label, column in (("wall", 1), ("CPU", 2)):
            t = [p[column] for p in points]
            last = f" (last step {loglog_slope(r[-2:], t[-2:]):.2f})" if len(r) > 2 else ""
            parts.append(f"{label} {loglog_slope(r, t):.2f}{last}")
        print(f"  {n_features:>3} features, {len(r)} row counts: " + ", ".join(parts))


if __name__ == "__main__":
    sys.exit(main())
