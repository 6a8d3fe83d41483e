"""Where to stop a list: the bedside stop rule, and the recommended length against the whole list.

Run from the repository root with the project's python:

    python bench/stopping.py                       # the stop rules: 4 datasets x M in {1, 3, 10}, 20 splits
    python bench/stopping.py --splits 5 --datasets pima
    python bench/stopping.py --part length         # the length comparison below

Same data and splits as ``compare.py``. Each list is fitted on the training part with the
default (recommended) setup and ``recommend_folds=5``, as the app trains it.

``--part stop`` (default) triages every held-out patient with the first
``recommended_stages_`` questions (the Triage page's default length), 95 % intervals and
decisions on the upper bound, under three rules (:func:`psl_core.decision.stop_stages`):

- ``new``: the default rule: stop when settled, or when ruled in or out and fewer than 5 %
  of the training patients with these answers change outcome by the recommended length;
- ``old``: the rule of lists saved without stop statistics: stop as soon as ruled in or
  out (or settled);
- ``whole``: ask every question of the recommended list.

For each M it prints the mean number of questions asked (and as a share of the list's),
``agree``: the share of patients whose outcome at the stop equals the outcome after the
whole recommended list, ``loss``: the mean M-weighted loss of the action taken (M per
missed positive, 1 per false alarm; an uncertain patient is treated as positive) with its
standard error over the splits, ``uncertain``: the share left uncertain, and ``prior``:
the number of splits where the rule stopped before the first question although at least
5 % of the training patients' outcomes at the recommended length differ from stage 0's.

``--part length`` scores the test part at three lengths:

- ``lowest``: ``recommended_stages_``, the stage with the lowest mean held-out Brier score
  of the internal cross-validation (psl_core's rule);
- ``1-SE``: the shortest stage whose mean held-out Brier score is within one standard error
  of the lowest (the one-standard-error rule), from ``validation_brier_`` and
  ``validation_brier_se_``;
- ``whole``: every stage of the list.

It prints the mean test Brier score and number of questions of each, and the paired
differences (per split) with their standard errors over the splits.
"""


import argparse
import sys
from pathlib import Path

import numpy as np

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))
sys.path.insert(0, str(BENCH_DIR.parent))
from bench_datasets import DATASETS, load_dataset  # noqa: E402
from compare import make_splits, paired_difference  # noqa: E402

from psl_core import PAPER_SETUP, ProbabilisticScoringList  # noqa: E402
from psl_core.decision import StageBands, stop_stages  # noqa: E402
from psl_core.stopping import DEFAULT_TOLERANCE  # noqa: E402

SETUPS = {"default": {}, "paper": PAPER_SETUP}
RULES = ("lowest", "1-SE", "whole")
COST_RATIOS = (1.0, 3.0, 10.0)
STOP_RULES = ("new", "old", "whole")
STOP_MEASURES = ("questions", "share", "agree", "loss", "uncertain", "prior")


def one_se_stage(model):
    """The shortest stage within one standard error of the lowest mean held-out Brier score."""
    brier, se = model.validation_brier_, model.validation_brier_se_
    best = int(np.nanargmin(brier))
    return int(np.flatnonzero(brier <= brier[best] + np.nan_to_num(se[best]))[0])


def stop_measures(model, X_train, X_test, y_test, cost_ratio, tolerance):
    """{rule: (questions, share of the list, agree, loss, uncertain, prior)} of one split at one M."""
    length = model.recommended_stages_ if model.recommended_stages_ is not None else len(model.literals_)
    bands = StageBands(model, 0.95)
    without = StageBands(model, 0.95)
    without.changes = None  # a list saved without stop statistics
    threshold = 1 / (1 + cost_ratio)
    test_totals = model.stagewise_totals(X_test)
    final = bands.outcomes(length, test_totals[:, length], threshold)
    train_totals = model.stagewise_totals(X_train)
    prior_change = np.mean(
        bands.outcomes(length, train_totals[:, length], threshold) != bands.outcomes(0, np.array([0]), threshold)[0]
    )
    results = {}
    for rule in STOP_RULES:
        if rule == "whole":
            stop, codes = np.full(len(y_test), length), final
        else:
            stop, codes = stop_stages(bands if rule == "new" else without, test_totals, cost_ratio, length, tolerance)
        positive = codes >= 0  # ruled in, or uncertain on the risk-averse basis
        loss = np.where(positive, 1 - y_test, cost_ratio * y_test)
        results[rule] = (
            stop.mean(), stop.mean() / max(length, 1), np.mean(codes == final), loss.mean(), np.mean(codes == 0),
            float(prior_change >= 0.05 and length > 0 and np.all(stop == 0)),
        )
    return results


