"""Follow-up times found from how columns behave with their events, whatever their names (issue
39): a follow-up time and its event, another event's time tracking it, a column rising with it;
and never a baseline column unrelated to any time."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from psl_triage.data import infer_column_types
from psl_triage.data.event_times import follow_up_evidence, time_of
from psl_triage.data.follow_up import guess_follow_up, numeric_columns, proposed_follow_up, time_columns
from psl_triage.data.roles import propose_roles
from tests.tables import dataset_session, follow_up_table, liver_table, transplant_table


def found(table):
    return {item.time: (item.event, item.longer) for item in follow_up_evidence(table)}


def roles_of(table, outcome):
    return {name: role.role for name, role in propose_roles(table, infer_column_types(table), outcome, [1]).items()}


def test_a_follow_up_time_named_os_or_t1_is_found_with_its_event():
    assert found(liver_table())["OS"] == ("Death", None)
    assert found(transplant_table())["t1"] == ("d1", None)
    assert guess_follow_up(liver_table()) == ("OS", "Death")
    assert guess_follow_up(transplant_table()) == ("t1", "d1")
    assert proposed_follow_up(transplant_table(), "d1", [1]).time == "t1"
    # the same pair with names that say nothing at all
    anonymous = follow_up_table().rename(columns={"rfstime": "v5", "status": "v6"})
    assert guess_follow_up(anonymous) == ("v5", "v6")


def test_another_events_time_tracks_the_follow_up_time_with_its_event():
    assert found(liver_table())["RFS"] == ("Recurrence", "OS")
    assert found(transplant_table())["t2"] == ("d2", "t1")
    assert found(transplant_table())["ta"] == ("da", "t1")
    assert proposed_follow_up(liver_table(), "Recurrence", [1]).time == "RFS"
    assert proposed_follow_up(transplant_table(), "da", [1]).time == "ta"
    item = next(item for item in follow_up_evidence(liver_table()) if item.time == "RFS")
    assert "never above the follow-up time 'OS'" in item.evidence and "'Recurrence' is 0" in item.evidence


def test_every_time_and_other_event_is_proposed_out_and_the_baseline_stays():
    roles = roles_of(transplant_table(), "d1")
    assert {name for name, role in roles.items() if role == "time"} == {"t1", "t2", "ta"}
    assert roles["d2"] == roles["da"] == "leak"
    assert all(roles[f"z{i}"] == "question" for i in range(1, 7))
    roles = roles_of(liver_table(), "Recurrence")
    assert roles["OS"] == roles["RFS"] == "time" and roles["Death"] == "leak"
    assert {roles[name] for name in ("Age", "Tumour size", "AFP", "Cirrhosis")} == {"question"}


def test_a_count_rising_with_follow_up_is_recorded_after_baseline():
    table = transplant_table()
    table["visits"] = np.random.default_rng(3).poisson(table["t1"] / 60)
    assert found(table)["visits"] == (None, "t1")
    assert roles_of(table, "d1")["visits"] == "time"


def test_a_finding_tied_to_the_event_is_no_follow_up_time():
    """pbc's ascites: patients with it die sooner, so follow-up times are shorter for them;
    the time belongs to the event it behaves best with, and a lab value tied to the event
    (albumin) spreads as findings do, not as follow-up times."""
    table = follow_up_table(n=600)
    rng = np.random.default_rng(5)
    table["ascites"] = ((table["status"] == 1) & (rng.random(len(table)) < 0.4)).astype(int)
    table["albumin"] = (3.6 - 0.5 * table["status"] + rng.normal(0, 0.35, len(table))).round(2)
    assert found(table) == {"rfstime": ("status", None)}
    assert time_of(table, "ascites") is None or time_of(table, "ascites").time == "rfstime"
    assert roles_of(table, "status")["albumin"] == "question"


def test_the_data_page_offers_every_numeric_column_as_a_time():
    table = liver_table()
    assert time_columns(table)[:2] == ["OS", "RFS"]
    assert set(numeric_columns(table)) >= {"OS", "RFS", "Age", "Tumour size", "AFP"}
    assert "Death" not in numeric_columns(table)


_KINDS = st.sampled_from(["normal", "age", "count", "lab", "flag", "rare_flag", "days", "score", "capped", "row",
                          "visit_lab", "visit_flag", "visit_days"])


def _baseline(kind, rng, n, missed=None):
    """A baseline column of ``kind``; the ``visit_`` kinds are empty where ``missed`` (a visit
    before baseline some patients missed: several columns empty in the same rows)."""
    if kind.startswith("visit_"):
        return np.where(missed, np.nan, _baseline(kind.removeprefix("visit_"), rng, n))
    return {
        "normal": lambda: rng.normal(0, 1, n).round(2),
        "age": lambda: rng.integers(18, 90, n),
        "count": lambda: rng.poisson(2, n),
        "lab": lambda: rng.lognormal(2, 1, n).round(1),
        "flag": lambda: (rng.random(n) < rng.uniform(0.1, 0.9)).astype(int),
        "rare_flag": lambda: (rng.random(n) < 0.08).astype(int),
        "days": lambda: rng.integers(0, 3000, n),  # a waiting time before baseline
        "score": lambda: rng.integers(0, 15, n),
        "capped": lambda: np.minimum(rng.poisson(10, n), 12),  # many at its top, as at a study's end
        "row": lambda: np.arange(1, n + 1),  # a running number
    }[kind]()


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), n=st.integers(60, 500), kinds=st.lists(_KINDS, min_size=1, max_size=8))
def test_baseline_columns_unrelated_to_any_time_are_never_proposed_out(seed, n, kinds):
    """Whatever baseline columns a follow-up table holds, each drawn without regard to the
    follow-up time or any event, none is found as a time, an event or a column rising with one."""
    rng = np.random.default_rng(seed)
    event, end = rng.exponential(rng.uniform(300, 3000), n), rng.uniform(200, 3000, n)
    table = pd.DataFrame({"T": np.ceil(np.minimum(event, end)), "E": (event <= end).astype(int)})
    names, missed = [f"b{index}" for index in range(len(kinds))], rng.random(n) < rng.uniform(0.1, 0.45)
    for name, kind in zip(names, kinds):
        table[name] = _baseline(kind, rng, n, missed)
    evidence = follow_up_evidence(table)
    assert not {item.time for item in evidence} & set(names)
    assert not {item.event for item in evidence} & set(names)
    roles = propose_roles(table, infer_column_types(table), "E", [1])
    assert not [name for name in names if roles[name].role == "time" or "its own follow-up time" in roles[name].evidence]


def test_a_transplant_export_opens_on_its_death_and_follow_up_time():
    """KMsurv's bmt: the outcome guessed was z10, a treatment flag, the last two-valued column."""
    session = dataset_session(None, transplant_table(), "bmt.csv")
    assert session.active.outcome == "d1" and session.active.follow_up.time == "t1"
    assert {"t1", "t2", "ta", "d2", "da"} <= set(session.active.flagged_columns)


