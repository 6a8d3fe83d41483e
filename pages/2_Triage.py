"""Triage: the bedside step-through of a probabilistic scoring list (issue #3).

The clinician picks a list (the one just trained, or a saved one), answers its questions one
at a time, and after every answer sees the total score, the calibrated probability with its
interval, the decision and, when the list stops, why. All the logic lives in
:mod:`psl_core.decision` and :mod:`psl_triage.questions`; this page reads widgets, calls them
and renders.

Session state. The page reads ``"trained_model"`` and ``"trained_metadata"`` (set by Train);
its own keys all start with ``"triage_"``. Nothing about a patient leaves this state (the
session's memory on the server): it is never written to disk or sent anywhere.

``"triage_model_choice"``  widget: "trained" or the path of a saved model file (ui.list_picker).
``"triage_cost_ratio_v<N>"`` widget: M, the cost of a missed case relative to a false alarm;
                           it starts at the chosen list's saved M and a new list gets a new N
                           (ui.cost_ratio_input, with ``"triage_cost_ratio_list"`` and
                           ``"triage_cost_ratio_version"``).
``"triage_confidence"``    widget: level of the intervals (0.8, 0.9, 0.95 or 0.99).
``"triage_basis"``         widget: decide on the interval's "upper" bound or the "point" estimate.
``"triage_tolerance"``     widget: the stop rule's share of training patients who changed outcome.
``"triage_model_ref"``     the model the answers belong to; another model restarts the triage.
``"triage_seen_trained"``  the Train page's list at the last visit; a new one becomes the choice.
``"triage_bands"``         (model, confidence, StageBands): the list's derived tables (intervals,
                           outcomes, stop statistics), kept between reruns for this list version.
``"triage_questions"``     (model, columns, questions): the list's questions, kept likewise.
``"triage_answers"``       dict column -> raw answer (a number, 1.0/0.0, a category; None =
                           unknown), in the order asked. A column is asked once: later stages
                           on the same column take its answer.
``"triage_stage"``         int: stages answered so far (asked or taken from an earlier answer).
``"triage_passed"``        set of int: the stages whose stop the clinician passed with "Continue
                           anyway"; the list still stops at the next stop.
``"triage_input_error"``   str | None: why the last "Next" was not accepted.
``"triage_q<n>"``          widget: the answer to question n + 1 (index of the option, or the
                           number); ``"triage_q<n>_unknown"`` the "unknown" box of a number,
                           ``"triage_q<n>_not_measured"`` its "not measured" box.
``"triage_next"``, ``"triage_continue"``, ``"triage_undo"``, ``"triage_restart"``,
``"triage_chart"``, ``"triage_download_text"``, ``"triage_download_json"``: buttons and chart;
``"triage_answer_buttons"``: the container of a question's answer buttons (made 44 px tall).

The settings and the model choice persist across page switches (``persist_state="session"``);
a changed model restarts the triage, changed settings recompute it with the answers kept.
Everything below the settings is a fragment (``st.fragment``): an answer reruns only it.
"""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from psl_core.binarization import NUMERIC
from psl_core.cost_ratio import decision_threshold
from psl_core.costs import default_change_value
from psl_core.decision import END_OF_LIST, RULE_IN, RULE_OUT, UNCERTAIN, StageBands, triage_step
from psl_core.stopping import DEFAULT_TOLERANCE
from psl_triage.costs import cost_text, cost_unit, spent
from psl_triage.plots import triage_figure
from psl_triage.questions import (
    advance,
    build_questions,
    first_stage_of,
    headline,
    how_it_decides,
    interval_sentence,
    interval_text,
    one_in,
    outcome_text,
    percent,
    prior_decision_text,
    probability_text,
    recorded_answers,
    stage_answers,
    stop_sentence,
    totals_text,
    triage_steps,
)
from psl_triage.record import record_text, triage_record
from psl_triage.trade_off import m_range_text
from psl_triage.words import label_md, md
from psl_triage.words.train import no_gain_note
from ui import cost_ratio_input, list_picker, timed

CONFIDENCES = (0.80, 0.90, 0.95, 0.99)
BASIS_LABELS = {
    "upper": "Risk-averse: the upper end of the interval",
    "point": "The probability itself (point estimate)",
}
# Colour of each outcome; the words (psl_triage.questions.headline) alone carry the meaning.
OUTCOME_COLOURS = {RULE_IN: "red", RULE_OUT: "green", UNCERTAIN: "orange"}
TOLERANCES = (0.01, 0.02, 0.05, 0.1, 0.2)
COST_RULE = """- Questions here have **costs**. Before each question the list weighs what it may gain against
  what it costs: it **stops** when the question costs more than the value of a changed outcome
  (chosen above) times the share of training patients with the same answers whose outcome
  still changed with more questions."""
