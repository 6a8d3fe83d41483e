"""The specification of a list for the hospital's systems, built from the bedside itself.

:func:`specification` reads a model file and the Triage page's settings and writes down what the
bedside does with them: the questions (:func:`psl_triage.bedside.questions.build_questions`), every stage's
risks, intervals, outcomes and stop statistics (:class:`psl_core.decision.StageBands`, the tables
:func:`psl_core.decision.triage_step` looks up), and test cases whose expected results are what a
:class:`~psl_triage.bedside.session.TriageSession` answers for them: no rule is written twice. The
format, its checksum and the scorers are in :mod:`psl_triage.model_file.export`.

Test cases: every path of answers a clinician can give up to where the list stops, with one answer
per region of each numeric column (below, at and between its cut-offs: a value at a cut-off checks
that ``>`` is strict), every choice of a yes/no or category question, "unknown" and, where the
list learned where a missing value goes, "not measured". When there are more than ``max_cases``
paths, random paths (seeded) are drawn and a sample is taken from them in turn from each stratum of
(stop stage, outcome, stop reason), so that rare stops are kept.
"""

import hashlib
import json
import random
from datetime import UTC, datetime

import numpy as np

from psl_core.binarization import NUMERIC
from psl_core.decision import NOT_MEASURED
from psl_core.model import ProbabilisticScoringList
from psl_core.stopping import MIN_ROWS
from psl_triage.bedside.questions import Question
from psl_triage.bedside.session import TriageSession, TriageSettings, recommended_length
from psl_triage.model_file.export import FORMAT, FORMAT_VERSION, sealed, verify
from psl_triage.model_file.export.fhir import Answer, risk_assessment
from psl_triage.model_file.metadata import ModelMetadata, list_horizon
from psl_triage.words import export as words
from psl_triage.words.decision import interval_sentence, outcome_text, stop_sentence

MAX_CASES = 300
"""Test cases written at most; a list with more paths of answers gets a stratified sample."""
DRAWS_PER_CASE = 2
"""Random paths drawn per test case kept when sampling."""


def model_sha256(model_file):
    """SHA-256 (hex) of a model file's bytes (text is taken as UTF-8)."""
    return hashlib.sha256(model_file.encode() if isinstance(model_file, str) else bytes(model_file)).hexdigest()


def default_settings(model, metadata):
    """The Triage page's defaults for a list: its saved M, its recommended length."""
    return TriageSettings(cost_ratio=metadata.cost_ratio, length=recommended_length(model))


def specification(model_file, settings=None, max_cases=MAX_CASES, seed=0):
    """The specification of the list in ``model_file`` with the bedside ``settings`` (a dict).

    Parameters
    ----------
    model_file : bytes or str
        The model file, as saved (its SHA-256 goes into the specification).
    settings : TriageSettings or None
        M, confidence, basis, tolerance, value of a changed outcome and length; None: the list's
        saved M and recommended length (:func:`default_settings`).
    max_cases : int
        Most test cases; beyond, a stratified sample (``seed`` draws it).

    Raises
    ------
    ModelFileError
        When ``model_file`` is not a valid model file.
    """
    text = model_file.decode("utf-8") if isinstance(model_file, bytes) else str(model_file)
    model = ProbabilisticScoringList.from_json(text)
    metadata = ModelMetadata.of(model)
    settings = settings or default_settings(model, metadata)
    session = TriageSession(model, metadata, str(metadata.name or ""), str(metadata.version or ""), settings)
    questions = session.questions
    positive, negative = metadata.class_names
    cases, complete = build_test_cases(session, max_cases, seed)
    spec = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "list": {"name": session.name, "version": session.version, "model_sha256": model_sha256(model_file),
                 "positive_class": positive, "negative_class": negative, "horizon": _horizon(model, metadata)},
        "settings": {"cost_ratio": float(settings.cost_ratio), "threshold": float(session.threshold),
                     "confidence": float(settings.confidence), "basis": settings.basis,
                     "tolerance": float(settings.tolerance), "change_value": _float_or_none(settings.change_value),
                     "length": len(questions)},
        "answers": dict(words.ANSWER_ENCODING),
        "questions": [_question(q, metadata.readable_columns().get(q.column) or {}) for q in questions],
        "stages": _stages(session),
        "decision": dict(words.DECISION_RULE),
        "stop_rule": {"statistics": session.has_statistics, "min_rows": MIN_ROWS, "in_words": words.STOP_RULE},
        "test_cases": cases,
        "test_cases_complete": complete,
    }
    return verify(sealed(spec))