def test_an_event_indicator_beside_a_time_found_with_another_event_is_one_too():
    """KMsurv's bmt: d3 (relapse or death) is the event of t2, whose own event by the tracking
    pattern is d2 (relapse): with relapse as the outcome d3 was a question."""
    table = transplant_table()
    table["d3"] = (table["d1"] | table["d2"]).astype(int)
    assert roles_of(table, "d2")["d3"] == "leak"
    assert time_of(table, "d3").time == "t2"


def test_the_time_of_an_event_only_some_reached_is_found_with_its_event():
    """A heart-transplant export: the wait for a transplant is filled in only for the patients
    who had one (``transplant`` = 1) and never above the follow-up time. It was a question (the
    list's only one); it and its event are now proposed out, and the baseline stays."""
    rng = np.random.default_rng(5)
    table = follow_up_table(n=300, seed=2).rename(columns={"rfstime": "surv_d", "status": "dead"})
    transplant = rng.random(300) < 0.6
    table["tx_wait"] = np.where(transplant, np.floor(rng.uniform(0, 1, 300) * table["surv_d"]), np.nan)
    table["transplant"] = transplant.astype(int)
    assert found(table)["tx_wait"] == ("transplant", "surv_d")
    roles = roles_of(table, "dead")
    assert roles["tx_wait"] == "time" and roles["transplant"] == "leak"
    assert {roles[name] for name in ("age", "nodes", "grade")} == {"question"}


