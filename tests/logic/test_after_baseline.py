"""After-the-fact columns found from how they are filled in (psl_triage.data.after_baseline), each
on a table built to have the signal, and baseline columns unrelated to any time never proposed out.

The tables are follow-up studies with a time named like nothing ("X4") whose event ends the
follow-up, as the third walk's exports were (bench/unseen_walk.py --set third): the weekly
employment of released prisoners (carData's Rossi), the days of later infections (survival's
cgd0), how an unemployment spell ended (Ecdat's UnempDur), ascites at entry (survival's pbcseq).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from psl_triage.data import infer_column_types
from psl_triage.data.follow_up import guess_follow_up
from psl_triage.data.roles import propose_roles


def follow_up_study(n: int = 400, seed: int = 0, weeks: int = 52, dropout: float = 0.1) -> pd.DataFrame:
    """Weeks to an event ("X4", "ev"), censored at the study's end (``weeks``) or on leaving early
    (a ``dropout`` share); age and score raise the risk."""
    rng = np.random.default_rng(seed)
    age = rng.integers(20, 80, n)
    score = rng.normal(0, 1, n).round(2)
    rate = 0.01 * np.exp(0.03 * (age - 50) + 0.5 * score)
    event_week = np.ceil(rng.exponential(1 / rate))
    leave = np.where(rng.random(n) < dropout, rng.integers(1, weeks, n), weeks)
    end = np.minimum(event_week, leave).astype(int)
    return pd.DataFrame({"age": age, "score": score, "X4": np.maximum(end, 1), "ev": (event_week <= leave).astype(int)})


def roles_of(df: pd.DataFrame, outcome: str = "ev", positive=1) -> dict:
    return propose_roles(df, infer_column_types(df), outcome, [positive])


def test_a_weekly_series_recorded_while_followed_is_after_baseline():
    # Rossi: employment in each week after release, missing from the week of the arrest on; the
    # list asked emp43 and emp44 (its missingness is the arrest).
    df = follow_up_study(seed=1)
    rng = np.random.default_rng(2)
    for week in range(1, 53):
        df[f"job{week}"] = np.where(df["X4"] >= week, rng.choice(["yes", "no"], len(df)), None)
    roles = roles_of(df)
    assert roles["X4"].role == "time", roles["X4"].evidence
    out = {name: role for name, role in roles.items() if name.startswith("job")}
    assert all(role.role == "leak" for role in out.values()), {n: r.evidence for n, r in out.items() if r.role != "leak"}
    assert "'X4'" in roles["job40"].evidence and "'X4'" in roles["job1"].evidence
    assert roles["age"].role == "question" and roles["score"].role == "question"


def test_the_days_of_later_infections_go_out_with_the_second():
    # cgd0: the days of a second infection (17 patients) went out as filled in for the infected only,
    # but those of a third, fourth and fifth (8, 3, 2 patients) stayed questions and training
    # stopped on one with no value in a fold: now too few to learn from.
    df = follow_up_study(seed=3)
    rng = np.random.default_rng(4)
    infected = np.flatnonzero(df["ev"] == 1)
    second = rng.choice(infected, 30, replace=False)
    df["d2"] = np.nan
    df.loc[second, "d2"] = df.loc[second, "X4"] + rng.integers(5, 60, 30)
    for k, count in ((3, 8), (4, 3), (5, 2)):
        rows = second[:count]
        df[f"d{k}"] = np.nan
        df.loc[rows, f"d{k}"] = df.loc[rows, "d2"] + 10 * k
    roles = roles_of(df)
    assert roles["d2"].role == "leak", roles["d2"].evidence
    for name in ("d3", "d4", "d5"):
        assert roles[name].takes_out, roles[name].evidence


def test_the_other_values_of_the_outcomes_status_are_after_the_fact():
    # UnempDur: censor1..censor4 say how a spell ended (full-time work, part-time, other, still
    # jobless), one column each; for the first the list asked the three others.
    df = follow_up_study(seed=5)
    rng = np.random.default_rng(6)
    ended = np.where(df["ev"] == 1, "full", rng.choice(["part", "other", "still"], len(df), p=[0.3, 0.3, 0.4]))
    for code in ("part", "other", "still"):
        df[code] = (ended == code).astype(int)
    df["smoker"] = rng.integers(0, 2, len(df))  # a finding, 1 with the event in many rows
    roles = roles_of(df)
    for code in ("part", "other", "still"):
        assert roles[code].role == "leak" and "'ev'" in roles[code].evidence, roles[code].evidence
    assert roles["smoker"].role == "question", roles["smoker"].evidence


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(60, 400), missing_share=st.floats(0.0, 0.6))
def test_baseline_columns_unrelated_to_any_time_are_never_proposed_out(seed, n, missing_share):
    rng = np.random.default_rng(seed)
    df = follow_up_study(n=n, seed=seed)
    for k in range(1, 7):  # a numbered series of baseline labs, some missing at random
        values = rng.lognormal(0, 1, n).round(2)
        df[f"lab{k}"] = np.where(rng.random(n) < missing_share, np.nan, values)
    df["flag"] = rng.integers(0, 2, n)
    df["kind_a"] = (rng.random(n) < 0.5).astype(int)
    df["kind_b"] = 1 - df["kind_a"]  # one-hot coded baseline category
    roles = roles_of(df)
    baseline = [name for name in df.columns if name.startswith(("lab", "flag", "kind"))]
    assert {name: roles[name].evidence for name in baseline if roles[name].role != "question"} == {}


def ascites_study() -> pd.DataFrame:
    """A finding at entry (15 % of patients) whose patients mostly die within weeks, beside the
    study's status, a third of its patients leaving early: with the time named like nothing, the
    finding behaves as its event better than the status does."""
    df = follow_up_study(n=300, seed=7, dropout=0.3).drop(columns="score")
    rng = np.random.default_rng(8)
    sick = rng.random(len(df)) < 0.15
    early = np.ceil(rng.exponential(8, len(df))).astype(int)
    df["X4"] = np.where(sick & (early < df["X4"]), np.maximum(early, 1), df["X4"])
    df["ev"] = np.where(sick & (early < 52), 1, df["ev"])
    df.loc[np.flatnonzero(sick)[:2], "ev"] = 0  # two of them not (yet) dead
    df["ascites"] = sick.astype(int)
    return df


def test_a_finding_that_shortens_the_follow_up_stays_a_question():
    # pbcseq: ascites at entry (24 patients, 23 of them died) behaves with the follow-up time as an
    # event would and went out as "a 0/1 column with its own follow-up time".
    df = ascites_study()
    roles = roles_of(df)
    assert roles["ascites"].role == "question", roles["ascites"].evidence
    assert roles["X4"].role == "time" and "'ev'" in roles["X4"].evidence, roles["X4"].evidence


def test_the_status_named_so_is_proposed_over_a_finding_that_shortens_follow_up():
    # pbcseq: the Data page proposed ascites as the outcome, with OS as its time.
    df = ascites_study().rename(columns={"ev": "status"})
    assert guess_follow_up(df) == ("X4", "status")


def visits_study(n: int = 300, seed: int = 9) -> pd.DataFrame:
    """Days to death ("OS", "status"), the day of each patient's last visit before the end of follow-up
    (some never came back after entry), age in years and in days, and labs at entry."""
    df = follow_up_study(n=n, seed=seed, weeks=260).rename(columns={"X4": "OS", "ev": "status"})
    rng = np.random.default_rng(seed + 1)
    df["OS"] = df["OS"] * 7
    seen = df["OS"] * rng.uniform(0.2, 1.0, n)  # the last visit some time before the end of follow-up
    df["lastvisit"] = np.where(rng.random(n) < 0.85, 30 * np.floor(seen / 30), 0)
    df["age_entry"] = df["age"] * 365 + rng.integers(0, 365, n)
    df["bili"] = rng.lognormal(0, 0.8, n).round(1)
    return df


def test_a_time_within_follow_up_is_after_baseline():
    # pbcseq: `lastvisit` (the day of the last visit: never above OS, rank correlation 0.74) was asked.
    df = visits_study()
    roles = roles_of(df, outcome="status")
    assert roles["OS"].role == "time", roles["OS"].evidence
    assert roles["lastvisit"].role == "time" and "'OS'" in roles["lastvisit"].evidence, roles["lastvisit"].evidence
    for name in ("age", "score", "age_entry", "bili"):
        assert roles[name].role == "question", (name, roles[name].evidence)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(60, 400), link=st.floats(0.0, 0.3),
       scale=st.sampled_from([0.01, 1.0, 30.0]))
def test_baseline_columns_below_the_follow_up_are_never_times_within_it(seed, n, link, scale):
    # A baseline measurement small beside the follow-up time (never above it), raising or lowering
    # the patients' time in part (a prognostic lab: rank correlation with the time up to about 0.4),
    # is not a time within the follow-up.
    rng = np.random.default_rng(seed)
    df = follow_up_study(n=n, seed=seed, weeks=260)
    df["X4"] = df["X4"] * 7 + 10
    noise = rng.normal(0, 1, n)
    rank = pd.Series(df["X4"]).rank(pct=True).to_numpy()
    for sign, name in ((1, "lab_up"), (-1, "lab_down")):
        value = np.exp(sign * link * 3 * (rank - 0.5) + (1 - link) * noise)
        df[name] = np.minimum(scale * value, df["X4"] * 0.9).round(2)
    df["age_years"] = rng.integers(18, 90, n)
    roles = roles_of(df)
    baseline = ("lab_up", "lab_down", "age_years", "age", "score")
    assert {name: roles[name].evidence for name in baseline if roles[name].role != "question"} == {}
