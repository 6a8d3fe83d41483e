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
from psl_triage.training.session import TrainingSession
from tests.logic.test_training_session import widget_choices
from tests.tables import dataset_session


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


def test_a_laboratory_ceiling_is_no_follow_up_time_a_fixed_window_is():
    """A PCR cycle threshold: positives from 15 to 40 cycles, every other test at 45 ("not
    detected"). It looks like a study that followed everyone for 45 days (every non-event at the
    longest value, where no event is), but its events begin well up the scale: no follow-up time,
    and the leak guard judges it as the perfect separator it is. A trial that followed everyone
    for a fixed window has its events from the first days, and is one (Rossi, pharmacoSmoking)."""
    rng = np.random.default_rng(12)
    n = 300
    positive = (rng.random(n) < 0.2).astype(int)
    table = pd.DataFrame({"age": rng.integers(1, 90, n), "drive_thru": rng.integers(0, 2, n),
                          "ct_value": np.where(positive == 1, rng.uniform(15, 40, n), 45.0).round(1),
                          "positive": positive})
    assert time_of(table, "positive") is None and found(table) == {}
    table["ct_value"] = np.where(positive == 1, rng.uniform(0, 40, n), 45.0).round(1)
    assert time_of(table, "positive").time == "ct_value"


def _trial_table(n=137, seed=0, censored=9):
    """A lung cancer trial as survival's veteran is built: nearly every patient followed to death
    (``censored`` of them alive at the end, all followed long), a performance score, months from
    diagnosis (skewed like a time, but before baseline), age."""
    rng = np.random.default_rng(seed)
    karno = rng.integers(1, 10, n) * 10
    diagnosed = np.ceil(rng.exponential(9, n))
    days = np.ceil(rng.exponential(1 / (0.012 * np.exp(-(karno - 60) / 25)), n))
    alive = np.zeros(n, dtype=bool)
    alive[rng.choice(np.flatnonzero(days > np.quantile(days, 0.5)), censored, replace=False)] = True
    days[alive] = np.ceil(days[alive] * rng.uniform(0.5, 0.9, censored))
    return pd.DataFrame({"trt": rng.integers(1, 3, n), "karno": karno, "diag": diagnosed,
                         "age": rng.integers(35, 80, n), "st": days, "status": (~alive).astype(int)})


def test_a_follow_up_time_with_few_censored_patients_is_proposed_and_trains():
    """survival's veteran (time renamed "st"): 9 censored of 137, too few to show a follow-up
    pattern beyond chance, so no pair was proposed and the yes/no outcome stopped with "too few
    rows". The one column whose events spread from early on while the few censored sit later is
    proposed, and a list at its horizon trains."""
    table = _trial_table()
    assert time_of(table, "status").time == "st"
    assert roles_of(table, "status")["st"].role == "time"
    assert {roles_of(table, "status")[name].role for name in ("karno", "diag", "age")} == {"question"}
    session = dataset_session(None, table, "trial.xlsx")
    session.choose_outcome("status")
    assert session.active.follow_up.time == "st"
    assert session.refresh() is not None, session.prepare_error
    training = TrainingSession()
    training.run(session, widget_choices())
    assert "st" not in {str(literal.column) for literal in training.model.literals_}


def test_two_columns_that_could_be_the_time_of_few_censored_leave_the_choice_to_the_user():
    """A lab value skewed as times are, high in the few patients without the event, behaves as
    that time does: the values cannot tell which is the time, and none is proposed."""
    table = _trial_table()
    rng = np.random.default_rng(3)
    table["lab"] = np.where(table["status"] == 0, rng.uniform(150, 400, len(table)),
                            np.ceil(rng.exponential(90, len(table))))
    assert time_of(table, "status") is None


def _feeding_table(n=900, seed=0, by_date=True):
    """A breast-feeding study as KMsurv's bfeed is built: mothers enrolled at birth over nine
    years, followed to weaning (weeks) or to the day the study closed, so only children born in
    the last months are censored, followed shorter the later they were born (``by_date``; else
    the same number censored at random)."""
    rng = np.random.default_rng(seed)
    born = rng.uniform(78, 86.6, n)
    weaning = np.ceil(rng.weibull(0.9, n) * 14 * np.exp(rng.normal(0, 0.3, n)))
    followed = np.floor((86.6 - born) * 52)
    censored = weaning > followed
    if not by_date:
        censored = np.isin(np.arange(n), rng.choice(n, int(censored.sum()), replace=False))
        followed = np.ceil(weaning * rng.uniform(0.2, 1, n))
    return pd.DataFrame({"ybirth": np.floor(born).astype(int), "agemth": rng.integers(15, 29, n),
                         "smoke": (rng.random(n) < 0.3).astype(int), "dur": np.where(censored, np.maximum(followed, 1), weaning),
                         "delta": (~censored).astype(int)})