def test_a_measurement_filled_in_only_after_another_event_is_proposed_out():
    """The same export: the donor mismatch score exists only for the patients transplanted; it
    was the list's first question. Now proposed out, naming the event; a baseline column with
    gaps scattered at random stays a question."""
    rng = np.random.default_rng(6)
    table = follow_up_table(n=300, seed=2).rename(columns={"rfstime": "surv_d", "status": "dead"})
    transplant = rng.random(300) < 0.6
    table["tx_wait"] = np.where(transplant, np.floor(rng.uniform(0, 1, 300) * table["surv_d"]), np.nan)
    table["transplant"] = transplant.astype(int)
    table["mscore"] = np.where(transplant & (rng.random(300) < 0.95), rng.uniform(0, 3, 300).round(2), np.nan)
    table["albumin"] = np.where(rng.random(300) < 0.7, rng.normal(40, 5, 300).round(1), np.nan)
    roles = propose_roles(table, infer_column_types(table), "dead", [1])
    assert roles["mscore"].role == "leak" and "'transplant' is 1" in roles["mscore"].evidence
    assert roles["albumin"].role == roles["age"].role == "question"


def test_the_proposed_follow_up_takes_the_unit_its_time_name_states():
    """A new user's walk: "OS_days" was proposed with no unit, and the classes read "Death
    within 1500" until the unit was typed. A stated unit is now proposed; a coded name leaves
    it to the user."""
    table = follow_up_table()
    assert proposed_follow_up(table.rename(columns={"rfstime": "OS_days"}), "status", [1]).unit == "days"
    assert proposed_follow_up(table.rename(columns={"rfstime": "pfs.months"}), "status", [1]).unit == "months"
    assert proposed_follow_up(table.rename(columns={"rfstime": "t1"}), "status", [1]).unit == ""


def _burns_table(n=300, seed=0):
    """A burns study as KMsurv's ``burn`` is built: the outcome's time ``a`` and event ``b``
    (infection), another event's time ``c`` and indicator ``d`` (excision), censored at the same
    end of follow-up: where no excision happened its time equals the infection's follow-up time,
    and where it did its time may lie above it (the infection came first). Names say nothing."""
    rng = np.random.default_rng(seed)
    area, sex = rng.integers(5, 90, n), rng.integers(0, 2, n)
    end = np.where(rng.random(n) < 0.3, rng.integers(3, 20, n), rng.integers(40, 60, n)).astype(float)
    infection = np.ceil(rng.exponential(300 / (1 + area / 30), n))
    b = (infection < end).astype(int)
    a = np.where(b == 1, infection, end)
    excision = np.ceil(rng.exponential(8, n))
    d = ((excision < end) & (rng.random(n) < 0.9)).astype(int)
    c = np.where(d == 1, excision, end)
    return pd.DataFrame({"area": area, "sex": sex, "c": c, "d": d, "a": a, "b": b})


def test_another_events_time_censored_with_the_follow_up_time_is_found_above_it_too():
    """KMsurv's burn: T1/D1 (excision) were questions with the outcome D3 (infection, time T3):
    T1 lies above T3 in a fifth of rows, so it never tracked T3, yet it equals T3 exactly where
    D1 is 0. Now found as another event's time with its event, and the baseline stays."""
    table = _burns_table()
    assert (table["c"] > table["a"]).mean() > 0.05  # not "never above" (2 %): _tracks cannot find it
    assert found(table)["a"] == ("b", None) and found(table)["c"] == ("d", "a")
    roles = roles_of(table, "b")
    assert roles["c"] == "time" and roles["d"] == "leak"
    assert roles["area"] == roles["sex"] == "question"
    # A baseline count that equals the follow-up time now and then, by chance, is no such time.
    table["c"] = np.random.default_rng(9).integers(10, 60, len(table))
    assert "c" not in found(table) and roles_of(table, "b")["c"] == "question"


