"""Triage: the bedside step-through of a probabilistic scoring list (issue #3), one answer at a time.

A :class:`psl_triage.bedside.session.TriageSession` (``state_keys.TRIAGE``) holds the triage: another list
makes a new one, changed settings recompute it with the answers kept. Words: :mod:`psl_triage.words.triage`.
Widget keys start with ``"triage_"`` (``"triage_q<n>"``: question n + 1); settings and the list's choice
persist across page switches. Below the settings a fragment reruns on each answer; its question
form and record are :mod:`ui.triage`'s.
"""

from __future__ import annotations

import streamlit as st

from psl_core.cost_ratio import decision_threshold
from psl_core.costs import default_change_value
from psl_core.stopping import DEFAULT_TOLERANCE
from psl_triage.bedside.session import TriageSession, TriageSettings, recommended_length
from psl_triage.plots import triage_figure
from psl_triage.words import level_text
from psl_triage.words import triage as words
from psl_triage.words.common import PAGE_NAMES, cost_text, page_title
from psl_triage.words.decision import interval_sentence, interval_text, probability_text, totals_text
from ui import cost_ratio_input, list_picker, timed
from ui.state_keys import TRIAGE
from ui.triage import question_form, record_for_notes, take_back

CONFIDENCES = (0.80, 0.90, 0.95, 0.99)
TOLERANCES = (0.01, 0.02, 0.05, 0.1, 0.2)
# Touch targets at the bedside: the answer buttons at least 44 px tall (WCAG 2.5.5), scoped to
# their container; Streamlit draws them 36 px tall and has no parameter for it.
ANSWER_BUTTONS_CSS = "<style>.st-key-triage_answer_buttons button { min-height: 44px; }</style>"
ss = st.session_state


def settings_widgets(session: TriageSession, metadata) -> TriageSettings:
    """The settings expander's widgets."""
    model, cost_ratio = session.model, cost_ratio_input("triage", session.model, metadata)
    st.caption(words.cost_ratio_note(cost_ratio, decision_threshold(cost_ratio), session.class_labels[0]))
    confidence = st.radio(words.CONFIDENCE, CONFIDENCES, index=CONFIDENCES.index(0.95), horizontal=True,
                          format_func=level_text, key="triage_confidence", persist_state="session")
    st.caption(words.CONFIDENCE_HELP)
    basis = st.radio(words.BASIS, list(words.BASIS_LABELS), format_func=words.BASIS_LABELS.get, key="triage_basis",
                     persist_state="session")
    st.caption(words.BASIS_HELP)
    tolerance = DEFAULT_TOLERANCE
    if session.has_statistics:
        tolerance = st.select_slider(words.TOLERANCE, TOLERANCES, value=DEFAULT_TOLERANCE, key="triage_tolerance",
                                     persist_state="session", format_func=words.tolerance_option)
        st.caption(words.TOLERANCE_HELP)
    length = full = len(model.literals_)
    if (recommended := recommended_length(model)) < full:
        length = st.radio(words.LENGTH, [recommended, full], format_func=lambda n: words.length_option(n, recommended),
                          horizontal=True, key="triage_length")
        st.caption(words.LENGTH_HELP)
    change_value = None
    if (costs := model.stage_costs_[:length]).any():
        change_value = st.number_input(words.change_value_label(session.cost_unit), min_value=0.001, step=1.0,
                                       value=default_change_value(costs), format="%g", key="triage_change_value")
        st.caption(words.CHANGE_VALUE_HELP)
    return TriageSettings(cost_ratio, confidence, basis, tolerance, change_value, length)


def restart(session: TriageSession) -> None:
    session.restart()
    for key in [key for key in ss if str(key).startswith("triage_q")]:
        del ss[key]