BUTTONS_MAX_OPTIONS = 7  # answers as large buttons; beyond this a drop-down list is easier to scan
# Touch targets at the bedside: the answer buttons at least 44 px tall (WCAG 2.5.5), scoped to
# their container; Streamlit draws them 36 px tall and has no parameter for it.
ANSWER_BUTTONS_CSS = "<style>.st-key-triage_answer_buttons button { min-height: 44px; }</style>"

ss = st.session_state


def restart() -> None:
    ss.triage_answers = {}
    ss.triage_stage = 0
    ss.triage_passed = set()
    ss.triage_input_error = None
    for key in [key for key in ss if str(key).startswith("triage_q")]:
        del ss[key]


def record_answer(question, widget_key: str) -> None:
    """Callback of "Next": turn the widget's value into the raw answer, or say what is missing."""
    value = ss.get(widget_key)
    extras = question.extra_answers
    if question.kind == NUMERIC:
        ticked = [raw for raw, _ in extras if ss.get(extra_key(widget_key, raw), False)]
        either = " or ".join(f'"{text}"' for _, text in extras)
        if len(ticked) + (value is not None) > 1:
            ss.triage_input_error = f"Either enter a value or tick one of {either}, not both."
            return
        if not ticked and value is None:
            ss.triage_input_error = f"Enter the value, or tick {either}."
            return
        raw = ticked[0] if ticked else float(value)
    else:
        if value is None:
            ss.triage_input_error = f"Choose an answer, or {' or '.join(f'{chr(34)}{t}{chr(34)}' for _, t in extras)}."
            return
        n = len(question.options)
        raw = extras[value - n][0] if value >= n else question.options[value][0]
    ss.triage_answers[question.column] = raw
    ss.triage_stage = question.stage
    ss.triage_input_error = None


def extra_key(widget_key: str, raw) -> str:
    """The key of a number question's box for "unknown" (raw None) or "not measured"."""
    return f"{widget_key}_{'unknown' if raw is None else 'not_measured'}"


def undo_last(questions) -> None:
    column = next(reversed(ss.triage_answers))
    del ss.triage_answers[column]
    ss.triage_stage = first_stage_of(questions, column)
    ss.triage_passed = {stage for stage in ss.triage_passed if stage <= ss.triage_stage}
    ss.triage_input_error = None


def continue_anyway(stage: int) -> None:
    ss.triage_passed = ss.triage_passed | {stage}


def stage_bands(model, confidence: float) -> StageBands:
    """The list's derived tables at this confidence, computed once per list version."""
    kept = ss.get("triage_bands")
    if kept is None or kept[0] is not model or kept[1] != confidence:
        ss.triage_bands = (model, confidence, StageBands(model, confidence))
    return ss.triage_bands[2]


def list_questions(model, columns):
    """The list's questions, built once per list version."""
    kept = ss.get("triage_questions")
    if kept is None or kept[0] is not model or kept[1] != columns:
        ss.triage_questions = (model, columns, build_questions(model, columns))
    return ss.triage_questions[2]


# --- page ------------------------------------------------------------------------------------

st.set_page_config(page_title="Triage · PSL Triage", page_icon="🩺", layout="centered")
st.html(ANSWER_BUTTONS_CSS)  # style only: Streamlit puts it outside the page's elements
if "triage_answers" not in ss:
    restart()

st.title("Triage")
st.markdown(
    "Answer one question at a time. After each answer the list shows the risk with its "
    "uncertainty and stops once further answers are unlikely to change the outcome."
)
model, metadata, model_name, model_version = list_picker(
    "triage",
    "There is no list to triage with yet. Train one (or load a model file) on the **Train** "
    "page; it appears here straight away.",
)
st.caption(
    ":material/lock: Nothing about the patient is stored: the answers are kept only in this "
    "session's memory, never written to disk or sent anywhere, and are gone when you restart or "
    "close the tab. Download the record below to keep it."
)
if ss.get("triage_model_ref") is not model:
    ss.triage_model_ref = model
    ss.pop("triage_change_value", None)  # the value of a changed outcome starts at the new list's default
    restart()

positive_label, negative_label = metadata.class_names

