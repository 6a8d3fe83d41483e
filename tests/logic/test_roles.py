"""Tests of psl_triage.data.roles: column roles from names, values and the outcome, one signal each."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from psl_triage.data import infer_column_types, load_table, prepare_training_data
from psl_triage.data.demo import load_demo
from psl_triage.data.roles import (
    HELD_OUT_SEPARATION,
    held_out_separation,
    name_tokens,
    propose_roles,
    roles_record,
    taken_out,
)

SHARED = Path("/work/shared/data")


def study(n: int = 400, seed: int = 0) -> pd.DataFrame:
    """A small study export: two real predictors, an outcome tied to them, nothing else."""
    rng = np.random.default_rng(seed)
    age = rng.integers(30, 90, n)
    nodes = rng.poisson(3, n)
    risk = 1 / (1 + np.exp(-(0.05 * (age - 60) + 0.3 * (nodes - 3))))
    return pd.DataFrame({"age": age, "nodes": nodes, "status": (rng.random(n) < risk).astype(int)})


def roles_of(df: pd.DataFrame, outcome: str = "status", positive=1) -> dict:
    return propose_roles(df, infer_column_types(df), outcome, [positive])


def test_real_predictors_are_question_candidates():
    roles = roles_of(study())
    assert {name: role.role for name, role in roles.items()} == {"age": "question", "nodes": "question"}
    assert roles["age"].evidence.startswith("Numbers from")


def test_name_tokens_split_words_not_substrings():
    assert name_tokens("rfsTime") == ["rfs", "time"]
    assert name_tokens("col_rec_tat") == ["col", "rec", "tat"]
    assert name_tokens("sample.yr") == ["sample", "yr"]


def test_a_shuffled_patient_number_named_pid_is_an_identifier():
    df = study()
    df.insert(0, "pid", np.random.default_rng(1).permutation(5000)[: len(df)] + 1)
    role = roles_of(df)["pid"]
    assert role.role == "identifier" and "'pid'" in role.evidence


def test_a_sequential_id_is_an_identifier_whatever_its_name():
    df = study()
    df.insert(0, "code", np.arange(len(df)) * 3 + 1000)  # rises with row order, not 1, 2, 3
    role = roles_of(df)["code"]
    assert role.role == "identifier" and "row order" in role.evidence


def test_follow_up_times_are_times_but_prothrombin_time_is_not():
    df = study()
    rng = np.random.default_rng(2)
    df["rfstime"] = rng.integers(10, 3000, len(df))
    df["protime"] = rng.normal(11, 1, len(df)).round(1)
    df["col_rec_tat"] = rng.gamma(2, 1, len(df)).round(1)
    roles = roles_of(df)
    assert roles["rfstime"].role == "time" and "'rfstime'" in roles["rfstime"].evidence
    assert roles["col_rec_tat"].role == "time"
    assert roles["protime"].role == "question"


def test_dates_written_as_text_and_calendar_years_are_dates():
    df = study()
    start = pd.Timestamp("2019-01-01")
    df["surgery"] = [(start + pd.Timedelta(days=int(d))).strftime("%d.%m.%Y") for d in range(len(df))]
    df["year"] = 1980 + np.arange(len(df)) % 15
    roles = roles_of(df)
    assert roles["surgery"].role == "time" and "Dates" in roles["surgery"].evidence
    assert roles["year"].role == "time" and "Calendar years" in roles["year"].evidence


def test_a_second_outcome_is_a_leak():
    df = study()
    df["death"] = np.where(df["status"] == 1, np.random.default_rng(3).random(len(df)) < 0.6, 0).astype(int)
    role = roles_of(df)["death"]
    assert role.role == "leak" and "'death'" in role.evidence


def test_a_second_binary_column_tied_to_the_outcome_is_a_leak_whatever_its_name():
    df = study()
    flip = np.random.default_rng(4).random(len(df)) < 0.05
    df["flag"] = np.where(flip, 1 - df["status"], df["status"])
    role = roles_of(df)["flag"]
    assert role.role == "leak" and "0/1" in role.evidence


def test_a_column_filled_only_for_the_positive_class_is_a_leak_not_imputed():
    df = study()
    causes = np.array(["circulatory", "neoplasm", "respiratory"])
    df["chapter"] = np.where(df["status"] == 1, causes[np.arange(len(df)) % 3], None)
    role = roles_of(df)["chapter"]
    assert role.role == "leak" and "Filled in only for" in role.evidence


def test_missingness_that_separates_the_outcome_is_a_leak():
    df = study()
    rng = np.random.default_rng(5)
    present = np.where(df["status"] == 1, rng.random(len(df)) < 0.97, rng.random(len(df)) < 0.05)
    df["biopsy_score"] = np.where(present, rng.integers(1, 6, len(df)), np.nan)
    role = roles_of(df)["biopsy_score"]
    assert role.role == "leak" and "filled in" in role.evidence


def test_a_mostly_empty_unrelated_column_stays_a_question_never_filled_in():
    df = study()
    rng = np.random.default_rng(6)
    df["ldh"] = np.where(rng.random(len(df)) < 0.6, np.nan, rng.normal(200, 30, len(df)))
    role = roles_of(df)["ldh"]
    assert role.role == "question" and "never filled in" in role.evidence and "empty" in role.evidence
    types = {**infer_column_types(df), "ldh": "numeric"}
    for handling in ("impute", "learn"):
        prepared = prepare_training_data(df, types, "status", 1, missing=handling)
        assert prepared.X["ldh"].isna().mean() > 0.5, handling  # never filled with one value
    assert not any("fill" in note for note in prepared.notes)  # "learn" fills nothing in
    imputed = prepare_training_data(df, types, "status", 1, missing="impute")
    assert any("Did not fill in 'ldh'" in note for note in imputed.notes)


def test_a_value_that_defines_the_outcome_is_a_leak_on_held_out_rows():
    df = study()
    rng = np.random.default_rng(7)
    df["ct_value"] = np.where(df["status"] == 1, rng.uniform(15, 40, len(df)), 45.0)
    role = roles_of(df)["ct_value"]
    assert role.role == "leak" and "held-out" in role.evidence


def test_person_names_are_identifiers_but_a_clinic_name_is_not():
    df = study(600)
    rng = np.random.default_rng(8)
    df["last_name"] = rng.choice(["stark", "lannister", "tully", "arryn", "tyrell"], len(df))
    df["clinic_name"] = rng.choice([f"ward {i}" for i in range(40)], len(df))  # more than 30: pooled
    roles = roles_of(df)
    assert roles["last_name"].role == "identifier"
    assert roles["clinic_name"].role == "question" and "repeat across rows" in roles["clinic_name"].evidence


def test_free_text_with_one_value_per_row_is_an_identifier():
    df = study()
    df["comment"] = [f"note {i} on visit" for i in range(len(df))]
    assert roles_of(df)["comment"].role == "identifier"


def test_without_an_outcome_only_names_and_values_count():
    df = study()
    df["ct_value"] = np.where(df["status"] == 1, 30.0, 45.0)
    roles = propose_roles(df, infer_column_types(df))
    assert roles["ct_value"].role == "question" and roles["status"].role == "question"


def test_record_keeps_proposals_and_the_users_choice():
    df = study()
    df["futime"] = np.arange(len(df)) % 97
    roles = roles_of(df)
    assert list(taken_out(roles)) == ["futime"]
    record = roles_record(roles, {"age": "numeric", "futime": "numeric"})
    assert record == {"futime": {"role": "time", "evidence": roles["futime"].evidence, "kept": True}}


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(40, 400),
    n_levels=st.integers(2, 6),
    positive_share=st.floats(0.1, 0.9),
)
def test_an_unrelated_column_with_a_few_repeated_levels_is_never_a_leak(seed, n, n_levels, positive_share):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < positive_share).astype(int)
    levels = rng.choice([f"level {i}" for i in range(n_levels)], n)
    df = pd.DataFrame({"group": levels, "codes": rng.integers(1, n_levels + 1, n), "status": y})
    roles = roles_of(df)
    assert roles["group"].role == "question", roles["group"].evidence  # not a leak, nor anything else
    assert roles["codes"].role == "question", roles["codes"].evidence


def test_held_out_separation_scores_the_half_it_did_not_learn_from():
    values = np.array([1.0] * 20 + [2.0] * 20 + [3.0] * 20 + [4.0] * 20)
    y = np.array([0] * 40 + [1] * 40)
    halves = np.arange(80) % 2
    accuracy, rule = held_out_separation(values, y, halves, numeric=True)
    assert accuracy == 1.0 and "2.5" in rule
    assert held_out_separation(values, 1 - y, halves, numeric=True)[0] >= HELD_OUT_SEPARATION


def test_the_demo_keeps_every_column_it_uses_today():
    df, meta = load_demo()
    types = infer_column_types(df, meta.columns)
    roles = propose_roles(df, types, meta.outcome, [meta.positive_class])
    assert [name for name, role in roles.items() if role.takes_out and types[name] != "ignore"] == []


@pytest.mark.parametrize(
    "file, outcome, positive",
    [("bcc_coimbra.csv", "Classification", "Yes"), ("ilpd.csv", "Label", 1), ("pima_train.csv", "type", "Yes"),
     ("pima_test.csv", "type", "Yes"), ("heart_cleveland.csv", "num", 1)],
)
def test_shared_tables_keep_every_column_they_use_today(file, outcome, positive):
    path = SHARED / file
    if not path.exists():
        pytest.skip(f"{path} is not on this machine")
    df = load_table(path.read_bytes(), file).frame
    types = infer_column_types(df)
    roles = propose_roles(df, types, outcome, [positive])
    assert [name for name, role in roles.items() if role.takes_out and types[name] != "ignore"] == []


@pytest.mark.parametrize("name", ["er_status", "smoking_status", "her2 status", "HPVstatus"])
def test_a_finding_named_status_is_not_a_second_outcome(name):
    df = study()
    df[name] = np.random.default_rng(9).integers(0, 2, len(df))
    assert roles_of(df)[name].role == "question"


@pytest.mark.parametrize("name, role", [("os_status", "leak"), ("vital_status", "leak"), ("event", "leak"),
                                        ("os_months", "time"), ("pfs.weeks", "time"), ("age_years", "question"),
                                        ("diag.time", "question"), ("symptom_duration", "question"),
                                        ("state", "question"), ("fever_days", "question"),
                                        ("diabetes_duration", "question"), ("fu_duration", "time"),
                                        ("cause_of_admission", "question"), ("cause_of_death", "leak")])
def test_survival_names_are_outcomes_or_times(name, role):
    df = study()
    df[name] = np.random.default_rng(10).integers(1, 90, len(df))
    assert roles_of(df)[name].role == role


def test_a_patient_id_repeated_over_many_tests_is_still_an_identifier_but_a_site_code_is_not():
    df = study(1200)
    rng = np.random.default_rng(13)
    df["subject_id"] = rng.integers(1, 200, len(df))  # 6 tests per patient
    df["site_id"] = rng.integers(1, 6, len(df))
    roles = roles_of(df)
    assert roles["subject_id"].role == "identifier" and roles["site_id"].role == "question"


def test_an_event_with_its_own_follow_up_time_is_a_second_outcome():
    # mgus2 (progression: pstat, ptime) and a transplant table (agvhd, time.to.agvhd): a 0/1
    # column whose name a follow-up time carries is an event after baseline, whatever its word.
    df = study()
    rng = np.random.default_rng(21)
    df["pstat"] = rng.integers(0, 2, len(df))
    df["ptime"] = rng.integers(1, 400, len(df))
    df["agvhd"] = rng.integers(0, 2, len(df))
    df["time.to.agvhd"] = rng.uniform(1, 60, len(df)).round(2)
    df["prior.transplant"] = rng.integers(0, 2, len(df))  # no time of its own: a finding
    roles = roles_of(df)
    assert roles["pstat"].role == "leak" and "'ptime'" in roles["pstat"].evidence
    assert roles["ptime"].role == "time" and "'pstat'" in roles["ptime"].evidence
    assert roles["agvhd"].role == "leak" and "'time.to.agvhd'" in roles["agvhd"].evidence
    assert roles["prior.transplant"].role == "question"


def test_a_status_column_of_care_settings_is_a_finding_not_an_outcome():
    # indo_rct: "status" holds 1_outpatient / 2_inpatient while "outcome" is the outcome.
    df = study().rename(columns={"status": "outcome"})
    df["status"] = np.random.default_rng(22).choice(["1_outpatient", "2_inpatient"], len(df))
    df["vital"] = np.random.default_rng(23).choice(["alive", "dead"], len(df))
    roles = roles_of(df, outcome="outcome")
    assert roles["status"].role == "question"
    assert roles["vital"].role == "leak"


def test_counting_process_times_and_a_diagnosis_year_are_times():
    # cgd: tstart/tstop of each interval at risk; mgus2: dxyr, the year of diagnosis.
    df = study()
    rng = np.random.default_rng(24)
    df["tstart"] = rng.integers(0, 300, len(df))
    df["tstop"] = df["tstart"] + rng.integers(1, 100, len(df))
    df["dxyr"] = rng.integers(1960, 1995, len(df))
    roles = roles_of(df)
    assert {name: roles[name].role for name in ("tstart", "tstop", "dxyr")} == dict.fromkeys(("tstart", "tstop", "dxyr"), "time")


def phased_export(n: int = 300, seed: int = 11) -> pd.DataFrame:
    """A trial export recorded in time points: before surgery, in the recovery room at 30 and
    90 minutes, the next morning; each time point's columns together, in that order."""
    rng = np.random.default_rng(seed)
    pain = (rng.random(n) < 0.35).astype(int)

    def noisy(flip: float) -> np.ndarray:
        return np.where(rng.random(n) < flip, 1 - pain, pain)

    return pd.DataFrame({
        "preOp_age": rng.integers(20, 80, n),
        "preOp_bmi": rng.normal(27, 4, n).round(1),
        "preOp_smoking": rng.integers(0, 2, n),
        "treat": rng.integers(0, 2, n),
        "pacu30min_cough": noisy(0.3),
        "pacu30min_throatPain": pain,
        "pacu90min_cough": noisy(0.35),
        "pacu90min_throatPain": noisy(0.2),
        "pod1am_throatPain": noisy(0.3),
        "pod1am_cough": noisy(0.4),
    })


