"""How strong is "one predictor's effect halved" in a list's own terms, and what could a chart see?

Run from the repository root with the project's python (under ``nice``: it trains the lists):

    python bench/monitoring_bound.py --runs 20

The runs are ``bench/monitoring.py``'s (same truth, same seeds, so the same lists): a list trained
on ``--development`` patients drawn from the Cleveland truth, then 24 months of ``--per-month``
patients, the first question's column's coefficients halved from month 13. Per run, with each of
the table's 297 patients' true risk before (r0) and after (r1) the shift:

- the shift in the list's terms: the share answering question 1 yes, the mean true risk of the
  yes and the no patients before and after, and the list's own mean risk of each;
- the expected log-likelihood ratio per patient after the shift, KL(r1 || r0) averaged over the
  patients (the information a chart gathers per patient), when the chart knows each patient's
  own risks (*patient*), only the answers to the list's questions (*answers*: the mean risks of
  each answer pattern), only the answer to question 1 (*question 1's answer*: the mean risks of the
  yes and the no patients) or only the total at one stage (*total k*: the mean risks of each total);
- the oracle CUSUM's power: the chart whose weights are exactly that log-likelihood ratio
  (Page 1954; Moustakides 1986: the CUSUM tuned to the true shift is optimal for it), its limit
  the 99 % quantile of its maximum over 24 unshifted months (false-alarm probability 1 % alone:
  the page's charts share theirs with 20-odd others, bench/monitoring.py prints each one's limit),
  the share of shifted runs that signal in
  months 13-24 and the median delay. ``--simulations`` runs of each.

No chart of the list's answers can beat the *answers* oracle on these patients; a chart of its
risks per total, the *total* oracles.
"""

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.monitoring import DEVELOPMENT, OUTCOME, PER_MONTH, Truth, trained  # noqa: E402
from psl_core.monitoring import cusum_path  # noqa: E402
from psl_core.validation import stage_answers  # noqa: E402
from psl_triage.bedside.session import recommended_length  # noqa: E402
from psl_triage.judging.monitoring import monitored_table  # noqa: E402
from psl_triage.judging.validation import match_columns, needed_columns  # noqa: E402

MONTHS, SHIFT_MONTH = 24, 12


def kl(r1, r0):
    """KL(Bernoulli(r1) || Bernoulli(r0)) per element."""
    r0, r1 = np.clip(r0, 1e-9, 1 - 1e-9), np.clip(r1, 1e-9, 1 - 1e-9)
    return r1 * np.log(r1 / r0) + (1 - r1) * np.log((1 - r1) / (1 - r0))


def grouped(values, groups):
    """Each patient's value replaced by its group's mean (patients equally likely)."""
    return pd.Series(values).groupby(groups).transform("mean").to_numpy()


def list_answers(model, metadata, frame):
    """The answers (n, K) of the table's patients to the list's first K questions, K its length."""
    frame = frame.assign(**{OUTCOME: 0, "date": "2024-01-01"})
    mapping = match_columns(needed_columns(model, metadata), frame.columns)
    table = monitored_table(model, metadata, frame, mapping, OUTCOME, [1], "date")
    length = recommended_length(model)
    hits = stage_answers(model, table.table.X.sort_index(), length)[0]
    return hits, length


def oracle_power(g0, g1, rng, per_month, simulations, limit=None):
    """Signals in months 13-24 of shifted runs, signals anywhere in unshifted runs, the median
    delay (months) of the oracle CUSUM with weights log(g1/g0) for a yes, log((1-g1)/(1-g0)) for a no;
    its limit its own 99 % quantile, or ``limit``."""
    g0, g1 = np.clip(g0, 1e-9, 1 - 1e-9), np.clip(g1, 1e-9, 1 - 1e-9)
    yes, no = np.log(g1 / g0), np.log((1 - g1) / (1 - g0))
    n = MONTHS * per_month

    def maxima(shifted):
        rows = rng.integers(0, len(g0), size=(simulations, n))
        risk = g0[rows]
        if shifted:
            risk[:, SHIFT_MONTH * per_month:] = g1[rows[:, SHIFT_MONTH * per_month:]]
        y = rng.random((simulations, n)) < risk
        return cusum_path(np.where(y, yes[rows], no[rows]))

    own = np.quantile(maxima(False).max(axis=1), 0.99)
    limit = own if limit is None else limit
    paths = maxima(True)
    over = paths > limit
    first = np.where(over.any(axis=1), over.argmax(axis=1), n)
    after = (first >= SHIFT_MONTH * per_month) & (first < n)
    delay = (first[after] - SHIFT_MONTH * per_month) / per_month
    return own, after.mean(), (first < SHIFT_MONTH * per_month).mean(), np.median(delay) if len(delay) else np.nan