def test_a_follow_up_time_closed_on_one_date_is_found_from_the_entry_year():
    """KMsurv's bfeed (duration renamed "dur"): 35 of 927 mothers censored, followed shorter than
    the others (the later born, the shorter), so no pair was proposed and the list asked the
    time. Among the censored the time falls with the year of birth, among the others it does
    not: follow-up closed on one date. Proposed; the baseline stays."""
    table = _feeding_table()
    assert 10 <= (table["delta"] == 0).sum() < 0.1 * len(table)
    assert _censored_longer(table["dur"].to_numpy(), table["delta"].to_numpy()) < 0.6  # censored not followed longer
    item = time_of(table, "delta")
    assert item.time == "dur" and "the later 'ybirth', the shorter the time" in item.evidence
    roles = roles_of(table, "delta")
    assert roles["dur"].role == "time" and roles["agemth"].role == roles["smoke"].role == "question"
    assert roles["ybirth"].role != "time"  # who was censored, not a time: the lone-separator check may ask
    assert time_of(_feeding_table(by_date=False), "delta") is None


def _registry_table(n=3000, seed=0):
    """A cancer registry as SEER's prostate cancer export is built: half the men lost or diagnosed
    in the last two years (followed up to 24 months), the others diagnosed over six years before
    the registry closed (followed 48 to 120 months), each followed to death or that end; grade,
    age group and a lab value at diagnosis."""
    rng = np.random.default_rng(seed)
    grade, age = rng.integers(0, 2, n), rng.integers(0, 4, n)
    followed = np.where(rng.random(n) < 0.5, rng.uniform(0, 24, n), rng.uniform(48, 120, n)).round()
    death = np.ceil(rng.exponential(1 / (0.004 * np.exp(0.5 * grade + 0.4 * age)), n))
    return pd.DataFrame({"grade": grade, "ageGroup": age, "psa": rng.lognormal(2, 0.8, n).round(1),
                         "OS": np.minimum(death, followed), "status": (death <= followed).astype(int)})


def test_a_time_whose_censored_are_followed_shorter_yet_end_it_is_proposed():
    """asaur's prostateSurvival (time renamed "OS"): the censored men were followed no longer than
    the dead (AUC 0.44: the last diagnosed are censored early), so nothing was proposed and the
    list asked the time. Yet the longest times end censored far beyond the steady trend a finding
    at diagnosis would show: the registry's end. Proposed; the baseline stays."""
    for seed in range(3):
        table = _registry_table(seed=seed)
        assert _censored_longer(table["OS"].to_numpy(), table["status"].to_numpy()) < 0.55
        assert time_of(table, "status").time == "OS" and found(table) == {"OS": ("status", None)}
    roles = roles_of(_registry_table(), "status")
    assert roles["OS"].role == "time" and {roles[name].role for name in ("grade", "ageGroup", "psa")} == {"question"}
    assert "of the longest tenth against" in time_of(_registry_table(), "status").evidence


def _visits_table(n=170, seed=0):
    """A trial as survival's udca is built: treatment failure found at the yearly visits (months
    12, 24, ...), patients followed 2 to 6 years to the trial's end; the time in months."""
    rng = np.random.default_rng(seed)
    stage, bili = rng.integers(0, 2, n), rng.lognormal(0, 0.8, n).round(2)
    failure = rng.exponential(1 / (0.012 * np.exp(0.6 * stage + 0.4 * np.log(bili))), n)
    found_at = np.ceil(failure / 12) * 12
    end = rng.uniform(24, 72, n).round(1)
    return pd.DataFrame({"stage": stage, "bili": bili, "tf": np.minimum(found_at, end),
                         "fail": (found_at <= end).astype(int)})


def test_a_time_whose_events_are_found_at_yearly_visits_is_proposed():
    """survival's udca (failure time renamed "tf"): failures are found at visits a year apart, so
    the tenth of their times sat above a quarter of the censored patients' median (0.28) and no
    pair was proposed. They begin soon after the time's zero all the same: proposed."""
    for seed in (1, 2, 3):
        table = _visits_table(seed=seed)
        assert time_of(table, "fail").time == "tf" and found(table) == {"tf": ("fail", None)}
        assert roles_of(table, "fail")["bili"].role == "question"

