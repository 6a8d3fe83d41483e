"""The recommended stage's shrinkage factor: rules against the two biases of issue 37.

Run from the repository root with the project's python:

    python bench/shrinkage_rules.py record --out r.pkl                     # ten tables, 20 splits
    python bench/shrinkage_rules.py record --nested --repeats 10 --out n.pkl
    python bench/shrinkage_rules.py record --tables aids2 suicide_china nass_cds --without-shared --out c.pkl
    python bench/shrinkage_rules.py summary r.pkl [n.pkl]

``record`` fits the splits of ``interval_coverage.py slopes`` (the six tables at 500 rows,
the shared ones 2/3 to 1/3) with the factor left out (every stage unshrunk) and keeps what
any rule needs: the internal folds' held-out sums and scores (``psl_core.recommend``), the
same at three folds (lists on fewer rows, for the fold-size extrapolation), and the test
rows per stage and total of the final list (count, positives, unshrunk estimate). With
``--nested`` every fold of the first draw is itself fitted as the estimator fits (its own
internal folds and recommended stage) and judged on its held-out rows: the factor rule's
own error, measured one level down (the optimism of the procedure, selection included, as
Harrell's bootstrap measures a model's). ``summary`` applies every rule of :func:`rules`
and prints, per table, the median held-out calibration slope at the stage the rule
recommends and the test Brier score against psl_core's (paired over the splits, in SE).
"""

import argparse
import copy
import pickle
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import interval_coverage as coverage  # noqa: E402

from psl_core import model as psl_model  # noqa: E402
from psl_core.recommend import held_out_scores, recommended_stage, selected_slope  # noqa: E402
from psl_core.search import first_minimum  # noqa: E402

SMALLER_FOLDS = 3


def unshrunk_fit(estimator, X, y):
    """Fit ``estimator`` with every stage unshrunk; returns it and the (slope, scores, draws) its
    internal folds gave (None without them)."""
    recorded = {}
    factors_of = psl_model.shrinkage_factors

    def record(slope, scores, draws=1):
        recorded.update(slope=slope, scores=scores, draws=draws)
        return np.ones(slope.shape[2])

    psl_model.shrinkage_factors = record
    try:
        estimator.fit(X, y)
    finally:
        psl_model.shrinkage_factors = factors_of
    return estimator, recorded or None


def groups(model, X, y):
    """Per stage of ``model``: (unshrunk estimate, rows, positives) of each total held by ``X``."""
    out = []
    for k in range(model.n_stages_):
        p = model.predict_proba(X, k)[:, 1]
        values, index = np.unique(p, return_inverse=True)
        out.append((values, np.bincount(index), np.bincount(index, weights=y)))
    return out


def nested_folds(estimator, X, y, seed):
    """Each fold of the first draw fitted as the estimator fits, judged on its held-out rows."""
    from sklearn.base import clone
    from sklearn.model_selection import StratifiedKFold

    out = []
    splitter = StratifiedKFold(estimator.recommend_folds, shuffle=True, random_state=seed)
    for train, test in splitter.split(np.zeros(len(y)), y):
        inner, recorded = unshrunk_fit(clone(estimator), coverage._rows(X, train), y[train])
        if recorded is None or inner.recommended_stages_ is None:
            continue
        out.append({"recorded": recorded, "base": inner.stage_probabilities_[0][0],
                    "groups": groups(inner, coverage._rows(X, test), y[test])})
    return out


def record_one(name, X, y, seed, size, nested):
    _, train, test = coverage.split(y, seed, size)
    X_train, y_train = coverage._rows(X, train), y[train]
    estimator = psl_model.ProbabilisticScoringList(recommend_folds=5, random_state=seed)
    model, recorded = unshrunk_fit(estimator, X_train, y_train)
    smaller = copy.copy(model)  # the fitted list's length, its folds fewer
    smaller.recommend_folds = SMALLER_FOLDS
    columns = model._read_X(X_train, reset=False)
    scores3, slope3, _ = held_out_scores(smaller, X_train, y_train, columns, None, recorded["draws"])
    row = {"table": name, "seed": seed, "recorded": recorded, "slope3": slope3, "scores3": scores3,
           "base": model.stage_probabilities_[0][0], "groups": groups(model, coverage._rows(X, test), y[test]),
           "recommended": model.recommended_stages_}
    if nested:
        row["nested"] = nested_folds(estimator, X_train, y_train, seed)
    return row


