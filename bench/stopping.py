"""Where to stop a list: the bedside stop rule, and the recommended length against the whole list.

Run from the repository root with the project's python:

    python bench/stopping.py                       # the stop rules: 4 datasets x M in {1, 3, 10}, 20 splits
    python bench/stopping.py --splits 5 --datasets pima
    python bench/stopping.py --part length         # the length comparison below
    python bench/stopping.py --part bound          # how far the rule is from any rule's best

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

``--part bound`` asks how many of the list's questions *any* stop rule must ask for the
goal's mean agreement of 95 %, with the same lists, lengths and test patients:

- ``hindsight``: a lower bound. For a weight w, the stop rule on the test patients' own
  answer paths (a stop or go at every path, knowing each patient's outcome after the whole
  list) that minimises share of questions + w x share of changed outcomes, per split, by
  backward induction over the answer tree; the mean over the splits less 0.05 w, at its
  largest over w, bounds the mean share of every rule whose mean agreement is >= 95 %
  (weak duality). Printed with the hindsight rule at the smallest w on the grid that meets
  95 %.
- ``value V``: a rule that spends agreement where it saves most, learned from the training
  patients: a question costs 1, a changed outcome V; the cost of stopping at a stage and
  total is V x the share of training patients there whose outcome changes by the
  recommended length, the cost of going on is 1 plus the expected cost at the next stage
  (backward induction over the training transitions); it stops where stopping costs less,
  at stage 0 only below the 5 % tolerance, and when settled. Held-out share and agreement.
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
    parser.add_argument("--part", choices=("stop", "length", "bound"), default="stop")
    parser.add_argument("--tolerance", type=float, default=DEFAULT_TOLERANCE)
    parser.add_argument("--cache", help="folder to keep the fitted lists in (model files), for reruns")
    args = parser.parse_args()
    {"stop": stop_part, "length": length_part, "bound": bound_part}[args.part](args)


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


WEIGHTS = np.concatenate([np.linspace(0, 5, 101), np.linspace(5.5, 40, 70)])
VALUES = (15.0, 20.0, 30.0)


def hindsight_rule(answers, codes, weight):
    """(questions, changed outcomes) of the answer-path stop rule minimising questions +
    weight x changed outcomes on these patients.

    answers : bool array, shape (n, L), each patient's answers; codes : int array, shape
    (n, L + 1), their outcome at stages 0..L (stage L is the reference).
    """
    last = codes.shape[1] - 1

    def best(rows, k):
        changed = int(np.sum(codes[rows, k] != codes[rows, last]))
        stop = (k * len(rows) + weight * changed, k * len(rows), changed)
        if k == last:
            return stop
        go = tuple(map(sum, zip(*(best(rows[answers[rows, k] == a], k + 1)
                                  for a in (False, True) if np.any(answers[rows, k] == a)))))
        return stop if stop[0] <= go[0] else go

    return best(np.arange(len(codes)), 0)[1:]


def value_rule_stops(bands, train_totals, test_totals, length, threshold, value, tolerance):
    """Stop stage of each test patient under the ``value V`` rule learned on the training totals."""
    codes = np.stack([bands.outcomes(k, train_totals[:, k], threshold) for k in range(length + 1)], 1)
    final = codes[:, length]
    cost = {(length, int(t)): 0.0 for t in np.unique(train_totals[:, length])}
    stops = set()
    for k in range(length - 1, -1, -1):
        for t in np.unique(train_totals[:, k]):
            here = train_totals[:, k] == t
            code = codes[here, k][0]
            share = np.mean(final[here] != code)
            settled = bands.settled(k, np.array([t]), length, code, threshold)
            go = 1 + np.mean([cost[k + 1, int(u)] for u in train_totals[here, k + 1]])
            stay = 0.0 if settled else value * share
            if settled or (stay <= go and (k > 0 or share < tolerance)):
                stops.add((k, int(t)))
            cost[k, int(t)] = min(stay, go)
    stop = np.full(len(test_totals), length)
    for i, row in enumerate(test_totals):
        for k in range(length):
            code = bands.outcomes(k, row[k:k + 1], threshold)[0]
            if (k, int(row[k])) in stops or bands.settled(k, row[k:k + 1], length, code, threshold):
                stop[i] = k
                break
    return stop


def bound_part(args):
    for name in args.datasets:
        X, y, _ = load_dataset(name)
        splits = make_splits(y, args.splits)
        print(f"=== {name} (splits={args.splits}; share of the list's questions, agreement) ===")
        for cost_ratio in COST_RATIOS:
            threshold = 1 / (1 + cost_ratio)
            rule, hindsight, learned = [], [], {v: [] for v in VALUES}
            for i, (train, test) in enumerate(splits):
                model = fitted(X[train], y[train], args.cache and Path(args.cache) / f"{name}-{args.splits}-{i}.json")
                length = model.recommended_stages_ if model.recommended_stages_ is not None else len(model.literals_)
                bands = StageBands(model, 0.95)
                totals, train_totals = model.stagewise_totals(X[test]), model.stagewise_totals(X[train])
                codes = np.stack([bands.outcomes(k, totals[:, k], threshold) for k in range(length + 1)], 1)
                stop, outcome = stop_stages(bands, totals, cost_ratio, length, args.tolerance)
                n, scale = len(y[test]), max(length, 1)
                rule.append((stop.mean() / scale, np.mean(outcome == codes[:, length])))
                answers = np.diff(totals[:, :length + 1], axis=1) != 0
                hindsight.append([
                    (q / (n * scale), c / n) for q, c in (hindsight_rule(answers, codes, w * scale) for w in WEIGHTS)
                ])
                for value in VALUES:
                    stop = value_rule_stops(bands, train_totals, totals, length, threshold, value, args.tolerance)
                    learned[value].append((stop.mean() / scale, np.mean(codes[np.arange(n), stop] == codes[:, length])))
            share, changed = np.array(hindsight).mean(0).T
            bound = np.max(share + WEIGHTS * changed - WEIGHTS * 0.05)
            meets = np.flatnonzero(changed <= 0.05)[0]
            cells = [f"rule {np.mean(rule, 0)[0]:.0%} {np.mean(rule, 0)[1]:.1%}",
                     f"hindsight >= {bound:.0%} (w={WEIGHTS[meets]:g}: {share[meets]:.0%} {1 - changed[meets]:.1%})"]
            cells += [f"value {v:g} {np.mean(r, 0)[0]:.0%} {np.mean(r, 0)[1]:.1%}" for v, r in learned.items()]
            print(f"M={cost_ratio:<4g} " + "  ".join(cells), flush=True)


if __name__ == "__main__":
    main()
