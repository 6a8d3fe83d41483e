"""Running the generated scorers on patients, shared by the export's logic and browser tests.

A patient is a dict of answers by column as the specification writes them (a number, a text,
None for unknown, ``{"not_measured": True}``); a column left out is unknown.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

from hypothesis import strategies as st

from psl_core.decision import NOT_MEASURED
from psl_core.model import ProbabilisticScoringList
from psl_triage.bedside.export import (
    answer_values,
    default_settings,
    expected_result,
    json_answer,
    specification,
)
from psl_triage.bedside.session import TriageSession
from psl_triage.model_file.export import python_scorer, sql_scorer
from psl_triage.model_file.metadata import ModelMetadata
from tests.export_lists import export_corpus

ANSWERS_TABLE = ("CREATE TABLE psl_answers(patient_id INTEGER, item TEXT, number_value DOUBLE PRECISION, "
                 "text_value TEXT, not_measured INTEGER)")


def raw_answer(answer):
    """A specification's answer as the bedside's raw answer."""
    return NOT_MEASURED if isinstance(answer, dict) else answer


def expected(session, patient):
    """What the bedside (a TriageSession of the list and settings) says for one patient: its
    result where it stops, answering the questions it asks from ``patient``."""
    answers = {column: raw_answer(answer) for column, answer in patient.items()}
    session.restart()
    while (question := session.next_question) is not None:
        session.answer(answers.get(question.column), question)
    return expected_result(session.current)


def answer_rows(patients):
    """The psl_answers rows of the patients (one row with no item per patient, so that a patient
    with no answer at all is scored too)."""
    rows = []
    for i, patient in enumerate(patients):
        rows.append((i, None, None, None, 0))
        for column, answer in patient.items():
            if isinstance(answer, dict):
                rows.append((i, column, None, None, 1))
            elif isinstance(answer, str):
                rows.append((i, column, None, answer, 0))
            else:
                rows.append((i, column, answer, None, 0))
    return rows


def sql_row_result(row):
    """A result row of the SQL query as the specification's expected result."""
    _, stop, reason, totals, risk_low, risk_high, lower, upper, outcome, action = row
    return {"stop": stop, "stop_reason": reason, "totals": [int(t) for t in totals.split(",") if t], "risk_low": risk_low,
            "risk_high": risk_high, "lower": lower, "upper": upper, "outcome": outcome, "action": action}


def run_sqlite(spec, patients, query=None):
    """The SQL scorer's results in SQLite, one per patient (None for a patient the query left out)."""
    connection = sqlite3.connect(":memory:")
    connection.execute(ANSWERS_TABLE)
    connection.executemany("INSERT INTO psl_answers VALUES (?, ?, ?, ?, ?)", answer_rows(patients))
    found = {row[0]: sql_row_result(row) for row in connection.execute(query or sql_scorer(spec))}
    return [found.get(i) for i in range(len(patients))]


def run_python(spec, patients, tmp_path, scorer=None):
    """The Python scorer's results, run by a fresh interpreter in isolated mode."""
    path = tmp_path / "scorer.py"
    path.write_text(scorer or python_scorer(spec), encoding="utf-8")
    done = subprocess.run([sys.executable, "-I", str(path)], input=json.dumps(patients), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def patients_strategy(session, size=12):
    """Hypothesis patients of a session's list: per column one of the answers the test cases use,
    any number for a numeric column, or the column left out."""
    columns = {}
    for column, values in answer_values(session.questions).items():
        kind = next(q.kind for q in session.questions if q.column == column)
        choices = st.sampled_from([json_answer(raw) for raw in values])
        if kind == "numeric":
            choices = st.one_of(choices, st.floats(-1e6, 1e6, allow_nan=False), st.integers(-300, 300).map(float))
        columns[column] = choices
    patient = st.fixed_dictionaries({}, optional=columns)
    return st.lists(patient, min_size=1, max_size=size)



def bedside_on_random_patients(data, exported):
    """(specification, patients, what the bedside says for each): Hypothesis patients drawn for one
    list of :func:`exported_corpus` (``exported``: its (specification, session))."""
    spec, session = exported
    patients = data.draw(patients_strategy(session))
    return spec, patients, [expected(session, patient) for patient in patients]

def exported_corpus():
    """Name -> (specification, a TriageSession of the same list and settings), afresh for each
    test module: the sessions are answered in the tests."""
    found = {}
    for name, (text, chosen) in export_corpus().items():
        model = ProbabilisticScoringList.from_json(text)
        metadata = ModelMetadata.of(model)
        session = TriageSession(model, metadata, settings=chosen or default_settings(model, metadata))
        found[name] = (specification(text, chosen), session)
    return found
