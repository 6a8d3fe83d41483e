"""Export for the hospital's systems (issue 42, item 2): the specification, its scorers and FHIR.

Every list of the corpus (:mod:`tests.export_lists`) gives a valid specification whose test cases
the Python scorer (a fresh interpreter), the SQL scorer (SQLite; PostgreSQL's own parser) and, in
tests/browser/test_export_scorer.py, the JavaScript scorer (Chromium) reproduce exactly, and they
agree with the bedside on Hypothesis patients. A changed point changes the checksum and fails the
test cases.
"""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
import subprocess
import sys

import pandas as pd
import pglast
import pytest
from fhir.resources.riskassessment import RiskAssessment
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from psl_core.decision import NOT_MEASURED, STOP_REASONS
from psl_core.model import ProbabilisticScoringList
from psl_triage.bedside.export import risk_assessment_of, specification
from psl_triage.bedside.session import TriageSession
from psl_triage.model_file.export import (
    SpecificationError,
    javascript_scorer,
    python_scorer,
    sealed,
    sql_scorer,
    verify,
)
from psl_triage.model_file.export import scorer_template as template
from psl_triage.model_file.export.sql import exact_number
from psl_triage.model_file.metadata import ModelMetadata
from tests.export_checks import bedside_on_random_patients, expected, exported_corpus, run_python, run_sqlite
from tests.export_lists import export_corpus

LISTS = list(export_corpus())


@pytest.fixture(scope="module")
def exported():
    """Name -> (specification, a TriageSession of the same list and settings)."""
    return exported_corpus()


def test_every_list_gives_a_valid_specification_of_its_model_file(exported):
    for name, (spec, session) in exported.items():
        assert verify(spec) is spec
        text = export_corpus()[name][0]
        assert spec["list"]["model_sha256"] == hashlib.sha256(text.encode()).hexdigest()
        assert len(spec["questions"]) == len(session.questions) and len(spec["stages"]) == len(spec["questions"]) + 1
        assert spec["settings"]["threshold"] == session.threshold
    reasons = {case["expected"]["stop_reason"] for spec, _ in exported.values() for case in spec["test_cases"]}
    assert reasons == set(STOP_REASONS)  # the corpus stops for every reason at least once
    assert exported["yes/no"][0]["test_cases_complete"] is False  # 22 questions: a stratified sample
    assert {q["kind"] for spec, _ in exported.values() for q in spec["questions"]} == {"numeric", "binary", "category"}


def test_the_test_cases_are_what_the_bedside_says(exported):
    for spec, session in exported.values():
        for case in spec["test_cases"]:
            assert expected(session, case["answers"]) == case["expected"]


def test_a_numeric_answer_at_a_cut_off_is_a_test_case_and_does_not_hold():
    spec = specification(*export_corpus()["missing directions"])
    age = next(q for q in spec["questions"] if q["column"] == "age")
    at_cut = [c for c in spec["test_cases"] if c["answers"].get("age") == age["condition"]["threshold"]]
    assert at_cut and all(template.holds(age, c["answers"]["age"]) is (age["condition"]["op"] == "<=") for c in at_cut)


@pytest.mark.parametrize("name", LISTS)
def test_the_python_scorer_reproduces_every_test_case(exported, name, tmp_path):
    spec, _ = exported[name]
    patients = [case["answers"] for case in spec["test_cases"]]
    assert run_python(spec, patients, tmp_path) == [case["expected"] for case in spec["test_cases"]]


@pytest.mark.parametrize("name", LISTS)
def test_the_sql_scorer_reproduces_every_test_case_in_sqlite(exported, name):
    spec, _ = exported[name]
    patients = [case["answers"] for case in spec["test_cases"]]
    assert run_sqlite(spec, patients) == [case["expected"] for case in spec["test_cases"]]