with st.expander("Settings: cost of a miss, confidence, decision basis, when to stop"):
    cost_ratio = cost_ratio_input("triage", model, metadata)
    st.caption(
        f"M = {cost_ratio:g} means missing one case of {md(positive_label)} is as bad as {cost_ratio:g} "
        f"false alarm{'' if cost_ratio == 1 else 's'}, so the decision threshold is 1/(1+M) = "
        f"{percent(decision_threshold(cost_ratio))}: the list rules in when the whole interval lies above it "
        "and rules out when it lies below (the paper uses M = 10)."
    )
    confidence = st.radio(
        "Confidence level of the interval", CONFIDENCES, index=CONFIDENCES.index(0.95),
        format_func=lambda level: f"{level:.0%}", horizontal=True,
        key="triage_confidence", persist_state="session",
    )
    st.caption(
        "How sure we want to be that the true risk lies inside the interval; higher means wider "
        "intervals and later stops."
    )
    basis = st.radio(
        "Decide on", list(BASIS_LABELS), format_func=BASIS_LABELS.get,
        key="triage_basis", persist_state="session",
    )
    st.caption(
        "Risk-averse (default) decides positive when the risk may plausibly exceed the threshold, so an "
        "underestimated risk never sends a patient home; the point estimate uses the probability alone."
    )
    has_statistics = getattr(model, "stop_statistics_", None) is not None
    if has_statistics:
        tolerance = st.select_slider(
            "Stop once fewer training patients than this changed outcome with more questions",
            TOLERANCES, value=DEFAULT_TOLERANCE, key="triage_tolerance", persist_state="session",
            format_func=lambda share: f"{share:.0%} ({one_in(share)})",
        )
        st.caption(
            "A ruled-in or ruled-out patient stops when so few training patients with the same answers "
            "ended at another outcome after the rest of the list; lower asks more questions."
        )
    else:
        tolerance = DEFAULT_TOLERANCE
    full_length = len(model.literals_)
    recommended = model.recommended_stages_
    if recommended is not None and 0 < recommended < full_length:
        length = st.radio(
            "Questions to ask",
            [recommended, full_length],
            format_func=lambda n: (
                f"Recommended: the first {n} (validated on held-out patients)" if n == recommended
                else f"The whole list: {n}"
            ),
            horizontal=True, key="triage_length",
        )
        st.caption(
            "Cross-validation during training found that questions beyond the recommended number "
            "do not improve the held-out accuracy of the probabilities."
        )
    else:
        length = full_length
    costs = model.stage_costs_[:length]
    unit = cost_unit(metadata)
    change_value = None
    if costs.any():
        change_value = st.number_input(
            f"A changed outcome is worth (in the costs' unit{f', {md(unit)}' if unit else ''})",
            min_value=0.001, value=default_change_value(costs), step=1.0, format="%g", key="triage_change_value",
        )
        st.caption(
            "This list carries question costs: it stops before a question that costs more than this value "
            "times the share of training patients with the same answers whose outcome still changed. It "
            "starts at ten times the most expensive question; higher asks more questions."
        )
no_gain = no_gain_note(model, md(positive_label))
if no_gain:  # outside the settings: every user must see it
    st.warning(no_gain, icon=":material/warning:")

threshold = decision_threshold(cost_ratio)
saved = metadata.cost_ratio
st.caption(
    f"{md(model_name)} (version {md(model_version)}): {length} of {len(model.literals_)} questions. Deciding with M = "
    f"{cost_ratio:g} ({'as saved with the list' if cost_ratio == saved else f'the list was saved with M = {saved:g}'}; "
    f"threshold {percent(threshold)}), {confidence:.0%} intervals, on the "
    f"{'upper bound' if basis == 'upper' else 'point estimate'}."
)
where_m, one_sided = m_range_text(model, cost_ratio, positive_label, negative_label, confidence, basis, length)
(st.info if one_sided else st.caption)(f"**Where M matters.** {where_m}")

example = [question.rule for question in list_questions(model, metadata.readable_columns())[:1]]  # this list's
example = f' ("{md(example[0])}")' if example else ""
with st.expander("How this works"):
    st.markdown(
        f"""
- Each question is a condition worth a few points{example}.
  The points of the conditions that hold add up to the **total score**.
- Each total maps to a **calibrated probability** of {md(positive_label)}, learned from the
  training data, with a **{confidence:.0%} interval**: the range the true risk lies in with
  that confidence, wider where the training data had few patients with that total.
{how_it_decides(threshold, confidence, tolerance, has_statistics).strip()}
{COST_RULE if change_value is not None else ""}
- An answer can be **unknown**: the value exists but is not at hand. It is never guessed:
  the list then follows both possible answers, shows every total they allow, and reports
  the range of probabilities and the widest interval over them, so unknown answers make
  the decision more cautious, never less.
- Where the training data had missing values, a question also offers **not measured**: the
  test was not done. That is an answer of its own: the list learned from its training
  patients whether it counts as yes or no, and the question says which.
- A feature that appears in several questions (one per category of a categorical feature,
  or a measurement with a second threshold) is asked once; its later questions use the
  same answer.
- Nothing you enter is saved to disk or sent anywhere; the record below exists only in this
  session until you download it.
"""
    )