def record(args):
    import bench_datasets as datasets

    rows = []
    for name in args.tables + ([] if args.without_shared else list(coverage.SHARED)):
        start = time.perf_counter()
        if name in coverage.TABLES or name in coverage.CHECK:
            (X, y), size = coverage.load_table(name), 500
        else:
            X, y, _ = datasets.load_dataset(name)
            size = None
        for seed in range(args.repeats):
            rows.append(record_one(name, X, y, seed, size, args.nested))
        print(f"{name}: {time.perf_counter() - start:.0f} s", flush=True)
        with open(args.out, "wb") as handle:
            pickle.dump(rows, handle)


# The rules ------------------------------------------------------------------------------------

def pooled(slope, stage, folds=slice(None)):
    covariance, variance = slope[folds, 0, stage].sum(), slope[folds, 1, stage].sum()
    return covariance / variance if variance > 0 else np.nan


def every_reached(scores):
    return np.sum(~np.isnan(scores), axis=0) == scores.shape[0]


def one_se_stage(scores, draws):
    """The shortest stage whose mean held-out score lies within one SE of the best's."""
    mean, se, best = recommended_stage(scores, draws)
    if best == 0 or not np.isfinite(se[best]):
        return best
    within = every_reached(scores) & (mean <= mean[best] + se[best])
    return int(np.flatnonzero(within)[0])


def own_choice_slope(slope, scores):
    """Tibshirani and Tibshirani (2009): each fold judged at the stage its own held-out rows
    score best (the selection at its most optimistic): the pooled slope there."""
    every = every_reached(scores)
    stages = [first_minimum(np.where(every, np.nan_to_num(row), np.inf)) for row in scores]
    covariance = sum(slope[f, 0, s] for f, s in enumerate(stages))
    variance = sum(slope[f, 1, s] for f, s in enumerate(stages))
    return covariance / variance if variance > 0 else np.nan


def factor_rules(rec, slope3, scores3):
    """(stage, factor) by each rule, from one fit's internal folds."""
    slope, scores, draws = rec["slope"], rec["scores"], rec["draws"]
    k = recommended_stage(scores, draws)[2]
    folds = scores.shape[0] // draws
    in_fold = pooled(slope, k)
    crossed = selected_slope(slope, scores, draws)
    crossed = np.nan if crossed is None else crossed
    mean = (in_fold + crossed) / 2
    shrink = (folds - 1) / folds  # 1 - s over 1/n: from lists on n (K - 1) / K rows to n rows
    out = {"in_fold": (k, in_fold), "cross_fitted": (k, crossed), "mean": (k, mean),
           "in_fold_size": (k, 1 - (1 - in_fold) * shrink), "mean_size": (k, 1 - (1 - mean) * shrink),
           "cross_size": (k, 1 - (1 - crossed) * shrink)}
    # Two fold sizes, linear in 1/n: n (K-1)/K and n (K3-1)/K3 rows, extrapolated to n.
    small = pooled(slope3, k)
    x5, x3 = folds / (folds - 1), SMALLER_FOLDS / (SMALLER_FOLDS - 1)  # n / rows of a fold list
    out["two_sizes"] = (k, in_fold + (in_fold - small) * (x5 - 1) / (x3 - x5))
    # Tibshirani and Tibshirani: the optimism of each fold's own choice over the pooled one.
    out["tibshirani"] = (k, in_fold - (own_choice_slope(slope, scores) - in_fold))
    one = one_se_stage(scores, draws)
    out["one_se_in_fold"] = (one, pooled(slope, one) if one else 1.0)
    return out


def nested_bias(nested, rule):
    """Mean over the nested folds of (the rule's factor - the slope its held-out rows show)."""
    errors = []
    for fold in nested:
        k, factor = _inner_rule(fold["recorded"], rule)
        if k == 0 or not np.isfinite(factor):
            continue
        errors.append(np.clip(factor, 0, 1) - through_origin(fold["groups"][k], fold["base"]))
    return np.mean(errors) if errors else np.nan