@pytest.mark.parametrize("name", LISTS)
def test_the_sql_scorer_is_postgresql_as_its_parser_reads_it(exported, name):
    statements = pglast.parse_sql(sql_scorer(exported[name][0]))
    assert len(statements) == 1 and type(statements[0].stmt).__name__ == "SelectStmt"


@pytest.mark.slow
@pytest.mark.parametrize("name", LISTS)
@settings(max_examples=8, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_the_scorers_agree_with_the_bedside_on_random_patients(exported, name, data, tmp_path):
    spec, patients, bedside = bedside_on_random_patients(data, exported[name])
    assert run_sqlite(spec, patients) == bedside
    assert run_python(spec, patients, tmp_path) == bedside


def _reached_yes(spec):
    """Stages whose condition holds (or is unknown) before the stop of some test case."""
    reached = set()
    for case in spec["test_cases"]:
        for question in spec["questions"][: case["expected"]["stop"]]:
            if template.holds(question, case["answers"].get(question["column"])) is not False:
                reached.add(question["stage"])
    return sorted(reached)


@pytest.mark.slow
@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_changed_point_changes_the_checksum_and_fails_the_scorers_test_cases(exported, data):
    name = data.draw(st.sampled_from([n for n in LISTS if _reached_yes(exported[n][0])]))
    spec, _ = exported[name]
    stage = data.draw(st.sampled_from(_reached_yes(spec)))
    change = data.draw(st.integers(-3, 3).filter(bool))
    forged = json.loads(json.dumps(spec))
    forged["questions"][stage - 1]["points"] += change
    with pytest.raises(SpecificationError, match="checksum does not match"):
        verify(forged)
    forged = sealed(forged)  # re-sealed, as someone who edits a point and its checksum would
    assert forged["checksum"] != spec["checksum"]
    assert template.check(forged)
    patients = [case["answers"] for case in forged["test_cases"]]
    assert run_sqlite(forged, patients) != [case["expected"] for case in forged["test_cases"]]


def test_a_specification_that_is_not_one_is_refused_with_what_to_do(exported):
    spec, _ = exported["costs"]
    with pytest.raises(SpecificationError, match="Export the specification again"):
        verify([spec])
    with pytest.raises(SpecificationError, match="not a specification this version reads"):
        verify({**spec, "format_version": 2})
    broken = sealed({**spec, "settings": {**spec["settings"], "basis": "lower"}})
    with pytest.raises(SpecificationError, match="not valid at settings/basis"):
        verify(broken)
    with pytest.raises(SpecificationError, match="checksum"):
        javascript_scorer({**spec, "settings": {**spec["settings"], "tolerance": 0.5}})


@given(st.one_of(st.floats(0, 1), st.floats(-1e9, 1e9), st.floats(1e-300, 1e-200)))
def test_every_number_reaches_sql_exactly(value):
    assert sqlite3.connect(":memory:").execute(f"SELECT {exact_number(value)}").fetchone()[0] == value


def test_exact_number_refuses_what_json_cannot_hold():
    with pytest.raises(ValueError, match="finite"):
        exact_number(math.inf)


def test_the_risk_assessment_of_a_triage_is_valid_fhir_r4():
    text, chosen = export_corpus()["missing directions"]
    model = ProbabilisticScoringList.from_json(text)
    session = TriageSession(model, ModelMetadata.of(model), "Lab list", "3", chosen)
    session.answer(NOT_MEASURED)
    session.answer(None)
    resource = risk_assessment_of(session, text.encode(), occurred="2026-11-29T04:00:00+00:00")
    parsed = RiskAssessment.parse_obj(resource)
    final = session.current
    assert parsed.method.coding[0].code == hashlib.sha256(text.encode()).hexdigest()
    assert parsed.method.coding[0].version == "3" and "Lab list" in parsed.method.text
    assert [b.reference for b in parsed.basis] == ["#answer-1", "#answer-2"]
    absent = [o["dataAbsentReason"]["coding"][0]["code"] for o in resource["contained"]]
    assert absent == ["not-performed", "unknown"]
    prediction = resource["prediction"][0]
    interval = prediction["extension"][0]["valueRange"]
    assert (interval["low"]["value"], interval["high"]["value"]) == (final.lower, final.upper)
    estimate = prediction.get("probabilityDecimal", prediction.get("probabilityRange"))
    assert estimate in (final.probability_high, {"low": {"value": final.probability_low},
                                                 "high": {"value": final.probability_high}})


def test_a_number_answer_is_a_quantity_with_its_unit():
    text, _ = export_corpus()["costs"]
    model = ProbabilisticScoringList.from_json(text)
    session = TriageSession(model, ModelMetadata.of(model), "Chest pain", "1")
    while (question := session.next_question) is not None:
        session.answer(152.0 if question.kind == "numeric" else question.options[0][0])
    resource = risk_assessment_of(session, text)
    quantities = [o["valueQuantity"] for o in resource["contained"] if "valueQuantity" in o]
    assert quantities and all(q == {"value": 152.0, "unit": "bpm"} for q in quantities)
    RiskAssessment.parse_obj(resource)


def test_the_python_scorer_checks_itself_and_says_so(exported, tmp_path):
    spec, _ = exported["hostile names"]
    forged = json.loads(json.dumps(spec))
    forged["questions"][0]["points"] += 1
    results = {}
    for name, checked in (("spec", spec), ("forged", sealed(forged))):
        path = tmp_path / f"{name}.py"
        path.write_text(python_scorer(checked), encoding="utf-8")
        results[name] = subprocess.run([sys.executable, "-I", str(path), "--check"], capture_output=True, text=True,
                                       timeout=60)
    n = len(spec["test_cases"])
    assert (results["spec"].returncode, results["spec"].stdout.strip()) == (0, f"{n} passed, 0 failed")
    assert results["forged"].returncode == 1 and not results["forged"].stdout.startswith(f"{n} passed")


def test_a_horizon_lists_risk_assessment_says_within_what_time(exported):
    text, chosen = export_corpus()["horizon"]
    model = ProbabilisticScoringList.from_json(text)
    session = TriageSession(model, ModelMetadata.of(model), "Recurrence", "2", chosen)
    assert exported["horizon"][0]["list"]["horizon"] == {"horizon": 1000.0, "unit": "days", "time": "rfstime"}
    session.answer(None)
    parsed = RiskAssessment.parse_obj(resource := risk_assessment_of(session, text))
    assert resource["prediction"][0]["whenRange"]["high"] == {"value": 1000.0, "unit": "days"}
    assert parsed.prediction[0].whenRange.high.value == 1000


@pytest.mark.parametrize("name", ["costs", "hostile names", "without stop statistics"])
def test_known_answers_reproduce_psl_cores_own_predictions(exported, name):
    """Independently of the bedside's tables: where every answer up to the stop is known, the
    expected total, risk and interval are psl_core's ``total_scores`` and ``predict_interval``."""
    spec, session = exported[name]
    model = session.model
    checked = 0
    for case in spec["test_cases"]:
        answers, stop = case["answers"], case["expected"]["stop"]
        if any(a is None or isinstance(a, dict) for a in answers.values()):
            continue
        row = {column: answers.get(column, 0.0 if kind != "category" else "__unasked__")
               for column, kind in _column_kinds(spec, model).items()}
        X = pd.DataFrame([row])[list(model.feature_names_in_)]
        assert case["expected"]["totals"] == [int(model.total_scores(X, stop)[0])]
        lower, risk, upper = model.predict_interval(X, stop, spec["settings"]["confidence"])[0]
        assert (case["expected"]["lower"], case["expected"]["risk_low"], case["expected"]["upper"]) == (lower, risk, upper)
        checked += 1
    assert checked >= 3  # cases with every answer known (15 cases of the 4-question list: 3)


def _column_kinds(spec, model):
    asked = {q["column"]: q["kind"] for q in spec["questions"]}
    return {column: asked.get(column, "numeric") for column in model.feature_names_in_}