def standing(session: TriageSession) -> None:
    """Where the triage stands: the outcome, its numbers and, once stopped, why."""
    s, current, n, n_questions = session.settings, session.current, session.stage, len(session.questions)
    positive, negative = session.class_labels
    st.subheader(words.where_it_stands(n, n_questions))
    st.markdown(words.outcome_heading(current, s.basis, positive, negative, session.halted))
    with st.container(horizontal=True, gap="medium"):  # wraps onto more lines on a narrow screen
        st.metric(words.TOTAL, totals_text(current.totals), width="content")
        st.metric(words.probability_label(positive), probability_text(current), width="content")
        st.metric(words.interval_label(s.confidence), interval_text(current), width="content")
        if session.has_costs:
            st.metric(words.COST_SO_FAR, cost_text(session.spent, session.cost_unit), width="content")
    st.markdown(interval_sentence(current, s.confidence))
    # Always drawn, empty or not, so that the question's form below keeps its place on the page:
    # Streamlit then keeps the form's elements, and the keyboard focus stays on Next after an answer.
    with st.container():
        if None in session.holds:
            st.info(words.unknown_note(session.holds.count(None), current))
        if held := words.held_at_base_rate(session):  # points given, the risk where it started
            st.info(held, icon=":material/info:")
    why = words.why_stopped(current, s.tolerance, s.change_value, session.cost_unit)
    if session.halted and (nothing := words.asks_nothing(session)):  # the recommended length is no question
        st.info(nothing, icon=":material/info:")
    elif session.halted and words.is_undecided_end(current):
        st.warning(words.undecided_end(n_questions, s.confidence, current, session.threshold))
    elif session.halted:
        st.success(words.stopped(n, current, why), icon=":material/flag:")
    elif session.passed_here and current.stop_reason is not None:
        st.caption(words.passed_stop(why))
    # Every patient gets this decision: say why, and how to use the questions.
    if session.halted and (prior_only := words.prior_only(current, s.cost_ratio, s.confidence, positive, negative)):
        st.info(prior_only, icon=":material/info:")


def way_here(session: TriageSession) -> None:
    """The buttons and the risk after each answer."""
    s, steps = session.settings, session.steps
    with st.container(horizontal=True):
        if session.halted and session.stage < len(session.questions):
            st.button(words.CONTINUE, key="triage_continue", on_click=session.continue_anyway, type="primary",
                      icon=":material/skip_next:")
        st.button(words.UNDO, key="triage_undo", on_click=take_back, args=(session,), disabled=not session.answers, icon=":material/undo:")
        st.button(words.RESTART, key="triage_restart", on_click=restart, args=(session,), icon=":material/restart_alt:")
    st.subheader(words.RISK_AFTER_EACH)
    st.plotly_chart(triage_figure(steps, session.threshold, s.confidence), key="triage_chart", config={"displayModeBar": False})
    if session.stage:
        st.table(words.way_here_table(session, steps))
@st.fragment
def triage(session: TriageSession) -> None:
    """Where the triage stands, the next question and the way here (server time: :func:`ui.timed`)."""
    with timed(f"triage with {len(session.answers)} answers"):
        standing(session)
        if not session.halted:
            question_form(session)
        way_here(session)
        record_for_notes(session)


st.set_page_config(page_title=page_title("triage"), page_icon="🩺", layout="centered")
st.html(ANSWER_BUTTONS_CSS)  # style only: Streamlit puts it outside the page's elements
st.title(PAGE_NAMES["triage"])
st.markdown(words.INTRO)
model, metadata, model_name, model_version = list_picker("triage", words.NO_LIST)
st.caption(words.PRIVACY)
session = TRIAGE.get(ss)
if session is None or not session.belongs_to(model):
    ss.pop("triage_change_value", None)  # the value of a changed outcome starts at the new list's default
    restart(session := TRIAGE.put(ss, TriageSession(model)))
session.metadata, session.name, session.version = metadata, model_name, model_version
with st.expander(words.SETTINGS):
    settings = settings_widgets(session, metadata)
session.configure(settings)
if no_gain := words.no_gain(session):  # outside the settings: every user must see it
    st.warning(no_gain, icon=":material/warning:")
st.caption(words.deciding(session, metadata.cost_ratio))
where_m, one_sided = words.where_m_matters(session)
(st.info if one_sided else st.caption)(where_m)
with st.expander(words.HOW_IT_WORKS):
    st.markdown(words.how_it_works(session))
if not session.has_statistics:
    st.caption(words.NO_STATISTICS)
triage(session)