def test_a_status_of_three_codes_gets_its_follow_up_time_once_its_event_is_chosen():
    """MASS's Melanoma (status 1 died of melanoma, 2 alive, 3 died of other causes; time renamed
    "surv"): no follow-up pair was proposed and the list's first question was the time. Once the
    positive value is chosen, the time is proposed with it and never a question."""
    rng = np.random.default_rng(1)
    table = follow_up_table().rename(columns={"rfstime": "surv"})
    other = (table["status"] == 0) & (rng.random(len(table)) < 0.2)
    table["status"] = np.where(table["status"] == 1, 1, np.where(other, 3, 2))
    assert proposed_follow_up(table, "status", [1]).time == "surv"
    assert {name: role.role for name, role in propose_roles(table, infer_column_types(table), "status", [1]).items()
            }["surv"] == "time"
    session = dataset_session(None, table, "melanoma.xlsx")
    session.choose_outcome("status")
    assert session.active.follow_up is None  # which code is the event is the user's to say
    session.choose_positive([1])
    assert session.active.follow_up.time == "surv" and "surv" not in session.in_use()


def test_a_time_filled_in_for_some_without_an_event_column_is_found_with_its_companion():
    """survival's mgus (futime renamed "fu"): the time to progression (pctime) and its type (pcdx)
    are filled in only for the 27 % who progressed, and no 0/1 column says who; the list asked
    pctime. It is found from the values (never above the follow-up time, rising with it where
    filled in), its type with it; a lab value with gaps stays a question."""
    rng = np.random.default_rng(8)
    table = follow_up_table(n=300, seed=3).rename(columns={"rfstime": "fu", "status": "dead"})
    progressed = rng.random(300) < 0.3
    table["prog_t"] = np.where(progressed, np.floor(table["fu"] * rng.uniform(0.3, 1.0, 300)), np.nan)
    table["prog_kind"] = np.where(progressed, rng.choice(["MM", "LP", "AM"], 300), None)
    table["alb"] = np.where(rng.random(300) < 0.8, rng.normal(3.5, 0.5, 300).round(1), np.nan)
    roles = propose_roles(table, infer_column_types(table), "dead", [1])
    assert roles["prog_t"].role == "time" and "rising with it" in roles["prog_t"].evidence
    assert roles["prog_kind"].role == "leak" and "'prog_t'" in roles["prog_kind"].evidence
    assert roles["alb"].role == roles["age"].role == "question"


def test_a_column_filled_only_after_an_event_named_as_an_outcome_is_proposed_out():
    """mstate's ebmt1 (CML transplants): the calendar year of the relapse is filled in only for
    the patients who relapsed. 'Relapse' was proposed out by its name before its time was found,
    so the year went unchecked and the list for death asked it."""
    table = liver_table()
    rng = np.random.default_rng(3)
    table["rec_year"] = np.where(table["Recurrence"] == 1, rng.choice(["1993-1996", "1997-1999", "2000-"], len(table)), None)
    roles = propose_roles(table, infer_column_types(table), "Death", [1])
    assert roles["Recurrence"].role == "leak"
    assert roles["rec_year"].role == "leak" and "'Recurrence' is 1" in roles["rec_year"].evidence
    assert {roles[name].role for name in ("Age", "Tumour size", "AFP", "Cirrhosis")} == {"question"}


