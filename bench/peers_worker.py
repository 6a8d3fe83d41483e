"""Fit one peer learner on given train/test splits and print the results as JSON.

Runs under the peers venv (``bench/.venv-peers/bin/python``, see ``bench/setup_peers.sh``),
normally as a subprocess of ``bench/compare.py``:

    bench/.venv-peers/bin/python bench/peers_worker.py \
        --dataset heart_cleveland --splits splits.json --method skpsl

``splits.json`` holds a list of ``{"train": [row indices], "test": [row indices]}`` (a single
such object is accepted too). Row indices refer to ``bench_datasets.load_dataset(name)``.

Methods
-------
skpsl
    scikit-psl 0.7.2 in the paper's setup: ``ProbabilisticScoringList(score_set={-3,-2,-1,1,2,3})``
    with its defaults (in-search bisect binarization, isotonic calibration, lookahead 1, all
    features). Output: per stage k = 0..K the test probabilities ``predict_proba(X_test, k)[:, 1]``.
fasterrisk
    FasterRisk ``RiskScoreOptimizer(k=5, lb=-5, ub=5)`` on features binarized at the training
    quartiles (numeric column -> indicators x > q25, x > q50, x > q75; 0/1 columns as they are;
    duplicate thresholds and indicators constant on the training rows are dropped). The best
    model of the pool (lowest training logistic loss) gives the test probabilities.

Fit time is measured around the learning call only (for FasterRisk including the quartile
binarization): ``fit_seconds`` wall clock (``time.perf_counter``), ``cpu_seconds`` CPU time of
the process (``time.process_time``, all threads; less sensitive to other load on the machine). Anything the
libraries print goes to stderr, so stdout is exactly one JSON document.
"""

import argparse
import contextlib
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_datasets import load_dataset  # noqa: E402

SKPSL_SCORE_SET = {-3, -2, -1, 1, 2, 3}


def _is_binary(column):
    return set(np.unique(column).tolist()) <= {0.0, 1.0}


def fit_skpsl(X_train, y_train, X_test):
    from skpsl import ProbabilisticScoringList

    psl = ProbabilisticScoringList(score_set=SKPSL_SCORE_SET)
    start, cpu_start = time.perf_counter(), time.process_time()
    psl.fit(X_train, y_train)
    fit_seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    stage_proba = [psl.predict_proba(X_test, k)[:, 1].tolist() for k in range(len(psl))]
    return {
        "fit_seconds": fit_seconds,
        "cpu_seconds": cpu_seconds,
        "stage_proba": stage_proba,
        "features": [int(f) for f in psl.features],
        "scores": [int(s) for s in psl.scores],
        "thresholds": [None if t is None or np.isnan(t) else float(t) for t in psl.thresholds],
    }


def quartile_binarizer(X_train):
    """List of (column, threshold) pairs; threshold None means the 0/1 column as it is."""
    rules = []
    for j in range(X_train.shape[1]):
        column = X_train[:, j]
        if _is_binary(column):
            if column.min() != column.max():
                rules.append((j, None))
            continue
        for q in np.unique(np.quantile(column, [0.25, 0.5, 0.75])):
            indicator = column > q
            if indicator.any() and not indicator.all():
                rules.append((j, float(q)))
    return rules


def apply_rules(X, rules):
    return np.column_stack(
        [X[:, j] > 0.5 if t is None else X[:, j] > t for j, t in rules]
    ).astype(np.float64)


def fit_fasterrisk(X_train, y_train, X_test, k=5, bound=5):
    from fasterrisk.fasterrisk import RiskScoreClassifier, RiskScoreOptimizer

    start, cpu_start = time.perf_counter(), time.process_time()
    rules = quartile_binarizer(X_train)
    B_train = apply_rules(X_train, rules)
    y_pm = np.where(y_train == 1, 1.0, -1.0)
    optimizer = RiskScoreOptimizer(X=B_train, y=y_pm, k=k, lb=-bound, ub=bound)
    optimizer.optimize()
    multipliers, intercepts, coefficients = optimizer.get_models()
    fit_seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start

    best = RiskScoreClassifier(
        multiplier=multipliers[0], intercept=intercepts[0], coefficients=coefficients[0]
    )
    proba = best.predict_prob(apply_rules(X_test, rules))
    used = np.flatnonzero(coefficients[0])
    return {
        "fit_seconds": fit_seconds,
        "cpu_seconds": cpu_seconds,
        "proba": proba.tolist(),
        "n_binary_features": len(rules),
        "model": {
            "multiplier": float(multipliers[0]),
            "intercept": float(intercepts[0]),
            "terms": [
                {"column": rules[i][0], "threshold": rules[i][1], "points": float(coefficients[0][i])}
                for i in used
            ],
        },
    }


METHODS = {"skpsl": fit_skpsl, "fasterrisk": fit_fasterrisk}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--splits", required=True, type=Path, help="JSON file of train/test indices")
    parser.add_argument("--method", required=True, choices=sorted(METHODS))
    args = parser.parse_args(argv)

    X, y, _ = load_dataset(args.dataset)
    splits = json.loads(args.splits.read_text())
    single = isinstance(splits, dict)
    if single:
        splits = [splits]

    results = []
    for split in splits:
        train = np.asarray(split["train"], dtype=np.int64)
        test = np.asarray(split["test"], dtype=np.int64)
        with contextlib.redirect_stdout(sys.stderr):
            result = METHODS[args.method](X[train], y[train], X[test])
        result.update(method=args.method, dataset=args.dataset, n_train=len(train), n_test=len(test))
        results.append(result)

    json.dump(results[0] if single else results, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
