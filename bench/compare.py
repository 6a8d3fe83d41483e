"""Side-by-side benchmark: psl_core against scikit-psl 0.7.2 and FasterRisk.

Run from the repository root with the project's python:

    python bench/compare.py                      # 4 datasets, 3 splits
    python bench/compare.py --splits 10 --sklearn-breast-cancer
    python bench/compare.py --datasets heart_cleveland pima --json results.json

The peers run in their own venv (``bench/setup_peers.sh`` creates ``bench/.venv-peers``) as
subprocesses of ``bench/peers_worker.py``; psl_core runs in this process. Every learner sees
the same numeric matrix (``bench/bench_datasets.py``) and the same splits:
``StratifiedShuffleSplit(n_splits, test_size=1/3, random_state=0)``. Learners run one after
another, never concurrently, so their timings do not compete for the two cores.

psl_core: ``ProbabilisticScoringList(score_set=(-3,-2,-1,1,2,3), calibration="isotonic",
binarization="in-search", threshold_search="bisect")``. Its first fit in this process (which
includes numba's compilation, or loading its cache) is reported separately; the timed fits
come after that warm-up.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from sklearn.metrics import brier_score_loss, roc_auc_score
from sklearn.model_selection import StratifiedShuffleSplit

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
sys.path.insert(0, str(BENCH_DIR))
sys.path.insert(0, str(REPO_ROOT))
from bench_datasets import DATASETS, OPTIONAL_DATASETS, load_dataset  # noqa: E402

DEFAULT_PEERS_PYTHON = BENCH_DIR / ".venv-peers" / "bin" / "python"
PSL_CORE_PARAMS = dict(
    score_set=(-3, -2, -1, 1, 2, 3),
    calibration="isotonic",
    binarization="in-search",
    threshold_search="bisect",
)


def import_psl_core():
    """Return psl_core's estimator class, or None with the reason printed."""
    try:
        from psl_core import ProbabilisticScoringList
    except Exception as error:  # the engine may be missing or half-written
        print(
            f"psl_core could not be imported ({type(error).__name__}: {error}); "
            "benchmarking the peers only.",
            file=sys.stderr,
        )
        return None
    return ProbabilisticScoringList


def make_splits(y, n_splits):
    splitter = StratifiedShuffleSplit(n_splits=n_splits, test_size=1 / 3, random_state=0)
    return list(splitter.split(np.zeros((len(y), 1)), y))


def auc(y, p):
    return float(roc_auc_score(y, p)) if len(np.unique(y)) == 2 else float("nan")


def metrics(y, p):
    p = np.asarray(p, dtype=np.float64)
    return {"brier": float(brier_score_loss(y, p)), "auc": auc(y, p)}


def run_peer(python, dataset, splits, method, timeout):
    """Run peers_worker.py for all splits of one dataset; returns its list of results."""
    payload = [{"train": tr.tolist(), "test": te.tolist()} for tr, te in splits]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(payload, handle)
        split_file = handle.name
    try:
        completed = subprocess.run(
            [str(python), str(BENCH_DIR / "peers_worker.py"), "--dataset", dataset,
             "--splits", split_file, "--method", method],
            capture_output=True, text=True, timeout=timeout, cwd=REPO_ROOT,
        )
    except subprocess.TimeoutExpired:
        print(f"  {method} on {dataset}: timed out after {timeout} s", file=sys.stderr)
        return None
    finally:
        Path(split_file).unlink(missing_ok=True)
    if completed.returncode != 0:
        tail = "\n".join(completed.stderr.strip().splitlines()[-5:])
        print(f"  {method} on {dataset} failed (exit {completed.returncode}):\n{tail}", file=sys.stderr)
        return None
    return json.loads(completed.stdout)


def run_psl_core(estimator, X, y, splits):
    """Warm-up fit on split 0 (timed as 'first fit'), then one timed fit per split."""
    train0 = splits[0][0]
    start = time.perf_counter()
    estimator(**PSL_CORE_PARAMS).fit(X[train0], y[train0])
    first_fit = time.perf_counter() - start

    results = []
    for train, test in splits:
        model = estimator(**PSL_CORE_PARAMS)
        start, cpu_start = time.perf_counter(), time.process_time()
        model.fit(X[train], y[train])
        seconds = time.perf_counter() - start
        cpu_seconds = time.process_time() - cpu_start
        stage_proba = [model.predict_proba(X[test], stage=k)[:, 1] for k in range(model.n_stages_)]
        results.append({
            "fit_seconds": seconds,
            "cpu_seconds": cpu_seconds,
            "stage_proba": stage_proba,
            "features": [int(f) for f in model.features_],
            "scores": [int(s) for s in model.scores_],
        })
    return first_fit, results


def stagewise(results, splits, y):
    """Mean test Brier and AUC per stage over splits; a stage missing in a split is skipped."""
    n_stages = max(len(r["stage_proba"]) for r in results)
    rows = []
    for k in range(n_stages):
        scores = [
            metrics(y[test], r["stage_proba"][k])
            for r, (_, test) in zip(results, splits)
            if k < len(r["stage_proba"])
        ]
        rows.append({
            "brier": float(np.mean([s["brier"] for s in scores])),
            "auc": float(np.mean([s["auc"] for s in scores])),
            "n_splits": len(scores),
        })
    return rows


def timing(results):
    return {
        "median_fit": statistics.median(r["fit_seconds"] for r in results),
        "median_cpu": statistics.median(r["cpu_seconds"] for r in results),
        "fit_seconds": [r["fit_seconds"] for r in results],
        "cpu_seconds": [r["cpu_seconds"] for r in results],
    }