def hiv_cohort(n=330, seed=0):
    """An HIV cohort as mstate's aidssi2 holds it: years to AIDS (``tA``/``A``), to the SI switch
    (``tSI``/``SI``) and to death or last contact (``tD``/``D``), the first two censored at the
    third; most patients reach AIDS, and one in twelve entered late (followed 0.5 to 6 years), so
    no time shows its event by censoring alone."""
    rng = np.random.default_rng(seed)
    age = rng.uniform(19, 58, n).round(1)
    ccr5 = np.where(rng.random(n) < 0.2, "WM", "WW")
    risk = np.exp(0.03 * (age - 35) - 0.6 * (ccr5 == "WM"))
    aids, si, end = rng.weibull(2.5, n) * 9 / risk, rng.weibull(2.0, n) * 12 / risk, rng.uniform(6, 14, n)
    end = np.where(rng.random(n) < 0.08, rng.uniform(0.5, 6, n), end)
    death = aids + rng.exponential(1.0, n)
    t_d = np.minimum(death, end).round(3)
    t_a, t_si = np.minimum(aids, t_d).round(3), np.minimum(si, t_d).round(3)
    return pd.DataFrame({"age.inf": age, "ccr5": ccr5, "tA": t_a, "A": (aids < t_d).astype(int),
                         "tSI": t_si, "SI": (si < t_d).astype(int), "tD": t_d, "D": (death <= end).astype(int)})


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_time_other_events_times_end_at_is_a_follow_up_time(seed):
    """mstate's aidssi2: the time of death or last contact (``tD``) was the list's question for
    AIDS; the times to AIDS and to the SI switch end at it exactly where their events did not
    happen, which makes it the end of follow-up, with death as its event."""
    table = hiv_cohort(seed=seed)
    assert found(table) == {"tA": ("A", "tD"), "tSI": ("SI", "tD"), "tD": ("D", None)}
    roles = roles_of(table, "A")
    assert roles["tA"] == roles["tSI"] == roles["tD"] == "time" and roles["SI"] == roles["D"] == "leak"
    assert roles["age.inf"] == roles["ccr5"] == "question"
    assert proposed_follow_up(table, "A", [1]).time == "tA" and proposed_follow_up(table, "D", [1]).time == "tD"
    item = next(item for item in follow_up_evidence(table) if item.time == "tD")
    assert "'tA', 'tSI' never above it" in item.evidence and "event is 'D'" in item.evidence


def drug_treatment_trial(n=575, seed=0):
    """A drug treatment trial as quantreg's uis holds it: days from admission to return to drug
    use (``TIME``, ``CENSOR`` = 1 returned) and the days spent in treatment (``LEN.T``), which
    end at the return for those who relapse while in it, and as a share of the 90 or 180 days
    planned (``FRAC``); findings at admission, the long programme (``LONG``) among them."""
    rng = np.random.default_rng(seed)
    age, beck, ndt = rng.integers(20, 57, n), rng.integers(0, 55, n), rng.integers(0, 41, n)
    planned = np.where(rng.random(n) < 0.5, 90, 180)
    stay = np.ceil(np.where(rng.random(n) < 0.6, planned * rng.uniform(0.9, 1.1, n), rng.uniform(1, planned)))
    back = np.ceil(rng.exponential(300 * np.exp(-0.02 * (ndt - 10) - 0.01 * (beck - 15)), n))
    end = np.ceil(rng.uniform(200, 600, n))
    time = np.minimum(back, end)
    return pd.DataFrame({"AGE": age, "BECK": beck, "NDT": ndt, "LEN.T": np.minimum(stay, time),
                         "TIME": time, "CENSOR": (back <= end).astype(int), "LONG": (planned == 180).astype(int),
                         "FRAC": (np.minimum(stay, time) / planned).round(6)})


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_days_in_treatment_within_follow_up_are_proposed_out(seed):
    """quantreg's uis: the days in treatment (``LEN.T``) were the list's one question; they are
    never above the follow-up time, equal to it for the patients who relapsed during treatment and
    rise with it. Now proposed out, the findings at admission kept."""
    table = drug_treatment_trial(seed=seed)
    assert found(table)["LEN.T"] == (None, "TIME")
    roles = propose_roles(table, infer_column_types(table), "CENSOR", [1])
    assert roles["LEN.T"].role == "time" and "equal to it in" in roles["LEN.T"].evidence
    assert {roles[name].role for name in ("AGE", "BECK", "NDT", "LONG")} == {"question"}