def _float_or_none(value):
    return None if value is None else float(value)


def _horizon(model, metadata):
    horizon = list_horizon(model, metadata)
    return None if horizon is None else horizon.record()


def _condition(literal):
    if literal.kind == "category":
        values = [literal.category] if literal.categories is None else list(literal.categories)
        return {"op": "not in" if literal.negated else "in", "values": [str(v) for v in values]}
    if literal.kind == NUMERIC and literal.asks_missing:
        # Only whether the value was measured: any measured value answers alike (the literal says how).
        return {"op": "any value", "holds": bool(literal.evaluate(np.array([0.0]))[0])}
    threshold = 0.5 if literal.kind != NUMERIC else float(literal.threshold)
    return {"op": "<=" if literal.negated else ">", "threshold": threshold}


def _question(question: Question, info):
    not_measured = question.literal.not_measured
    levels = info.get("levels")
    return {
        "stage": question.stage, "column": question.column, "kind": question.kind, "label": question.label,
        "unit": question.unit, "points": question.points, "condition": _condition(question.literal),
        "not_measured": None if not_measured is None else bool(not_measured),
        "levels": [str(level) for level in levels] if levels else None, "in_words": question.rule,
    }


def _stages(session):
    """Every stage's totals with their risk, interval, outcome, settled outcome and stop statistics."""
    bands, threshold, last = session.bands, session.threshold, len(session.questions)
    later = bands.later_outcomes(last, threshold)
    stages = []
    for k in range(last + 1):
        totals, lower, point, upper = bands.bands[k]
        low, high = later[k]
        stages.append({
            "stage": k, "totals": [int(t) for t in totals], "risk": [float(p) for p in point],
            "lower": [float(v) for v in lower], "upper": [float(v) for v in upper],
            "outcome": [int(c) for c in bands.outcomes(k, totals, threshold)],
            "settled": [int(a) if k < last and a == b else None for a, b in zip(low, high)],
            "change": _change(bands, k, last, threshold, totals),
            "next_cost": float(bands.costs[k]) if bands.costs is not None and k < last else None,
        })
    return stages


def _change(bands, stage, last, threshold, totals):
    """The stop statistics of one stage per reachable total (None without a reference stage)."""
    reference = None if bands.changes is None else bands.changes.reference_for(stage, last)
    if reference is None:
        return None
    distinct, n, changed, pooled_n, pooled_changed = bands.changes.shares(
        stage, reference, lambda t: bands.outcomes(stage, t, threshold), lambda t: bands.outcomes(reference, t, threshold),
    )
    place = {int(t): i for i, t in enumerate(distinct)}
    at = [place.get(int(t)) for t in totals]
    return {
        "reference": int(reference),
        "patients": [0 if i is None else int(n[i]) for i in at],
        "changed": [[0 if i is None else int(row[i]) for i in at] for row in changed],
        "pooled_patients": [int(v) for v in pooled_n],
        "pooled_changed": [int(v) for v in pooled_changed],
    }


# ------------------------------------------------------------------------------ test cases

def answer_values(questions):
    """The raw answers tried per column: one per region of a numeric column's cut-offs and each
    cut-off itself, every choice of a yes/no or category question, and the bedside's extra
    answers (unknown; not measured where the list learned a direction)."""
    values = {}
    for question in questions:
        if question.column in values:
            continue
        if question.kind == NUMERIC:
            cuts = sorted({float(q.literal.threshold) for q in questions if q.column == question.column
                           and q.literal.threshold is not None and not q.literal.asks_missing})
            found = [cuts[0] - 1.0] if cuts else [0.0]
            for cut, following in zip(cuts, [*cuts[1:], None]):
                found += [cut, (cut + following) / 2 if following is not None else cut + 1.0]
        else:
            found = [raw for raw, _ in question.options]
        values[question.column] = found + [raw for raw, _ in question.extra_answers]
    return values


