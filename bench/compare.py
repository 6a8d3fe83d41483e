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

psl_core runs twice: its defaults (``ProbabilisticScoringList()``, the setup chosen by
evidence) and the paper's setup (``ProbabilisticScoringList(**PAPER_SETUP)``), both full
length like scikit-psl. Each one's first fit in this process (which includes numba's
compilation, or loading its cache) is reported separately; the timed fits come after that
warm-up. At the end of each dataset the issue's goals are checked for the default list:
test Brier at 5 stages at most FasterRisk's, at most scikit-psl's at every stage, never above
its own stage 0, and fitting at least 100x faster than scikit-psl.
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
GOAL_STAGE = 5  # the issue compares lists at 5 features with FasterRisk's k = 5
SPEED_GOAL = 100


def import_psl_core():
    """Return {label: (estimator class, params)} of psl_core's two setups, or {} with the
    reason printed."""
    try:
        from psl_core import PAPER_SETUP, ProbabilisticScoringList
    except ImportError as error:  # the engine may be missing or half-installed
        print(
            f"psl_core could not be imported ({type(error).__name__}: {error}); "
            "benchmarking the peers only.",
            file=sys.stderr,
        )
        return {}
    return {"default": (ProbabilisticScoringList, {}), "paper": (ProbabilisticScoringList, dict(PAPER_SETUP))}


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


def run_psl_core(estimator, params, X, y, splits):
    """Warm-up fit on split 0 (timed as 'first fit'), then one timed fit per split."""
    train0 = splits[0][0]
    start = time.perf_counter()
    estimator(**params).fit(X[train0], y[train0])
    first_fit = time.perf_counter() - start

    results = []
    for train, test in splits:
        model = estimator(**params)
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
    """Mean test Brier and AUC per stage over splits; a list that ended early (in a split
    where no further question improved its held-out criterion) answers with its last stage."""
    n_stages = max(len(r["stage_proba"]) for r in results)
    rows = []
    for k in range(n_stages):
        scores = [
            metrics(y[test], r["stage_proba"][min(k, len(r["stage_proba"]) - 1)])
            for r, (_, test) in zip(results, splits)
        ]
        rows.append({
            "brier": float(np.mean([s["brier"] for s in scores])),
            "split_brier": [s["brier"] for s in scores],
            "auc": float(np.mean([s["auc"] for s in scores])),
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


def paired_difference(ours, theirs):
    """Mean and standard error over splits of ``ours - theirs`` (per-split test Brier
    scores of the same splits), as text; the standard error is 0 with one split."""
    difference = np.asarray(ours) - np.asarray(theirs)
    se = np.std(difference, ddof=1) / np.sqrt(len(difference)) if len(difference) > 1 else 0.0
    return f"difference {np.mean(difference):+.4f} +/- {se:.4f} (SE over {len(difference)} splits)"


def goal_checks(summary):
    """The issue's goals for psl_core's default list, as (text, met) pairs.

    A comparison with a peer adds the paired difference of the per-split test Brier
    scores and its standard error: on a few splits a goal can be missed (or met) by less
    than the splits' own noise."""
    core, sk, fr = summary.get("default"), summary.get("skpsl"), summary.get("fasterrisk")
    if not core:
        return []
    rows = core["stages"]
    stages = [row["brier"] for row in rows]
    checks = []
    if fr and len(stages) > GOAL_STAGE:
        checks.append((
            f"Brier at {GOAL_STAGE} stages {stages[GOAL_STAGE]:.4f} <= FasterRisk {fr['brier']:.4f}; "
            + paired_difference(rows[GOAL_STAGE]["split_brier"], fr["split_brier"]),
            stages[GOAL_STAGE] <= fr["brier"],
        ))
    if sk:
        shared = min(len(stages), len(sk["stages"]))
        worse = [k for k in range(shared) if stages[k] > sk["stages"][k]["brier"]]
        details = "".join(
            f"; stage {k}: {paired_difference(rows[k]['split_brier'], sk['stages'][k]['split_brier'])}"
            for k in worse
        )
        checks.append((f"Brier <= scikit-psl at every stage (worse at stages {worse or 'none'}){details}", not worse))
        ratio = sk["median_fit"] / core["median_fit"]
        checks.append((f"fit {ratio:.0f}x faster than scikit-psl (goal {SPEED_GOAL}x)", ratio >= SPEED_GOAL))
    above = [k for k in range(1, len(stages)) if stages[k] > stages[0]]
    checks.append((f"no stage above stage 0's Brier {stages[0]:.4f} (above at stages {above or 'none'})", not above))
    return checks


def report_dataset(name, shape, summary):
    n, d = shape
    print(f"\n=== {name}  (n={n}, d={d}, splits={summary['n_splits']}) ===")
    cores = [(label, summary[label]) for label in ("default", "paper") if summary.get(label)]
    sk, fr = summary.get("skpsl"), summary.get("fasterrisk")
    print("fit time, median over splits:  wall s   (CPU s)")
    for label, core in cores:
        print(f"  psl_core {label:<8} {core['median_fit']:8.4f}   ({core['median_cpu']:.4f})"
              f"   first fit in process {core['first_fit']:.3f} s")
    if sk:
        print(f"  skpsl             {sk['median_fit']:8.3f}   ({sk['median_cpu']:.3f})")
    if fr:
        print(f"  FasterRisk        {fr['median_fit']:8.3f}   ({fr['median_cpu']:.3f})")
    if sk:
        for label, core in cores:
            print(f"time ratio skpsl / psl_core {label}: wall {sk['median_fit'] / core['median_fit']:.0f}x, "
                  f"CPU {sk['median_cpu'] / max(core['median_cpu'], 1e-9):.0f}x")
    if fr:
        print(f"FasterRisk (k=5, [-5,5], quartile features) test Brier {fr['brier']:.4f}   AUC {fr['auc']:.4f}")
    learners = cores + ([("skpsl", sk)] if sk else [])
    stages = max((len(part["stages"]) for _, part in learners), default=0)
    if stages:
        labels = [label for label, _ in learners]
        print(f"{'stage':>5}  " + "  ".join(f"{'Brier ' + label:>13}" for label in labels)
              + "  " + "  ".join(f"{'AUC ' + label:>11}" for label in labels))
        for k in range(stages):
            rows = [part["stages"][k] if k < len(part["stages"]) else {} for _, part in learners]
            print(f"{k:>5}  " + "  ".join(f"{fmt(r.get('brier')):>13}" for r in rows)
                  + "  " + "  ".join(f"{fmt(r.get('auc')):>11}" for r in rows))
    for label, part in learners:
        print(f"{label} split 0 list: " + ", ".join(
            f"{part['feature_names'][f]}{s:+d}" for f, s in zip(part["features0"], part["scores0"])))
    for text, met in goal_checks(summary):
        print(f"  goal {'met    ' if met else 'NOT met'}  {text}")


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="psl_core vs scikit-psl and FasterRisk")
    parser.add_argument("--splits", type=int, default=3, help="number of Monte Carlo splits (default 3)")
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS),
                        choices=list(DATASETS + OPTIONAL_DATASETS))
    parser.add_argument("--sklearn-breast-cancer", action="store_true",
                        help="add scikit-learn's breast cancer data (skpsl needs ~156 s per fit)")
    parser.add_argument("--peers-python", type=Path, default=DEFAULT_PEERS_PYTHON)
    parser.add_argument("--no-peers", action="store_true", help="benchmark psl_core only")
    parser.add_argument("--no-fasterrisk", action="store_true")
    parser.add_argument("--no-skpsl", action="store_true",
                        help="skip scikit-psl (many splits against FasterRisk in minutes)")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds per peer subprocess")
    parser.add_argument("--json", type=Path, help="also write the summary to this file")
    return parser.parse_args(argv)