def fmt(value, spec=".4f"):
    return "-" if value is None or (isinstance(value, float) and np.isnan(value)) else format(value, spec)


def report_dataset(name, shape, summary):
    n, d = shape
    print(f"\n=== {name}  (n={n}, d={d}, splits={summary['n_splits']}) ===")
    core, sk, fr = summary.get("psl_core"), summary.get("skpsl"), summary.get("fasterrisk")
    print("fit time, median over splits:  wall s   (CPU s)")
    if core:
        print(f"  psl_core    {core['median_fit']:10.4f}   ({core['median_cpu']:.4f})"
              f"   first fit in process {core['first_fit']:.3f} s")
    if sk:
        print(f"  skpsl       {sk['median_fit']:10.3f}   ({sk['median_cpu']:.3f})")
    if fr:
        print(f"  FasterRisk  {fr['median_fit']:10.3f}   ({fr['median_cpu']:.3f})")
    if core and sk:
        print(f"time ratio skpsl / psl_core: wall {sk['median_fit'] / core['median_fit']:.0f}x, "
              f"CPU {sk['median_cpu'] / max(core['median_cpu'], 1e-9):.0f}x")
    if fr:
        print(f"FasterRisk (k=5, [-5,5], quartile features) test Brier {fr['brier']:.4f}   AUC {fr['auc']:.4f}")
    stages = max(len(core["stages"]) if core else 0, len(sk["stages"]) if sk else 0)
    if stages:
        print(f"{'stage':>5}  {'Brier core':>10}  {'Brier skpsl':>11}  {'AUC core':>8}  {'AUC skpsl':>9}")
        for k in range(stages):
            c = core["stages"][k] if core and k < len(core["stages"]) else {}
            s = sk["stages"][k] if sk and k < len(sk["stages"]) else {}
            print(f"{k:>5}  {fmt(c.get('brier')):>10}  {fmt(s.get('brier')):>11}  "
                  f"{fmt(c.get('auc')):>8}  {fmt(s.get('auc')):>9}")
    for label, part in (("psl_core", core), ("skpsl", sk)):
        if part:
            print(f"{label} split 0 list: " + ", ".join(
                f"{part['feature_names'][f]}{s:+d}" for f, s in zip(part["features0"], part["scores0"])))


def main(argv=None):
    parser = argparse.ArgumentParser(description="psl_core vs scikit-psl and FasterRisk")
    parser.add_argument("--splits", type=int, default=3, help="number of Monte Carlo splits (default 3)")
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS),
                        choices=list(DATASETS + OPTIONAL_DATASETS))
    parser.add_argument("--sklearn-breast-cancer", action="store_true",
                        help="add scikit-learn's breast cancer data (skpsl needs ~156 s per fit)")
    parser.add_argument("--peers-python", type=Path, default=DEFAULT_PEERS_PYTHON)
    parser.add_argument("--no-peers", action="store_true", help="benchmark psl_core only")
    parser.add_argument("--no-fasterrisk", action="store_true")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds per peer subprocess")
    parser.add_argument("--json", type=Path, help="also write the summary to this file")
    args = parser.parse_args(argv)

    datasets = list(args.datasets)
    if args.sklearn_breast_cancer and "breast_cancer" not in datasets:
        datasets.append("breast_cancer")

    estimator = import_psl_core()
    methods = []
    if not args.no_peers:
        if args.peers_python.exists():
            methods = ["skpsl"] + ([] if args.no_fasterrisk else ["fasterrisk"])
        else:
            print(f"peers venv python {args.peers_python} not found; run `bash bench/setup_peers.sh` "
                  "first. Benchmarking psl_core only.", file=sys.stderr)
    if estimator is None and not methods:
        print("nothing to benchmark: neither psl_core nor the peers are available", file=sys.stderr)
        return 1

    load = os.getloadavg()
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores "
          "(above ~1, other processes compete and wall times grow; CPU times are less affected)")
    all_summaries = {}
    for name in datasets:
        X, y, feature_names = load_dataset(name)
        splits = make_splits(y, args.splits)
        summary = {"n_splits": len(splits), "shape": list(X.shape)}

        if estimator is not None:
            try:
                first_fit, results = run_psl_core(estimator, X, y, splits)
            except Exception as error:
                print(f"  psl_core failed on {name}: {type(error).__name__}: {error}", file=sys.stderr)
            else:
                summary["psl_core"] = {
                    "first_fit": first_fit,
                    **timing(results),
                    "stages": stagewise(results, splits, y),
                    "features0": results[0]["features"], "scores0": results[0]["scores"],
                    "feature_names": feature_names,
                }

        for method in methods:
            results = run_peer(args.peers_python, name, splits, method, args.timeout)
            if results is None:
                continue
            part = timing(results)
            if method == "skpsl":
                part.update(stages=stagewise(results, splits, y), features0=results[0]["features"],
                            scores0=results[0]["scores"], feature_names=feature_names)
            else:
                per_split = [metrics(y[test], r["proba"]) for r, (_, test) in zip(results, splits)]
                part.update(brier=float(np.mean([m["brier"] for m in per_split])),
                            auc=float(np.mean([m["auc"] for m in per_split])),
                            models=[r["model"] for r in results])
            summary[method] = part

        report_dataset(name, X.shape, summary)
        all_summaries[name] = summary
        sys.stdout.flush()

    if args.json:
        args.json.write_text(json.dumps(all_summaries, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