def json_answer(raw):
    """A bedside raw answer as the specification writes it."""
    if isinstance(raw, str) and raw == NOT_MEASURED:
        return {"not_measured": True}
    return raw if raw is None or isinstance(raw, str) else float(raw)


def expected_result(step):
    """A test case's expected result from the bedside's step where it stopped."""
    return {
        "stop": step.stage, "stop_reason": step.stop_reason, "totals": [int(t) for t in step.totals],
        "risk_low": step.probability_low, "risk_high": step.probability_high, "lower": step.lower,
        "upper": step.upper, "outcome": step.outcome, "action": step.action,
    }


def _case(session):
    """The test case of a session that has stopped: the answers asked, by column, and its result."""
    return {"answers": {column: json_answer(raw) for column, raw in session.answers.items()},
            "expected": expected_result(session.current)}


def _all_cases(session, values, max_cases):
    """The case of every path of answers up to a stop; None when there are more than ``max_cases``.

    Walks the tree of answers depth first on one session, taking each answer back
    (:meth:`~psl_triage.bedside.session.TriageSession.undo`) once its subtree is done."""
    cases = []
    session.restart()

    def walk():
        question = session.next_question
        if question is None:
            cases.append(_case(session))
            return len(cases) <= max_cases
        for raw in values[question.column]:
            session.answer(raw, question)
            going_on = walk()
            session.undo()
            if not going_on:
                return False
        return True

    return cases if walk() else None


def _sampled_cases(session, values, max_cases, seed):
    """Random paths, then in turn one from each stratum (stop, outcome, reason) up to ``max_cases``."""
    rng, strata = random.Random(seed), {}
    for _ in range(DRAWS_PER_CASE * max_cases):
        session.restart()
        while (question := session.next_question) is not None:
            session.answer(rng.choice(values[question.column]), question)
        case = _case(session)
        expected = case["expected"]
        stratum = strata.setdefault((expected["stop"], expected["outcome"], expected["stop_reason"]), {})
        stratum.setdefault(json.dumps(case["answers"]), case)
    pools = [list(found.values()) for _, found in sorted(strata.items(), key=lambda item: repr(item[0]))]
    chosen = []
    while len(chosen) < max_cases and any(pools):
        for pool in pools:
            if pool and len(chosen) < max_cases:
                chosen.append(pool.pop(0))
    return chosen


def build_test_cases(session, max_cases=MAX_CASES, seed=0):
    """(test cases, whether they are every path) of a session's list and settings."""
    values = answer_values(session.questions)
    cases = _all_cases(session, values, max_cases)
    complete = cases is not None
    if not complete:
        cases = _sampled_cases(session, values, max_cases, seed)
    session.restart()
    return cases, complete


# ------------------------------------------------------------------------------ FHIR

def risk_assessment_of(session, model_file, occurred=None):
    """The FHIR R4 RiskAssessment (JSON-ready dict) of the patient triaged in ``session``."""
    final, s = session.current, session.settings
    answers = []
    for question, raw, said in zip(session.questions, session.raw_answers, session.recorded_answers()):
        not_measured = isinstance(raw, str) and raw == NOT_MEASURED
        answers.append(Answer(
            question=question.record_line, text=said or words.UNKNOWN_ANSWER,
            number=float(raw) if question.kind == NUMERIC and raw is not None and not not_measured else None,
            unit=question.unit, unknown=raw is None, not_measured=not_measured,
        ))
    explanation = " ".join(part for part in (stop_sentence(final, s.tolerance, s.change_value, session.cost_unit),
                                             interval_sentence(final, s.confidence)) if part)
    result = {"risk_low": final.probability_low, "risk_high": final.probability_high, "lower": final.lower,
              "upper": final.upper, "outcome": outcome_text(final, s.basis), "explanation": explanation,
              "stop": final.stage}
    identity = {"name": session.name, "version": session.version, "model_sha256": model_sha256(model_file)}
    occurred = occurred or datetime.now(UTC).isoformat(timespec="seconds")
    return risk_assessment(identity, answers, result, words.fhir_settings(s.cost_ratio, s.confidence, s.basis),
                           occurred, session.class_labels[0], list_horizon(session.model, session.metadata))