def peer_methods(args):
    """The peers to run: none with --no-peers or without their venv (said on stderr)."""
    if args.no_peers:
        return []
    if not args.peers_python.exists():
        print(f"peers venv python {args.peers_python} not found; run `bash bench/setup_peers.sh` "
              "first. Benchmarking psl_core only.", file=sys.stderr)
        return []
    return ([] if args.no_skpsl else ["skpsl"]) + ([] if args.no_fasterrisk else ["fasterrisk"])


def psl_core_summary(label, estimator, params, X, y, splits, feature_names, name):
    """One psl_core setup on one dataset's splits, or None (said on stderr) when it fails."""
    try:
        first_fit, results = run_psl_core(estimator, params, X, y, splits)
    except Exception as error:  # noqa: BLE001 - one setup failing on one dataset must not stop the run; it is reported
        print(f"  psl_core {label} failed on {name}: {type(error).__name__}: {error}", file=sys.stderr)
        return None
    return {
        "first_fit": first_fit,
        **timing(results),
        "stages": stagewise(results, splits, y),
        "features0": results[0]["features"], "scores0": results[0]["scores"],
        "feature_names": feature_names,
    }


def peer_summary(results, method, y, splits, feature_names):
    """A peer's timings and, per method, its stagewise measures or its Brier score and AUC."""
    part = timing(results)
    if method == "skpsl":
        part.update(stages=stagewise(results, splits, y), features0=results[0]["features"],
                    scores0=results[0]["scores"], feature_names=feature_names)
    else:
        per_split = [metrics(y[test], r["proba"]) for r, (_, test) in zip(results, splits)]
        part.update(brier=float(np.mean([m["brier"] for m in per_split])),
                    split_brier=[m["brier"] for m in per_split],
                    auc=float(np.mean([m["auc"] for m in per_split])),
                    models=[r["model"] for r in results])
    return part


def main(argv=None):
    args = parse_args(argv)
    datasets = list(args.datasets)
    if args.sklearn_breast_cancer and "breast_cancer" not in datasets:
        datasets.append("breast_cancer")

    setups = import_psl_core()
    methods = peer_methods(args)
    if not setups and not methods:
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
        for label, (estimator, params) in setups.items():
            if (part := psl_core_summary(label, estimator, params, X, y, splits, feature_names, name)) is not None:
                summary[label] = part
        for method in methods:
            results = run_peer(args.peers_python, name, splits, method, args.timeout)
            if results is not None:
                summary[method] = peer_summary(results, method, y, splits, feature_names)
        report_dataset(name, X.shape, summary)
        all_summaries[name] = summary
        sys.stdout.flush()

    if args.json:
        args.json.write_text(json.dumps(all_summaries, indent=1))
    return 0

if __name__ == "__main__":
    sys.exit(main())
