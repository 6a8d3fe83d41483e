"""Follow-up times that end where a study closed (issue 39, the walk's last failures): a time whose
censored patients pile up at exactly its longest value where no event is, the age at exit that is
the age at entry plus that time, and a running number that is never a time."""

from __future__ import annotations

import numpy as np
import pandas as pd

from psl_triage.data import infer_column_types
from psl_triage.data.event_times import follow_up_evidence, time_of
from psl_triage.data.follow_up import proposed_follow_up
from psl_triage.data.roles import propose_roles


def found(table):
    return {item.time: (item.event, item.longer) for item in follow_up_evidence(table)}


def roles_of(table, outcome):
    return {name: role for name, role in propose_roles(table, infer_column_types(table), outcome, [1]).items()}


def _censored_longer(time, event):
    """The chance that a censored patient's time is longer than one with the event."""
    ranks = pd.Series(time).rank().to_numpy()
    return (ranks[event == 0].mean() - ranks[event == 1].mean()) / len(time) + 0.5


def _home_table(n=460, seed=0):
    """A retirement home as KMsurv's channing is built: residents followed from entry (a third on
    the day the records open, the others later) to death, to moving out, or to the day the records
    closed (month 137); ages in months at entry and at exit; the rows sorted by sex and numbered."""
    rng = np.random.default_rng(seed)
    sex = (rng.random(n) < 0.8).astype(int) + 1
    age_in = rng.normal(905, 70, n).round()
    start = np.where(rng.random(n) < 0.35, 0, rng.integers(0, 130, n))
    death = np.ceil(rng.exponential(1 / (0.004 * np.exp((age_in - 905) / 60)), n))
    moved = np.ceil(rng.exponential(400, n))
    t = np.minimum.reduce([death, 137 - start, moved])
    table = pd.DataFrame({"sex": sex, "age_in": age_in, "age_out": age_in + t, "t": t,
                          "d": (death <= np.minimum(137 - start, moved)).astype(int)})
    table = table.sort_values("sex", ascending=False, kind="stable").reset_index(drop=True)
    table.insert(0, "obs", np.arange(1, n + 1))
    return table


def _infant_table(n=3000, seed=0):
    """A birth cohort as KMsurv's pneumon is built: infants followed to a rare hospitalisation or
    to 12 months (the study's end), some lost before; the age in whole months (half a month for
    the youngest), 13 values."""
    rng = np.random.default_rng(seed)
    low_weight, smoke, mother = (rng.random(n) < 0.35).astype(int), rng.integers(0, 3, n), rng.integers(14, 30, n)
    event = np.ceil(rng.exponential(1 / (0.0015 * np.exp(0.6 * smoke + 0.5 * low_weight)), n))
    lost = np.where(rng.random(n) < 0.3, rng.integers(1, 12, n), 99)
    age = np.minimum.reduce([event, lost, np.full(n, 12)]).astype(float)
    age[(age == 1) & (rng.random(n) < 0.5)] = 0.5
    return pd.DataFrame({"mother": mother, "smoke": smoke, "low_weight": low_weight, "a": age,
                         "h": ((event < 12) & (event <= lost)).astype(int)})


def test_a_time_closed_at_the_studys_end_is_found_despite_late_entries():
    """KMsurv's channing (time renamed "t"): residents entering late or moving out make the
    censored patients' times no longer than the deaths' beyond a clear margin (0.63), and the
    list asked the time. Yet 124 of 286 censored residents end at exactly month 137 and no death
    does: the day the records closed. Found, with that evidence."""
    for seed in range(3):
        table = _home_table(seed=seed)
        assert _censored_longer(table["t"].to_numpy(), table["d"].to_numpy()) < 0.7
        assert found(table)["t"] == ("d", None)
    item = next(item for item in follow_up_evidence(_home_table()) if item.time == "t")
    assert "end at exactly 137" in item.evidence


def test_the_age_at_exit_is_measured_at_the_end_of_follow_up():
    """channing's age at exit (age at entry plus the time) was the list's first question."""
    roles = roles_of(_home_table(), "d")
    assert roles["t"].role == roles["age_out"].role == "time"
    assert "'age_in' plus the follow-up time 't'" in roles["age_out"].evidence
    assert roles["age_in"].role == roles["sex"].role == "question"
    # an age at entry plus a number unrelated to the time is no age at exit
    table = _home_table()
    table["age_out"] = table["age_in"] + np.random.default_rng(4).integers(0, 137, len(table))
    assert roles_of(table, "d")["age_out"].role == "question"


def test_a_running_number_is_never_a_follow_up_time():
    """channing's observation number, in rows sorted by sex, was found as the follow-up time of
    sex, and sex was proposed out."""
    table = _home_table()
    assert "obs" not in found(table)
    roles = roles_of(table, "d")
    assert roles["sex"].role == "question" and roles["obs"].role == "identifier"


def test_a_monthly_time_of_few_values_ending_at_the_studys_end_is_proposed():
    """KMsurv's pneumon (age renamed "ca"): 13 monthly values, fewer than a follow-up time needed,
    so no pair was proposed and the list asked the time first. Its censored infants pile up at
    12 months, where no hospitalisation is: proposed with its event, the baseline stays."""
    table = _infant_table()
    assert table["a"].nunique() == 13
    assert time_of(table, "h").time == "a"
    assert proposed_follow_up(table, "h", [1]).time == "a"
    roles = roles_of(table, "h")
    assert roles["a"].role == "time"
    assert {roles[name].role for name in ("mother", "smoke", "low_weight")} == {"question"}


def test_a_coma_score_beside_death_is_no_follow_up_time():
    """A scale of 13 values whose survivors pile up at its top, as the censored do at a study's
    end, and whose deaths sit mostly at its bottom, as early events do: a coma score beside death.
    Some deaths sit at its top too (4 % there, 6 % of the deaths): it stays a question."""
    rng = np.random.default_rng(2)
    n = 1500
    gcs = np.where(rng.random(n) < 0.15, 3, np.clip(np.round(15 - rng.exponential(2.5, n)), 3, 15))
    dead = (rng.random(n) < 0.04 + 0.6 / (1 + np.exp(1.2 * (gcs - 6)))).astype(int)
    table = pd.DataFrame({"age": rng.integers(18, 90, n), "gcs": gcs, "dead": dead})
    assert dead[gcs == 15].sum() >= 0.02 * dead.sum()
    assert time_of(table, "dead") is None and found(table) == {}
    assert roles_of(table, "dead")["gcs"].role == "question"
