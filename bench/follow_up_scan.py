"""How often a follow-up time is proposed in tables that hold none (issue 39).

Random tables of baseline columns only (a lognormal lab value, whole days uniform over 0-3000,
an age, a count, a calendar year) beside a 0/1 outcome drawn without regard to any of them are
given to the Data page's logic twice: with the outcome chosen (:func:`time_of`, every rule for
the chosen event: the follow-up pattern, the few censored, follow-up closed on one date) and as
a whole table (:func:`follow_up_evidence`, every pair of every 0/1 column). Any column proposed
is a false proposal: no table holds a time. Two draws of the outcome: ``few`` (3 to 9 rows
without the event, as the few-censored rule sees them) and ``any`` (10 or more, the share
without the event uniform over 0.1-0.9).

Run from the repository root (seconds per hundred tables):

    nice -n 10 .venv/bin/python bench/follow_up_scan.py [--tables 300] [--seed 0]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from psl_triage.data.event_times import follow_up_evidence, time_of  # noqa: E402
from psl_triage.words import roles as words  # noqa: E402

RULES = {"few censored": words.FEW_CENSORED, "closed by date": words.CLOSED_BY_DATE,
         "between dates": words.BETWEEN_DATES, "follow-up pattern": words.FOLLOWS_EVENT}


def table(rng: np.random.Generator, few: bool) -> pd.DataFrame:
    """One table of baseline columns and an outcome unrelated to them."""
    n = int(rng.integers(40, 501))
    censored = int(rng.integers(3, 10)) if few else max(10, int(round(rng.uniform(0.1, 0.9) * n)))
    event = np.ones(n, dtype=int)
    event[rng.choice(n, min(censored, n - 10), replace=False)] = 0
    return pd.DataFrame({"lab": rng.lognormal(2, 1, n).round(1), "days": rng.integers(0, 3001, n),
                         "age": rng.integers(18, 91, n), "count": rng.poisson(2, n),
                         "year": rng.integers(1990, 2021, n), "event": event})


def rule_of(evidence: str) -> str:
    """Which rule wrote ``evidence`` (by its sentence's opening words)."""
    return next((name for name, sentence in RULES.items() if evidence.startswith(sentence.split("{")[0])), "other")


def scan(tables: int, seed: int, few: bool) -> tuple[Counter, int]:
    """The rules that proposed a time for the chosen outcome, and the tables where the whole
    table's search found any time or event."""
    rng = np.random.default_rng(seed)
    chosen, whole = Counter(), 0
    for _ in range(tables):
        frame = table(rng, few)
        found = follow_up_evidence(frame)
        whole += bool(found)
        item = time_of(frame, "event", found)
        if item is not None:
            chosen[rule_of(item.evidence)] += 1
    return chosen, whole


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args()
    np.seterr(all="ignore")
    print("| outcome drawn | tables | a time proposed for the outcome (by rule) | whole-table search finds one |")
    print("|---|---|---|---|")
    for few in (True, False):
        chosen, whole = scan(arguments.tables, arguments.seed, few)
        rules = ", ".join(f"{name} {count}" for name, count in chosen.most_common()) or "–"
        print(f"| {'3-9 censored' if few else '10+ censored'} | {arguments.tables} | "
              f"{sum(chosen.values())} ({rules}) | {whole} |", flush=True)


if __name__ == "__main__":
    main()
