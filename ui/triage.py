"""The Triage page's larger parts (Streamlit): the question asked now with its answer widget, and
the record for the notes with its downloads.

Kept out of ``pages/`` because Streamlit turns every file there into a page. The state is the
page's :class:`psl_triage.bedside.session.TriageSession`; every sentence is
:mod:`psl_triage.words.triage`'s.
"""

from __future__ import annotations

import streamlit as st

from psl_core.binarization import NUMERIC
from psl_triage.bedside.record import record_json
from psl_triage.bedside.session import TriageSession
from psl_triage.words import triage as words
from psl_triage.words.record import record_text
from ui.export import risk_assessment_download

BUTTONS_MAX_OPTIONS = 7  # answers as large buttons; beyond this a drop-down list is easier to scan
DOWNLOAD = {"on_click": "ignore", "width": "stretch", "icon": ":material/download:"}  # the record's buttons
ss = st.session_state


def extra_key(widget_key: str, raw) -> str:
    """The key of a number question's box for "unknown" (raw None) or "not recorded"."""
    return f"{widget_key}_{'unknown' if raw is None else 'not_measured'}"


def answer_key(session: TriageSession) -> str:
    """The key of the answer widget of the question asked now."""
    return f"triage_q{session.stage}"


def take_back(session: TriageSession) -> None:
    """Callback of "Change the last answer": its question is asked again, its widget holding
    the answer taken back as the starting value (a widget not shown forgets its own)."""
    question, raw = session.undo()
    key = answer_key(session)
    value, ticked = session.widget_value(question, raw)
    ss[key] = value
    for extra, _ in question.extra_answers if question.kind == NUMERIC else ():
        ss[extra_key(key, extra)] = extra in ticked


def submit(session: TriageSession, question, widget_key: str) -> None:
    """Callback of "Next": the widget's value is the answer, or the session says what is missing."""
    ticked = [raw for raw, _ in question.extra_answers if ss.get(extra_key(widget_key, raw), False)]
    session.submit(question, ss.get(widget_key), ticked)


def question_form(session: TriageSession) -> None:
    """The question asked now, its answer widget and "Next"."""
    question, key = session.next_question, answer_key(session)
    with st.form("triage_form"):
        cost = session.bands.costs[session.stage] if session.has_costs else None
        st.caption(words.question_number(question.stage, len(session.questions), cost, session.cost_unit))
        st.markdown(words.question_heading(question.prompt))
        st.markdown(words.rule_text(question.rule))
        if question.missing_rule:
            st.caption(words.missing_rule(question))
        label, n_choices = words.answer_label(question), len(question.options) + len(question.extra_answers)
        if question.kind == NUMERIC:
            st.number_input(label, value=None, step=1.0, format="%g", key=key, label_visibility="collapsed",
                            placeholder=words.NUMBER_PLACEHOLDER)
            for raw, text in question.extra_answers:
                st.checkbox(text, key=extra_key(key, raw))
        elif n_choices <= BUTTONS_MAX_OPTIONS:
            with st.container(key="triage_answer_buttons"):
                st.segmented_control(label, list(range(n_choices)), format_func=words.answer_labels(question).__getitem__,
                                     key=key, label_visibility="collapsed", width="stretch")
        else:
            st.selectbox(label, list(range(n_choices)), index=None, format_func=words.answer_texts(question).__getitem__,
                         key=key, label_visibility="collapsed", placeholder=words.CHOICE_PLACEHOLDER)
        st.form_submit_button(words.NEXT, type="primary", icon=":material/arrow_forward:", width="stretch",
                              key="triage_next", on_click=submit, args=(session, question, key))
    if session.input_error:
        st.warning(session.input_error)


def record_for_notes(session: TriageSession) -> None:
    """The record of the triage as text, with buttons that download it as text, as JSON and as a FHIR
    RiskAssessment (:mod:`ui.export`)."""
    st.subheader(words.RECORD)
    record = session.record()
    st.code(text := record_text(record), language=None, wrap_lines=True)
    text_column, json_column, fhir_column = st.columns(3)
    text_column.download_button(words.DOWNLOAD_TEXT, text, file_name="psl-triage-record.txt", mime="text/plain",
                                key="triage_download_text", **DOWNLOAD)
    json_column.download_button(words.DOWNLOAD_JSON, record_json(record), file_name="psl-triage-record.json",
                                mime="application/json", key="triage_download_json", **DOWNLOAD)
    risk_assessment_download(session, fhir_column)