questions = list_questions(model, metadata.readable_columns())[:length]
bands = stage_bands(model, confidence)
if not has_statistics:
    st.caption(
        ":material/info: This list was saved before lists carried how often more questions change the "
        "outcome, so it stops as soon as a patient is ruled in or out (the earlier rule)."
    )


@st.fragment
def triage(questions, bands, cost_ratio: float, confidence: float, basis: str, tolerance: float,
           change_value: float | None) -> None:
    """Where the triage stands, the next question and the way here: reruns alone on every answer
    (its server time goes to the timing log, :func:`ui.timed`)."""
    with timed(f"triage with {len(ss.triage_answers)} answers"):
        triage_view(questions, bands, cost_ratio, confidence, basis, tolerance, change_value)


def triage_view(questions, bands, cost_ratio: float, confidence: float, basis: str, tolerance: float,  # noqa: C901 - being split in issue 27
                change_value: float | None) -> None:
    """The triage fragment's content."""
    n_questions = len(questions)
    threshold = decision_threshold(cost_ratio)
    answers = ss.triage_answers

    def halts(n_answered: int) -> bool:
        if n_answered in ss.triage_passed:
            return False
        _, holds = stage_answers(questions, answers, n_answered)
        step = triage_step(
            bands, holds, cost_ratio, basis, n_stages=n_questions, tolerance=tolerance, change_value=change_value,
        )
        return step.stop_reason is not None

    ss.triage_stage = advance(questions, answers, min(ss.triage_stage, n_questions), halts)
    n_answered = ss.triage_stage
    steps = triage_steps(bands, questions, answers, n_answered, cost_ratio, basis, tolerance, change_value)
    current = steps[-1]
    passed = n_answered in ss.triage_passed
    halted = (current.stop_reason is not None and not passed) or n_answered == n_questions
    raw_answers, holds = stage_answers(questions, answers, n_answered)
    has_costs = change_value is not None

    def why(step):
        return stop_sentence(step, tolerance, change_value, md(unit))

    # --- where the triage stands ---------------------------------------------------------
    st.subheader("Before the first question" if n_answered == 0 else f"After question {n_answered} of {n_questions}")
    words = headline(current, basis, md(positive_label), md(negative_label))
    if not halted:
        words += " (not stopped yet)"
    st.markdown(f"## :{OUTCOME_COLOURS[current.outcome]}[{words}]")
    with st.container(horizontal=True, gap="medium"):  # wraps onto more lines on a narrow screen
        st.metric("Total score", totals_text(current.totals), width="content")
        st.metric(f"Probability of {label_md(positive_label)}", probability_text(current), width="content")
        st.metric(f"{confidence:.0%} interval", interval_text(current), width="content")
        if has_costs:
            st.metric("Questions' cost so far", cost_text(spent(bands.costs, holds, raw_answers), unit), width="content")
    st.markdown(interval_sentence(current, confidence))
    # Always drawn, empty or not, so that the question's form below keeps its place on the page:
    # Streamlit then keeps the form's elements, and the keyboard focus stays on Next after an answer.
    with st.container():
        if None in holds:
            st.info(
                f":material/help: {holds.count(None)} answer(s) unknown. The list does not guess them: it "
                f"shows every total they allow ({totals_text(current.totals)}) and the range over both "
                "answers of each, so the interval is wider and the decision more cautious."
            )

    if halted:
        where = "before the first question" if n_answered == 0 else f"after question {n_answered}"
        reason = why(current) or "Every question of the list is answered."
        if current.outcome == UNCERTAIN and current.stop_reason in (END_OF_LIST, None):
            answered = (
                f"All {n_questions} question{'' if n_questions == 1 else 's'} are answered" if n_questions
                else "This list has no questions (the Train page says why)"
            )
            st.warning(
                f"**Uncertain: refer or gather more evidence.** {answered} "
                f"and the {confidence:.0%} interval ({interval_text(current)}) still contains the decision "
                f"threshold of {percent(threshold)}."
            )
        else:
            if current.outcome == UNCERTAIN:
                reason += " The outcome stays uncertain: refer or gather more evidence."
            st.success(f"**Stopped {where}.** {reason}", icon=":material/flag:")
        prior_only = prior_decision_text(current, cost_ratio, confidence, md(positive_label), md(negative_label))
        if prior_only:  # every patient gets this decision: say why, and how to use the questions
            st.info(prior_only, icon=":material/info:")
    elif passed and current.stop_reason is not None:
        st.caption(
            f"The list would stop here ({why(current)}); you chose to continue. "
            "It stops again at its next stop."
        )

    # --- the next question ---------------------------------------------------------------
    if not halted:
        question = questions[n_answered]
        widget_key = f"triage_q{n_answered}"
        with st.form("triage_form"):
            cost = f" · costs {cost_text(bands.costs[n_answered], md(unit))}" if has_costs else ""
            st.caption(f"Question {question.stage} of {n_questions}{cost}")
            st.markdown(f"### {md(question.prompt)}")
            st.markdown(f"**{md(question.rule)}**")
            if question.missing_rule:
                st.caption(md(question.missing_rule))
            extras = [text for _, text in question.extra_answers]
            if question.kind == NUMERIC:
                st.number_input(
                    label_md(question.prompt), value=None, step=1.0, format="%g", key=widget_key,
                    placeholder="Type the value, then press Enter", label_visibility="collapsed",
                )
                for raw, text in question.extra_answers:
                    st.checkbox(text, key=extra_key(widget_key, raw))
            else:
                choices = list(range(len(question.options) + len(extras)))
                texts = [text for _, text in question.options] + extras
                if len(choices) <= BUTTONS_MAX_OPTIONS:
                    labels = [label_md(text) for text in texts[: len(question.options)]] + extras  # buttons render Markdown
                    with st.container(key="triage_answer_buttons"):
                        st.segmented_control(
                            label_md(question.prompt), choices, format_func=labels.__getitem__, key=widget_key,
                            label_visibility="collapsed", width="stretch",
                        )
                else:
                    st.selectbox(
                        label_md(question.prompt), choices, index=None, format_func=texts.__getitem__, key=widget_key,
                        label_visibility="collapsed", placeholder="Choose an answer",
                    )
            st.form_submit_button(
                "Next", type="primary", icon=":material/arrow_forward:", width="stretch", key="triage_next",
                on_click=record_answer, args=(question, widget_key),
            )
        if ss.triage_input_error:
            st.warning(ss.triage_input_error)

    with st.container(horizontal=True):
        if halted and n_answered < n_questions:
            st.button(
                "Continue anyway", key="triage_continue", on_click=continue_anyway, args=(n_answered,),
                type="primary", icon=":material/skip_next:",
            )
        st.button(
            "Change the last answer", key="triage_undo", on_click=undo_last, args=(questions,),
            disabled=not answers, icon=":material/undo:",
        )
        st.button("Restart", key="triage_restart", on_click=restart, icon=":material/restart_alt:")

    # --- the way here --------------------------------------------------------------------
    st.subheader("Risk after each answer")
    st.plotly_chart(
        triage_figure(steps, threshold, confidence), key="triage_chart", config={"displayModeBar": False},
    )
    recorded = recorded_answers(questions, answers, n_answered)
    if n_answered:
        st.table(
            pd.DataFrame(
                [
                    {
                        "Question": md(question.rule),
                        "Answer": md(answer or "unknown"),
                        "Total": totals_text(step.totals),
                        "Probability": probability_text(step),
                        "Decision": outcome_text(step, basis),
                        f"{confidence:.0%} interval": interval_text(step),
                        **({"Cost": cost_text(bands.costs[step.stage - 1], md(unit))} if has_costs else {}),
                    }
                    for question, answer, step in zip(questions, recorded, steps[1:])
                ],
                index=[f"Q{step.stage}" for step in steps[1:]],
            )
        )

    st.subheader("Record for the notes")
    record = triage_record(
        model_name, model_version, [q.record_line for q in questions[:n_answered]], recorded, steps,
        cost_ratio, confidence, basis, tolerance, (positive_label, negative_label),
        costs={"unit": unit, "change_value": change_value, "spent": spent(bands.costs, holds, raw_answers)} if has_costs else None,
    )
    text = record_text(record)
    st.code(text, language=None, wrap_lines=True)
    text_column, json_column = st.columns(2)
    text_column.download_button(
        "Download as text", text, file_name="psl-triage-record.txt", mime="text/plain",
        key="triage_download_text", on_click="ignore", width="stretch", icon=":material/download:",
    )
    json_column.download_button(
        "Download as JSON", json.dumps(record, indent=2, ensure_ascii=False), file_name="psl-triage-record.json",
        mime="application/json", key="triage_download_json", on_click="ignore", width="stretch",
        icon=":material/download:",
    )


triage(questions, bands, cost_ratio, confidence, basis, tolerance, change_value)