def run(runs, seed, development, per_month, simulations, fixed=None):
    truth = Truth()
    rows = []
    for index in range(runs):
        rng = np.random.default_rng(seed + index)
        model, metadata = trained(truth, rng, development)
        first_column = str(model.literals_[0].column)
        r0, r1 = truth.risk(), truth.risk("effect", first_column)
        hits, length = list_answers(model, metadata, truth.frame)
        totals = np.cumsum(hits * np.asarray(model.scores_[:length]), axis=1)
        p = model.stage_probabilities_[length][np.searchsorted(model.stage_totals_[length], totals[:, -1])]
        yes = hits[:, 0] == 1
        row = {"run": index, "question 1": first_column, "length": length, "yes share": yes.mean(),
               "yes r0": r0[yes].mean(), "yes r1": r1[yes].mean(), "yes list": p[yes].mean(),
               "no r0": r0[~yes].mean(), "no r1": r1[~yes].mean(), "no list": p[~yes].mean(),
               "patient KL": kl(r1, r0).mean()}
        oracle_rng = np.random.default_rng(1000 + index)
        pattern = ["".join(map(str, h)) for h in hits]
        oracles = {"patient": (r0, r1), "answers": (grouped(r0, pattern), grouped(r1, pattern)),
                   "question 1's answer": (grouped(r0, hits[:, 0]), grouped(r1, hits[:, 0]))}
        for k in range(1, length + 1):
            oracles[f"total {k}"] = (grouped(r0, totals[:, k - 1]), grouped(r1, totals[:, k - 1]))
        for name, (g0, g1) in oracles.items():
            limit, power, false, delay = oracle_power(g0, g1, oracle_rng, per_month, simulations)
            row |= {f"{name} KL": kl(g1, g0).mean(), f"{name} limit": limit, f"{name} power": power,
                    f"{name} false": false, f"{name} delay": delay}
            if fixed is not None:
                _, power, _, delay = oracle_power(g0, g1, oracle_rng, per_month, simulations, fixed)
                row |= {f"{name} power at fixed": power, f"{name} delay at fixed": delay}
        rows.append(row)
        print(f"run {index + 1}/{runs} done", file=sys.stderr)
    return pd.DataFrame(rows)


def summary(results, per_month, fixed=None):
    lines = [f"Question 1's column: {results['question 1'].value_counts().to_dict()}; lengths "
             f"{results['length'].value_counts().to_dict()}",
             "| | median | range |", "|---|---|---|"]
    for column in ("yes share", "yes r0", "yes r1", "yes list", "no r0", "no r1", "no list"):
        values = results[column]
        lines.append(f"| {column} | {values.median():.3f} | {values.min():.3f}-{values.max():.3f} |")
    lines += ["", f"| chart knows | KL per patient (median) | x {MONTHS - SHIFT_MONTH} x {per_month} patients | "
              "limit | power (median, range) | false | median delay (months) |", "|---|---|---|---|---|---|---|"]
    names = ["patient", "answers", "question 1's answer"] + sorted(c[: -len(" KL")] for c in results if c.startswith("total ")
                                            and c.endswith(" KL"))
    for name in names:
        part = results[[c for c in results if c.startswith(f"{name} ")]].dropna()
        lines.append(f"| {name} | {part[f'{name} KL'].median():.5f} | "
                     f"{part[f'{name} KL'].median() * (MONTHS - SHIFT_MONTH) * per_month:.1f} | "
                     f"{part[f'{name} limit'].median():.1f} | {part[f'{name} power'].median():.2f} "
                     f"({part[f'{name} power'].min():.2f}-{part[f'{name} power'].max():.2f}) | "
                     f"{part[f'{name} false'].median():.3f} | {part[f'{name} delay'].median():.1f} |"
                     + (f" {part[f'{name} power at fixed'].median():.2f} | {part[f'{name} delay at fixed'].median():.1f} |"
                        if fixed is not None else ""))
    if fixed is not None:
        lines[lines.index("|---|---|---|---|---|---|---|")] += "---|---|"
        lines[lines.index("|---|---|---|---|---|---|---|---|---|") - 1] += (f" power at limit {fixed:g} | "
                                                                         f"median delay at {fixed:g} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--development", type=int, default=DEVELOPMENT)
    parser.add_argument("--per-month", type=int, default=PER_MONTH)
    parser.add_argument("--simulations", type=int, default=2000)
    parser.add_argument("--limit", type=float, default=None, help="also the oracles' power at this limit (the "
                        "Monitor page's charts share theirs: bench/monitoring.py prints them)")
    args = parser.parse_args()
    results = run(args.runs, args.seed, args.development, args.per_month, args.simulations, args.limit)
    print(summary(results, args.per_month, args.limit))


if __name__ == "__main__":
    main()