def _inner_rule(rec, rule):
    slope, scores, draws = rec["slope"], rec["scores"], rec["draws"]
    k = recommended_stage(scores, draws)[2]
    if rule == "in_fold":
        return k, pooled(slope, k)
    crossed = selected_slope(slope, scores, draws)
    return k, (pooled(slope, k) + (np.nan if crossed is None else crossed)) / 2


def through_origin(group, base):
    """The factor the rows themselves would choose: slope of y - base on p - base."""
    values, rows, positives = group
    spread = values - base
    variance = rows @ spread**2
    return (spread @ (positives - rows * base)) / variance if variance > 0 else np.nan


def judged(group, base, factor):
    """(logistic calibration slope, Brier score) of the test rows at a stage shrunk by ``factor``."""
    values, rows, positives = group
    p = base + float(np.clip(np.nan_to_num(factor, nan=1.0), 0, 1)) * (values - base)
    brier = (positives @ (1 - p) ** 2 + (rows - positives) @ p**2) / rows.sum()
    y = np.concatenate([np.ones(int(c)) for c in positives] + [np.zeros(int(c)) for c in rows - positives])
    q = np.concatenate([np.full(int(c), v) for c, v in zip(positives, p)]
                       + [np.full(int(c), v) for c, v in zip(rows - positives, p)])
    return coverage.calibration_slope(y, q), brier


def evaluate(rows):
    out = []
    for row in rows:
        rules = factor_rules(row["recorded"], row["slope3"], row["scores3"])
        k = rules["mean"][0]
        rules["new_patients"] = (k, through_origin(row["groups"][k], row["base"]))
        if "nested" in row:
            for rule in ("in_fold", "mean"):
                rules[f"nested_{rule}"] = (k, rules[rule][1] - nested_bias(row["nested"], rule))
        for rule, (stage, factor) in rules.items():
            if stage == 0:
                continue
            slope, brier = judged(row["groups"][stage], row["base"], factor)
            out.append({"table": row["table"], "seed": row["seed"], "rule": rule, "stage": stage,
                        "factor": factor, "slope": slope, "brier": brier})
    return pd.DataFrame(out)


def summary(args):
    frames = []
    for path in args.files:
        with open(path, "rb") as handle:
            frames.append(evaluate(pickle.load(handle)))
    frame = pd.concat(frames, ignore_index=True)
    medians = frame.pivot_table(index="rule", columns="table", values="slope", aggfunc="median")
    pd.set_option("display.width", 250)
    pd.set_option("display.max_columns", None)
    print("median held-out calibration slope at the rule's stage\n", medians.round(3))
    print("tables inside 0.9-1.1:", ((medians >= 0.9) & (medians <= 1.1)).sum(axis=1).to_dict())
    print("median factor\n", frame.pivot_table(index="rule", columns="table", values="factor",
                                                aggfunc="median").round(3))
    print("median stage\n", frame.pivot_table(index="rule", columns="table", values="stage",
                                               aggfunc="median"))
    brier = frame.pivot_table(index=["table", "seed"], columns="rule", values="brier")
    gap = brier.sub(brier["mean"], axis=0).groupby("table")
    print("test Brier score against psl_core's (mean), paired: difference / its SE\n",
          (gap.mean() / (gap.std() / np.sqrt(gap.count()))).drop(columns="mean").round(1).T)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    part = sub.add_parser("record")
    part.add_argument("--tables", nargs="+", default=list(coverage.TABLES),
                      choices=list(coverage.TABLES) + list(coverage.CHECK))
    part.add_argument("--repeats", type=int, default=20)
    part.add_argument("--without-shared", action="store_true")
    part.add_argument("--nested", action="store_true", help="fit each fold as the estimator fits")
    part.add_argument("--out", required=True)
    part = sub.add_parser("summary")
    part.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    {"record": record, "summary": summary}[args.command](args)


if __name__ == "__main__":
    main()
