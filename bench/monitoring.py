"""Monitoring a list in service: does the chart signal a shift, and does the closed test name it?

Run from the repository root with the project's python (under ``nice``: it trains 20 lists):

    python bench/monitoring.py                  # 20 runs of each shift, 150 patients a month
    python bench/monitoring.py --development 2000  # a list from fewer patients
    python bench/monitoring.py --speed-only

The public table is the demo's, Cleveland (``datasets/heart_cleveland.csv``, 297 complete
patients). Its outcome is replaced by a known truth so that a shift has a known kind: a
logistic regression on every column (categories one-hot, scikit-learn, C = 1) fitted to the
real outcome gives each patient a true risk. A run draws patients (rows with replacement) and
their outcomes from that truth: ``--development`` (10,000) to train a list
(``TrainingOptions(max_stages=6)``, the app's training: two thirds fit it), then 24 months of
150 patients. From month 13 on, one of:

- *none*: nothing changes;
- *prevalence*: the truth's intercept moved so that the mean risk is 1.5 times as high;
- *effect*: the truth's coefficients of the column the list asks first halved (one predictor's
  effect halved);
- *case mix*: patients drawn with weights exp(z), z their standardized age (older patients).

Each run monitors the 24 months as the Monitor page does (:func:`psl_triage.judging.monitoring.monitor`,
CUSUM false-alarm probability 1 % over the run for all its charts at once, one joint limit from
1,000 simulations) with the closed test on the patients of months 13 to 24. Printed per shift: runs
in which a chart signals in months 13-24 (either direction), a signal before month 13 (false), the
median and largest delay in months from the shift to the signal, the kind of chart that signalled
first, how often the closed test recommends each update, and each chart's limit.
``--runs 200 --shifts none`` measures the false alarms on unchanged patients closely enough that
20 runs of them are not luck.

``--speed``: 100,000 patients over 36 months (one list), the time of :func:`monitor` and of the
whole Monitor page in Streamlit's AppTest (script run, no browser), best of three, with the
processor time of all the process's threads (on a busy machine the wall time is not the
machine's; the limit's simulation runs on every core) and the load average.
"""

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import brentq
from scipy.special import expit
from sklearn.linear_model import LogisticRegression

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR.parent))

from psl_core.closed_test import UPDATES  # noqa: E402
from psl_triage.data import infer_column_types, prepare_training_data  # noqa: E402
from psl_triage.data.demo import load_demo  # noqa: E402
from psl_triage.judging.monitoring import monitor, monitored_table  # noqa: E402
from psl_triage.judging.validation import match_columns, needed_columns  # noqa: E402
from psl_triage.training.fit import train_list  # noqa: E402
from psl_triage.training.options import TrainingOptions  # noqa: E402

SHIFTS = ("none", "prevalence", "effect", "case mix")
FAMILIES = {"up": "odds", "down": "odds", "flatter": "slope", "steeper": "slope", "weaker": "earlier stage slope",
            "stronger": "earlier stage slope", "fewer": "case mix", "more": "case mix"}
"""Which kind of chart a signal came from (psl_core.monitoring.chart_names)."""
OUTCOME = "disease"
START = pd.Timestamp("2024-01-01")
DEVELOPMENT = 10_000
PER_MONTH = 150