def fitted(X, y, cache):
    """The default list fitted as the app fits it; kept in ``cache`` (a model file) when given,
    so a rerun that only changes the stop rule refits nothing."""
    if cache and cache.exists():
        return ProbabilisticScoringList.from_json(cache.read_text())
    model = ProbabilisticScoringList(recommend_folds=5).fit(X, y)
    if cache:
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(model.to_json())
    return model


def stop_part(args):
    for name in args.datasets:
        X, y, _ = load_dataset(name)
        splits = make_splits(y, args.splits)
        table = np.full((len(splits), len(COST_RATIOS), len(STOP_RULES), len(STOP_MEASURES)), np.nan)
        lengths = []
        for i, (train, test) in enumerate(splits):
            model = fitted(X[train], y[train], args.cache and Path(args.cache) / f"{name}-{args.splits}-{i}.json")
            lengths.append(model.recommended_stages_)
            for j, cost_ratio in enumerate(COST_RATIOS):
                measures = stop_measures(model, X[train], X[test], y[test], cost_ratio, args.tolerance)
                table[i, j] = [measures[rule] for rule in STOP_RULES]
        print(f"=== {name} (n={len(y)}, d={X.shape[1]}, splits={args.splits}, "
              f"recommended length {np.mean(lengths):.1f}, tolerance {args.tolerance:g}) ===")
        for j, cost_ratio in enumerate(COST_RATIOS):
            for r, rule in enumerate(STOP_RULES):
                q, share, agree, loss, uncertain, prior = table[:, j, r].T
                se = np.std(loss, ddof=1) / np.sqrt(len(loss)) if len(loss) > 1 else 0.0
                print(
                    f"M={cost_ratio:<4g} {rule:>5}  questions {q.mean():.2f} ({share.mean():.0%})  "
                    f"agree {agree.mean():.1%}  loss {loss.mean():.3f} +/- {se:.3f}  "
                    f"uncertain {uncertain.mean():.1%}  prior {int(prior.sum())}",
                    flush=True,
                )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=20)
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--part", choices=("stop", "length"), default="stop")
    parser.add_argument("--tolerance", type=float, default=DEFAULT_TOLERANCE)
    parser.add_argument("--cache", help="folder to keep the fitted lists in (model files), for reruns")
    args = parser.parse_args()
    if args.part == "stop":
        stop_part(args)
    else:
        length_part(args)


def length_part(args):
    for name in args.datasets:
        X, y, _ = load_dataset(name)
        splits = make_splits(y, args.splits)
        print(f"=== {name} (n={len(y)}, d={X.shape[1]}, splits={args.splits}) ===")
        for label, params in SETUPS.items():
            brier = np.empty((len(splits), len(RULES)))
            length = np.empty((len(splits), len(RULES)))
            for i, (train, test) in enumerate(splits):
                model = ProbabilisticScoringList(recommend_folds=5, **params).fit(X[train], y[train])
                stages = (model.recommended_stages_, one_se_stage(model), model.n_stages_ - 1)
                for j, k in enumerate(stages):
                    p = model.predict_proba(X[test], stage=k)[:, 1]
                    brier[i, j], length[i, j] = np.mean((p - y[test]) ** 2), k
            cells = "  ".join(
                f"{rule} {brier[:, j].mean():.4f} ({length[:, j].mean():.1f} q)" for j, rule in enumerate(RULES)
            )
            print(
                f"{label:>8}  {cells}\n          lowest - whole: {paired_difference(brier[:, 0], brier[:, 2])}"
                f"\n          lowest - 1-SE: {paired_difference(brier[:, 0], brier[:, 1])}",
                flush=True,
            )


if __name__ == "__main__":
    main()