def test_the_share_of_a_planned_treatment_completed_goes_out_with_its_days():
    """quantreg's uis: once the days in treatment were out, the list asked their share of the
    planned treatment (``FRAC``): the days divided by it are 90 or 180, a rescaled time."""
    table = drug_treatment_trial()
    assert found(table)["FRAC"] == (None, "LEN.T")
    roles = propose_roles(table, infer_column_types(table), "CENSOR", [1])
    assert roles["FRAC"].role == "time" and "is 90, 180 wherever" in roles["FRAC"].evidence
    assert roles["LONG"].role == "question"


def help_trial(n=453, seed=0):
    """A trial as mosaicData's HELPrct holds it: days to linkage with primary care
    (``dayslink``/``linkstatus``) for everyone, and days to any substance use with its status
    (``daysanysub``/``anysubstatus``, ``anysub`` its yes/no copy) only for the 54 % seen at
    follow-up; findings at entry."""
    rng = np.random.default_rng(seed)
    age, cesd, treat = rng.integers(19, 61, n), rng.integers(1, 61, n), rng.integers(0, 2, n)
    link, link_end = rng.exponential(300 / (1 + 2 * treat), n), rng.uniform(300, 456, n)
    use, use_end = rng.exponential(110 * np.exp(-0.02 * (cesd - 30)), n), rng.uniform(150, 270, n)
    seen = rng.random(n) < 0.54
    used = np.where(seen, (use <= use_end).astype(float), np.nan)
    return pd.DataFrame({
        "age": age, "cesd": cesd, "treat": np.where(treat == 1, "yes", "no"),
        "dayslink": np.ceil(np.minimum(link, link_end)), "linkstatus": (link <= link_end).astype(int),
        "daysanysub": np.where(seen, np.floor(np.minimum(use, use_end)), np.nan), "anysubstatus": used,
        "anysub": np.where(seen, np.where(used == 1, "yes", "no"), None),
    })


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_second_pair_filled_in_for_half_the_patients_is_found(seed):
    """mosaicData's HELPrct: the days to any substance use were the list's question for linkage
    to care; they and their status are filled in only for the patients seen at follow-up, which
    hid them from the search for follow-up times. Now found together, with the status's copy."""
    table = help_trial(seed=seed)
    assert found(table)["daysanysub"] == ("anysubstatus", None)
    roles = propose_roles(table, infer_column_types(table), "linkstatus", [1])
    assert roles["daysanysub"].role == "time" and "filled in for the same" in roles["daysanysub"].evidence
    assert roles["anysubstatus"].role == roles["anysub"].role == "leak"
    assert "own follow-up time" in roles["anysubstatus"].evidence
    assert {roles[name].role for name in ("age", "cesd", "treat")} == {"question"}
    assert proposed_follow_up(table, "linkstatus", [1]).time == "dayslink"


def waiting_list(n=600, seed=0):
    """A liver transplant waiting list as survival's transplant holds it: days on the list
    (``tw``) until transplant, death, withdrawal or the end of the study (``event``, text);
    most patients leave early by a transplant, few are still waiting at the end."""
    rng = np.random.default_rng(seed)
    age, abo = rng.integers(18, 70, n), rng.choice(["A", "B", "AB", "O"], n)
    ltx = rng.exponential(400 * np.where(abo == "O", 2.0, 1.0), n)
    death, withdraw = rng.exponential(1500 * np.exp(-0.03 * (age - 45)), n), rng.exponential(4000, n)
    first = np.minimum.reduce([ltx, death, withdraw, rng.uniform(700, 1200, n)])
    event = np.select([first == ltx, first == death, first == withdraw], ["ltx", "death", "withdraw"], "censored")
    return pd.DataFrame({"age": age, "abo": abo, "tw": np.ceil(first), "event": event})


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_status_of_competing_values_gets_its_time_from_its_censored_value(seed):
    """survival's transplant: with death chosen among transplant, death, withdrawal and
    censored, no time was proposed, since the transplanted leave early and death alone shows
    nothing. 'Any value but censored' behaves as the events of the days on the list."""
    table = waiting_list(seed=seed)
    follow_up = proposed_follow_up(table, "event", ["death"])
    assert follow_up is not None and follow_up.time == "tw"
    roles = propose_roles(table, infer_column_types(table), "event", ["death"])
    assert roles["tw"].role == "time" and "'censored' as its censored value" in roles["tw"].evidence
    assert roles["age"].role == roles["abo"].role == "question"