class Truth:
    """The true risk of every Cleveland patient, and its shifted versions."""

    def __init__(self):
        frame, meta = load_demo()
        self.meta = meta
        self.frame = frame.dropna().reset_index(drop=True).drop(columns=[meta.outcome, "num"], errors="ignore")
        self.types = infer_column_types(frame, meta.columns)
        categories = [c for c in ("cp", "restecg", "slope", "thal") if c in self.frame]
        self.design = pd.get_dummies(self.frame, columns=categories, dtype=float)
        self.design = (self.design - self.design.mean()) / self.design.std()
        outcome = (load_demo()[0].dropna()["num"] > 0).astype(int).to_numpy()
        fitted = LogisticRegression(C=1.0, max_iter=2000).fit(self.design, outcome)
        self.intercept, self.coef = float(fitted.intercept_[0]), pd.Series(fitted.coef_[0], self.design.columns)
        age = self.frame["age"].to_numpy(float)
        self.case_mix = np.exp((age - age.mean()) / age.std())

    def risk(self, shift=None, first_column=None):
        coef = self.coef.copy()
        if shift == "effect":
            own = [c for c in coef.index if c == first_column or c.startswith(f"{first_column}_")]
            coef[own] /= 2
        lp = self.intercept + self.design.to_numpy() @ coef.to_numpy()
        if shift == "prevalence":
            target = 1.5 * expit(lp).mean()
            lp = lp + brentq(lambda d: expit(lp + d).mean() - target, -5, 5)
        return expit(lp)

    def draw(self, n, rng, risk, weights=None):
        rows = rng.choice(len(self.frame), n, p=None if weights is None else weights / weights.sum())
        drawn = self.frame.iloc[rows].reset_index(drop=True)
        drawn[OUTCOME] = (rng.random(n) < risk[rows]).astype(int)
        return drawn


def trained(truth, rng, development=DEVELOPMENT):
    """A list trained as the app trains one on ``development`` patients drawn from the truth."""
    drawn = truth.draw(development, rng, truth.risk())
    types = {**truth.types, OUTCOME: truth.types.get(truth.meta.outcome)}
    prepared = prepare_training_data(drawn, {c: t for c, t in types.items() if c in drawn}, OUTCOME, [1], "drop",
                                     truth.meta.columns)
    return train_list(prepared, "simulated Cleveland", TrainingOptions(max_stages=6))


def months(truth, rng, shift, first_column, n_months=24, per_month=PER_MONTH, shift_month=12):
    parts = []
    for month in range(n_months):
        after = month >= shift_month and shift != "none"
        weights = truth.case_mix if after and shift == "case mix" else None
        risk = truth.risk(shift if after and shift in ("prevalence", "effect") else None, first_column)
        part = truth.draw(per_month, rng, risk, weights)
        day = rng.integers(0, 28, per_month)
        part["date"] = [(START + pd.DateOffset(months=month) + pd.Timedelta(days=int(d))).strftime("%Y-%m-%d")
                        for d in day]
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def watched(model, metadata, frame, test_from, period="month"):
    mapping = match_columns(needed_columns(model, metadata), frame.columns)
    table = monitored_table(model, metadata, frame, mapping, OUTCOME, [1], "date")
    return monitor(model, table, period, metadata=metadata, test_from=test_from)


def run(runs, seed, development=DEVELOPMENT, per_month=PER_MONTH, shifts=SHIFTS):
    truth = Truth()
    shift_date = START + pd.DateOffset(months=12)
    rows = []
    for index in range(runs):
        rng = np.random.default_rng(seed + index)
        model, metadata = trained(truth, rng, development)
        first_column = str(model.literals_[0].column)
        for shift in shifts:
            result = watched(model, metadata, months(truth, rng, shift, first_column, per_month=per_month), shift_date)
            signal = min([d for d in result.signals.values() if d is not None], default=None)
            first = sorted(FAMILIES[name.split(" ")[0]] for name, d in result.signals.items()
                           if signal is not None and d == signal)
            rows.append({"run": index, "shift": shift, "signal": signal, "family": first[0] if first else None,
                         "false": signal is not None and signal < shift_date,
                         "delay": (signal - shift_date).days / 30.44 if signal is not None and signal >= shift_date
                         else np.nan,
                         "update": result.closed.recommendation if result.closed else "none",
                         **{f"limit {kind}": value for kind, value in result.cusum.limits.items()}})
        print(f"run {index + 1}/{runs} done", file=sys.stderr)
    return pd.DataFrame(rows)


