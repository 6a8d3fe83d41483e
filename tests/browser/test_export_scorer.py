"""The JavaScript scorer of every list of the export corpus, run in Chromium (issue 42, item 2).

The generated script (no dependencies) is loaded into a blank page; it must reproduce every test
case of its specification and agree with the bedside on Hypothesis patients. A changed point,
re-sealed, makes it fail its test cases.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from psl_triage.model_file.export import javascript_scorer, sealed
from tests.export_checks import bedside_on_random_patients, exported_corpus
from tests.export_lists import export_corpus

LISTS = list(export_corpus())


@pytest.fixture(scope="module")
def exported():
    """Name -> (specification, a TriageSession of the same list and settings)."""
    return exported_corpus()


@pytest.fixture(scope="module")
def blank(browser):
    page = browser.new_page()
    page.set_content("<!doctype html><title>scorer</title>")
    yield page
    page.close()


def _load(page, spec):
    page.evaluate("() => { delete globalThis.PSLScorer; }")
    page.add_script_tag(content=javascript_scorer(spec))


def _failed_cases(page, spec):
    _load(page, spec)
    return page.evaluate("text => PSLScorer.checkTestCases(JSON.parse(text)).length", json.dumps(spec["test_cases"]))


def _scored(page, spec, patients):
    _load(page, spec)
    return json.loads(page.evaluate("text => JSON.stringify(JSON.parse(text).map(p => PSLScorer.scorePatient(p)))",
                                    json.dumps(patients)))


@pytest.mark.parametrize("name", LISTS)
def test_the_javascript_scorer_reproduces_every_test_case_in_chromium(blank, exported, name):
    spec, _ = exported[name]
    assert _failed_cases(blank, spec) == 0
    patients = [case["answers"] for case in spec["test_cases"]]
    assert _scored(blank, spec, patients) == [case["expected"] for case in spec["test_cases"]]


@pytest.mark.parametrize("name", LISTS)
@settings(max_examples=5, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_the_javascript_scorer_agrees_with_the_bedside_on_random_patients(blank, exported, name, data):
    spec, patients, bedside = bedside_on_random_patients(data, exported[name])
    assert _scored(blank, spec, patients) == bedside


def test_a_changed_point_fails_the_javascript_scorers_test_cases(blank, exported):
    spec, _ = exported["costs"]
    forged = json.loads(json.dumps(spec))
    forged["questions"][0]["points"] += 1
    assert _failed_cases(blank, spec) == 0
    assert _failed_cases(blank, sealed(forged)) > 0