def test_a_follow_up_time_with_few_censored_at_the_end_is_found():
    """The waiting list coded 0/1 (any event): 94 % of patients have one and every censored
    patient is among the longest times, yet the longest fifth could not be 44 % censored, as
    asked of a study's end whatever the share of events."""
    table = waiting_list(seed=0)
    table["left"] = (table["event"] != "censored").astype(int)
    assert found(table.drop(columns="event"))["tw"] == ("left", None)


def aids_registry(n=1500, seed=0):
    """A registry as MASS's Aids2 holds it: the dates of diagnosis and of death or last contact,
    the days between them (``dd``) and the status at the last contact (``D`` died, ``A`` alive);
    patients are lost at any time, so the censored are followed little longer than the dead."""
    rng = np.random.default_rng(seed)
    age = rng.integers(18, 70, n)
    diag = pd.Timestamp("1982-01-01") + pd.to_timedelta(rng.integers(0, 3300, n), unit="D")
    death, lost = rng.weibull(1.0, n) * 600 * np.exp(-0.01 * (age - 37)), rng.weibull(1.2, n) * 700
    days = np.floor(np.minimum(death, lost))
    return pd.DataFrame({"sex": np.where(rng.random(n) < 0.95, "M", "F"), "diag": diag,
                         "last": diag + pd.to_timedelta(days, unit="D"), "status": np.where(death <= lost, "D", "A"),
                         "age": age, "dd": days})


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_days_between_two_dates_are_the_follow_up_time_of_the_status(seed):
    """MASS's Aids2: no time was proposed for death, the dead ending only a little earlier than
    the living (AUC 0.58). The time counts the days from diagnosis to the last contact: that is
    the follow-up time; without the dates the values alone do not show it."""
    table = aids_registry(seed=seed)
    follow_up = proposed_follow_up(table, "status", ["D"])
    assert follow_up is not None and follow_up.time == "dd"
    item = time_of(table, "status", positive=["D"])
    assert "counts the days from 'diag' to 'last'" in item.evidence
    assert proposed_follow_up(table.drop(columns=["diag", "last"]), "status", ["D"]) is None
    in_months = table.assign(dd=(table["dd"] / 30.4375).round(1))
    assert "counts the months" in time_of(in_months, "status", positive=["D"]).evidence


def actg_trial(n=1150, seed=0):
    """A trial as ACTG 320 is exported: days to AIDS or death (``tte``, ``aids``) and days to death
    (``t_d``, ``died``), both to the trial's end (about a year); death is rare (2 %), so its
    indicator is no event column of the whole table's search."""
    rng = np.random.default_rng(seed)
    cd4 = rng.gamma(2, 40, n).round()
    risk = np.exp(-0.02 * (cd4 - 80))
    aids, end = np.ceil(rng.exponential(3500 / risk, n)), rng.integers(180, 400, n).astype(float)
    death = np.where(rng.random(n) < 0.15, aids + np.ceil(rng.exponential(60, n)), np.ceil(rng.exponential(60000 / risk, n)))
    return pd.DataFrame({"cd4": cd4, "karnof": rng.choice([70, 80, 90, 100], n),
                         "tte": np.minimum(np.minimum(aids, death), end), "aids": (np.minimum(aids, death) <= end).astype(int),
                         "t_d": np.minimum(death, end), "died": (death <= end).astype(int)})


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_rare_death_takes_the_end_of_follow_up_not_another_events_time(seed):
    """ACTG 320 with death as the outcome: the time to AIDS or death, found as AIDS's time within
    follow-up, sorted the deaths a little better than the time to death did, and was proposed as
    death's follow-up time. A time found with another event is now taken only where no other passes."""
    table = actg_trial(seed=seed)
    assert found(table)["tte"] == ("aids", "t_d")
    assert time_of(table, "died").time == "t_d" and time_of(table, "aids").time == "tte"
    assert proposed_follow_up(table, "died", [1]).time == "t_d"