def summary(results, shifts=SHIFTS):
    lines = ["| shift | signal in months 13-24 | false signal before 13 | delay (months): median, max | "
             "first signal from | " + " | ".join(UPDATES) + " |", "|" + "---|" * (5 + len(UPDATES))]
    for shift in shifts:
        part = results[results["shift"] == shift]
        after = part["delay"].notna().sum()
        counts = part["update"].value_counts()
        delay = part["delay"].dropna()
        delays = f"{delay.median():.1f}, {delay.max():.1f}" if len(delay) else "–"
        families = ", ".join(f"{name} {count}" for name, count in part["family"].value_counts().items()) or "–"
        lines.append(f"| {shift} | {after}/{len(part)} | {int(part['false'].sum())}/{len(part)} | {delays} | {families} | "
                     + " | ".join(str(int(counts.get(u, 0))) for u in UPDATES) + " |")
    limits = {}
    for column in (c for c in results if c.startswith("limit ")):
        chart = column[len("limit "):]
        kind = chart if chart in ("weaker 1", "stronger 1") else chart.split(" ")[0]
        limits[kind] = pd.concat([limits.get(kind, pd.Series(dtype=float)), results[column].dropna()])
    lines.append("Limits per chart (median, range; weaker/stronger k > 1 and case mix pooled over questions): "
                 + "; ".join(f"{kind} {v.median():.1f} ({v.min():.1f}-{v.max():.1f})" for kind, v in limits.items()))
    return "\n".join(lines)


def speed(seed=0, n=100_000, n_months=36):
    """Seconds of monitor() and of the Monitor page (AppTest) on n patients over n_months."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    from tests.apptest import put_list

    truth = Truth()
    rng = np.random.default_rng(seed)
    model, metadata = trained(truth, rng)
    frame = months(truth, rng, "none", None, n_months, n // n_months + 1).head(n)
    timings = {"monitor()": [], "page (AppTest)": []}
    processor = {"monitor()": [], "page (AppTest)": []}
    for _ in range(3):
        started, cpu = time.perf_counter(), time.process_time()
        watched(model, metadata, frame, None)
        timings["monitor()"].append(time.perf_counter() - started)
        processor["monitor()"].append(time.process_time() - cpu)
        st.cache_data.clear()  # a cold page: no limit or table kept from the run before
        at = AppTest.from_file(str(BENCH_DIR.parent / "pages" / "8_Monitor.py"), default_timeout=300)
        put_list(at, model, metadata)
        at.session_state["monitor_table"] = ("patients.csv", frame.to_csv(index=False).encode())
        started, cpu = time.perf_counter(), time.process_time()
        at.run()
        timings["page (AppTest)"].append(time.perf_counter() - started)
        processor["page (AppTest)"].append(time.process_time() - cpu)
        assert not at.exception and not at.error, [e.value for e in at.error]
    for what, seconds in timings.items():
        print(f"{what}: best {min(seconds):.2f} s of {', '.join(f'{s:.2f}' for s in seconds)} "
              f"({len(frame):,} patients, {n_months} months); processor time (all threads) best "
              f"{min(processor[what]):.2f} s; load average {os.getloadavg()[0]:.1f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--development", type=int, default=DEVELOPMENT, help="patients the list is trained on "
                        "(two thirds; the rest test it)")
    parser.add_argument("--per-month", type=int, default=PER_MONTH, help="patients seen a month")
    parser.add_argument("--shifts", nargs="+", choices=SHIFTS, default=list(SHIFTS))
    parser.add_argument("--speed", action="store_true", help="also time 100,000 patients over 36 months")
    parser.add_argument("--speed-only", action="store_true")
    args = parser.parse_args()
    if not args.speed_only:
        results = run(args.runs, args.seed, args.development, args.per_month, args.shifts)
        print(summary(results, args.shifts))
    if args.speed or args.speed_only:
        speed(args.seed)


if __name__ == "__main__":
    main()