def test_columns_of_the_outcomes_time_point_or_later_are_leaks():
    df = phased_export()
    roles = roles_of(df, outcome="pacu30min_throatPain")
    later = ["pacu30min_cough", "pacu90min_cough", "pacu90min_throatPain", "pod1am_throatPain", "pod1am_cough"]
    assert all(roles[name].role == "leak" for name in later), {name: roles[name] for name in later}
    assert "own time point" in roles["pacu30min_cough"].evidence
    assert "'pod1am' comes after 'pacu30min'" in roles["pod1am_cough"].evidence
    assert all(roles[name].role == "question" for name in ("preOp_age", "preOp_bmi", "preOp_smoking", "treat"))
    # An outcome of the last time point leaves every earlier one in; without time points, nothing changes.
    assert roles_of(df, outcome="pod1am_cough")["pacu90min_cough"].role == "question"
    plain = df.rename(columns=lambda name: name.replace("_", ""))
    assert roles_of(plain, outcome="pacu30minthroatPain")["pacu90mincough"].role == "question"


def test_a_rate_per_day_is_a_finding_but_a_day_count_is_a_time():
    rng = np.random.default_rng(3)
    df = study()
    df["BL.Cig.Day"] = rng.choice([np.nan, 5, 10, 20, 2, 1, 15], len(df))
    df["drinks_per_day"] = rng.integers(0, 40, len(df))  # many values, but a rate by its name
    df["day"] = rng.integers(0, 2000, len(df))
    df["los_days"] = rng.integers(1, 60, len(df))
    roles = roles_of(df)
    assert roles["BL.Cig.Day"].role == "question" and roles["drinks_per_day"].role == "question"
    assert roles["day"].role == "time" and "different values" in roles["day"].evidence
    assert roles["los_days"].role == "time"
