"""The Triage page's words: every sentence, label and format it shows, names escaped here.

Arguments named ``*_label``, ``name``, ``version``, ``unit`` and ``rule`` come from files (a
model file, a table's column and class names) and are escaped with :func:`md` or
:func:`label_md` here; everything returned is Markdown ready for Streamlit unless its
docstring says plain text.
"""

from __future__ import annotations

import pandas as pd

from psl_core.decision import END_OF_LIST, RULE_IN, RULE_OUT, UNCERTAIN
from psl_triage.words.common import cost_text

from . import trade_off
from .common import INTERVAL_PROMISE, level_text, m_equals, noun, one_in, percent, plural
from .decision import (
    ALL_ANSWERED,
    headline,
    how_it_decides,
    interval_text,
    outcome_text,
    prior_decision_text,
    probability_text,
    stop_sentence,
    totals_text,
)
from .escape import label_md, md, visible
from .lists import base_rate_reason
from .train import no_gain_note

INTRO = (
    "Answer one question at a time. After each answer the list shows the risk with its "
    "uncertainty and stops once further answers are unlikely to change the outcome."
)
NO_LIST = (
    "There is no list to triage with yet. Train one (or load a model file) on the **Train** "
    "page; it appears here straight away."
)
PRIVACY = (
    ":material/lock: Nothing about the patient is stored: the answers are kept only in this "
    "session's memory, never written to disk or sent anywhere, and are gone when you restart or "
    "close the tab. Download the record below to keep it."
)
SETTINGS = "Settings: cost of a miss, confidence, decision basis, when to stop"
CONFIDENCE = "Confidence level of the interval"
CONFIDENCE_HELP = (
    "How sure we want to be that the true risk lies inside the interval; higher means wider "
    "intervals and later stops."
)
BASIS = "Decide on"
BASIS_LABELS = {
    "upper": "Risk-averse: the upper end of the interval",
    "point": "The probability itself (point estimate)",
}
BASIS_HELP = (
    "Risk-averse (default) decides positive when the risk may plausibly exceed the threshold, so an "
    "underestimated risk never sends a patient home; the point estimate uses the probability alone."
)
TOLERANCE = "Stop once fewer training patients than this changed outcome with more questions"
TOLERANCE_HELP = (
    "A ruled-in or ruled-out patient stops when so few training patients with the same answers "
    "ended at another outcome after the rest of the list; lower asks more questions."
)
LENGTH = "Questions to ask"
LENGTH_HELP = (
    "Cross-validation during training found that questions beyond the recommended number "
    "do not improve the held-out accuracy of the probabilities."
)
CHANGE_VALUE_HELP = (
    "This list carries question costs: it stops before a question that costs more than this value "
    "times the share of training patients with the same answers whose outcome still changed. It "
    "starts at ten times the most expensive question; higher asks more questions."
)
NO_STATISTICS = (
    ":material/info: This list was saved before lists carried how often more questions change the "
    "outcome, so it stops as soon as a patient is ruled in or out (the earlier rule)."
)
COST_RULE = """- Questions here have **costs**. Before each question the list weighs what it may gain against
  what it costs: it **stops** when the question costs more than the value of a changed outcome
  (chosen above) times the share of training patients with the same answers whose outcome
  still changed with more questions."""
HOW_IT_WORKS = "How this works"
TOTAL = "Total score"
COST_SO_FAR = "Questions' cost so far"
NUMBER_PLACEHOLDER = "Type the value, then press Enter"
CHOICE_PLACEHOLDER = "Choose an answer"
NEXT, CONTINUE, UNDO, RESTART = "Next", "Continue anyway", "Change the last answer", "Restart"
RISK_AFTER_EACH = "Risk after each answer"
RECORD = "Record for the notes"
DOWNLOAD_TEXT, DOWNLOAD_JSON = "Download as text", "Download as JSON"
# Colour of each outcome; the words (psl_triage.bedside.questions.headline) alone carry the meaning.
OUTCOME_COLOURS = {RULE_IN: "red", RULE_OUT: "green", UNCERTAIN: "orange"}


def quoted_either(extras) -> str:
    """The extra answers ("unknown", "not recorded") quoted and joined by "or" (plain text)."""
    return " or ".join(f'"{text}"' for _, text in extras)


def number_answer_error(extras, given: bool) -> str:
    """Why a number question's answer was not accepted: two answers (``given``) or none."""
    either = quoted_either(extras)
    return f"Either enter a value or tick one of {either}, not both." if given else f"Enter the value, or tick {either}."


def choice_answer_error(extras) -> str:
    """Why a choice question's answer was not accepted: none chosen."""
    return f"Choose an answer, or {quoted_either(extras)}."


def cost_ratio_note(cost_ratio: float, threshold: float, positive_label) -> str:
    return (
        f"{m_equals(cost_ratio)} means missing one case of {md(positive_label)} is as bad as {cost_ratio:g} "
        f"false {noun(cost_ratio, 'alarm')}, so the decision threshold is 1/(1+M) = "
        f"{percent(threshold)}: the list rules in when the whole interval lies above it "
        "and rules out when it lies below (the paper uses M = 10)."
    )


def tolerance_option(share: float) -> str:
    return f"{share:.0%} ({one_in(share)})"


def length_option(n: int, recommended: int) -> str:
    """The length choice: the recommended number (none, when no question beat the base rate on
    held-out patients), or the whole list, labelled as going beyond it."""
    if n == recommended:
        first = "no question, the base rate" if n == 0 else f"the first {n}"
        return f"Recommended: {first} (validated on held-out patients)"
    return f"The whole list: {n}, beyond the recommendation (not validated to do better)"


def change_value_label(unit) -> str:
    return f"A changed outcome is worth (in the costs' unit{f', {md(unit)}' if unit else ''})"


def deciding(session, saved: float) -> str:
    """What the triage decides with: the list, its length, M (``saved``: the list's), the
    intervals and the basis."""
    s = session.settings
    as_saved = "as saved with the list" if s.cost_ratio == saved else f"the list was saved with {m_equals(saved)}"
    return (
        f"{md(session.name)} (version {md(session.version)}): {len(session.questions)} of "
        f"{len(session.all_questions)} questions. Deciding with {m_equals(s.cost_ratio)} ({as_saved}; threshold "
        f"{percent(session.threshold)}), {level_text(s.confidence)} intervals, on the "
        f"{'upper bound' if s.basis == 'upper' else 'point estimate'}."
    )


def where_m_matters(session) -> tuple[str, bool]:
    """Where M matters for the session's list (:func:`psl_triage.words.trade_off.m_range_text`) under its
    heading, and whether the list is one-sided at this M."""
    s = session.settings
    return trade_off.where_m_matters(session.model, s.cost_ratio, *session.class_labels, s.confidence, s.basis,
                                     s.length)


def how_it_works(session) -> str:
    """The "How this works" text, with the list's own first question as example."""
    s, first = session.settings, session.all_questions[:1]
    example = f' ("{md(first[0].rule)}")' if first else ""
    return f"""
- Each question is a condition worth a few points{example}.
  The points of the conditions that hold add up to the **total score**.
- Each total maps to a **calibrated probability** of {md(session.class_labels[0])}, learned from the
  training data, with a **{level_text(s.confidence)} interval**, wider where the training data had few
  patients with that total. {INTERVAL_PROMISE}
{how_it_decides(session.threshold, s.confidence, s.tolerance, session.has_statistics).strip()}
{COST_RULE if session.has_costs else ""}
- An answer can be **unknown**: there is an answer (a lab done, a question answered, a
  category recorded), but it is not at hand. It is never guessed:
  the list then follows both possible answers, shows every total they allow, and reports
  the range of probabilities and the widest interval over them, so unknown answers make
  the decision more cautious, never less.
- Where the training data had missing values, a question also offers **not recorded**: there
  is no answer (the test was not done, the question not asked). That is an answer of its own: the list learned from its training
  patients whether it counts as yes or no, and the question says which.
- A feature that appears in several questions (one per category of a categorical feature,
  or a measurement with a second threshold) is asked once; its later questions use the
  same answer.
- Nothing you enter is saved to disk or sent anywhere; the record below exists only in this
  session until you download it.
"""


def where_it_stands(n_answered: int, n_questions: int) -> str:
    return "Before the first question" if n_answered == 0 else f"After question {n_answered} of {n_questions}"


def outcome_heading(step, basis: str, positive_label, negative_label, halted: bool) -> str:
    """The outcome as a coloured level-2 heading ("(not stopped yet)" while the list asks on)."""
    words = headline(step, basis, md(positive_label), md(negative_label))
    if not halted:
        words += " (not stopped yet)"
    return f"## :{OUTCOME_COLOURS[step.outcome]}[{words}]"


def probability_label(positive_label) -> str:
    return f"Probability of {label_md(positive_label)}"


def interval_label(confidence: float) -> str:
    return f"{level_text(confidence)} interval"


def unknown_note(n_unknown: int, step) -> str:
    return (
        f":material/help: {plural(n_unknown, 'answer')} unknown. The list does not guess "
        f"{'it' if n_unknown == 1 else 'them'}: it shows every total {'it allows' if n_unknown == 1 else 'they allow'} ({totals_text(step.totals)}) and the range over both "
        "answers of each, so the interval is wider and the decision more cautious."
    )


def is_undecided_end(step) -> bool:
    """Whether the list ends uncertain for want of questions (not stopped by a rule)."""
    return step.outcome == UNCERTAIN and step.stop_reason in (END_OF_LIST, None)


def undecided_end(n_questions: int, confidence: float, step, threshold: float) -> str:
    """The warning when every question is answered and the interval still holds the threshold."""
    answered = (
        f"All {n_questions} {noun(n_questions, 'question')} are answered" if n_questions
        else "This list has no questions (the Train page says why)"
    )
    return (
        f"**Uncertain: refer or gather more evidence.** {answered} "
        f"and the {level_text(confidence)} interval ({interval_text(step)}) still contains the decision "
        f"threshold of {percent(threshold)}."
    )


def asks_nothing(session) -> str | None:
    """At a length of no question for a list that has some (its recommended length is 0: on
    held-out patients no question beat the base rate), what every patient gets and why, in
    place of a stop (Markdown); None otherwise."""
    if session.questions or not session.all_questions:
        return None
    step, s, (positive, negative) = session.current, session.settings, session.class_labels
    return (
        f"**No question is recommended for this list.** Every patient gets the base rate of {md(positive)}, "
        f"{probability_text(step)} ({level_text(s.confidence)} interval {interval_text(step)}); at "
        f"{m_equals(s.cost_ratio)} (threshold {percent(step.threshold)}) that reads "
        f"**{headline(step, s.basis, md(positive), md(negative))}**. On held-out patients none of its "
        f"{plural(len(session.all_questions), 'question')} estimated the risk better than the base rate, so no "
        "answer is trusted to change the decision. To ask them anyway, choose the whole list in the settings "
        "above: that goes beyond the recommendation."
    )


def stopped(n_answered: int, step, reason: str | None) -> str:
    """Where and why the list stopped (``reason``: the stop sentence, None at the list's end)."""
    where = "before the first question" if n_answered == 0 else f"after question {n_answered}"
    reason = reason or ALL_ANSWERED
    if step.outcome == UNCERTAIN:
        reason += " The outcome stays uncertain: refer or gather more evidence."
    return f"**Stopped {where}.** {reason}"


def passed_stop(reason: str) -> str:
    return f"The list would stop here. {reason} You chose to continue; it stops again at its next stop."


def question_number(stage: int, n_questions: int, cost: float | None, unit) -> str:
    """"Question 2 of 5", with what it costs for a list with costs (``cost`` not None)."""
    price = f" · costs {cost_text(cost, md(unit))}" if cost is not None else ""
    return f"Question {stage} of {n_questions}{price}"


def question_heading(prompt) -> str:
    return f"### {md(prompt)}"


def rule_text(rule) -> str:
    return f"**{md(rule)}**"


def answer_labels(question) -> list[str]:
    """The labels of a choice question's answer buttons (Markdown: buttons render it)."""
    return [label_md(text) for _, text in question.options] + [text for _, text in question.extra_answers]


def answer_texts(question) -> list[str]:
    """The options of a choice question's drop-down list (plain text; direction controls shown
    as their code, :func:`visible`)."""
    return [visible(text) for _, text in question.options] + [text for _, text in question.extra_answers]


def way_here_rows(questions, recorded, steps, basis: str, confidence: float, costs=None, unit="") -> list[dict]:
    """The rows of the table of answered stages (Markdown cells); ``costs``: the stage costs of
    a list with costs, else None."""
    rows = []
    for question, answer, step in zip(questions, recorded, steps[1:]):
        row = {
            "Question": md(question.rule),
            "Answer": md(answer or "unknown"),
            "Total": totals_text(step.totals),
            "Probability": probability_text(step),
            "Decision": outcome_text(step, basis),
            interval_label(confidence): interval_text(step),
        }
        if costs is not None:
            row["Cost"] = cost_text(costs[step.stage - 1], md(unit))
        rows.append(row)
    return rows


def why_stopped(step, tolerance: float, change_value: float | None, unit) -> str | None:
    """Why the list stops at ``step`` (None when it does not)."""
    return stop_sentence(step, tolerance, change_value, md(unit))


def prior_only(step, cost_ratio: float, confidence: float, positive_label, negative_label) -> str | None:
    """Why every patient gets the decision before the first question, when that is so."""
    return prior_decision_text(step, cost_ratio, confidence, md(positive_label), md(negative_label))


def no_gain(session) -> str | None:
    """The warning when held-out evidence recommends asking no question."""
    return no_gain_note(session.model, md(session.class_labels[0]))


def held_at_base_rate(session) -> str | None:
    """Why answers with points left the risk at the base rate (Markdown), or None when they
    move it (:meth:`~psl_triage.bedside.session.TriageSession.held_at_base_rate`)."""
    held = session.held_at_base_rate()
    if held is None:
        return None
    stage, later = held
    first = "the first question" if stage == 1 else f"the first {stage} questions"
    then = (f"the points start to count from question {later} on" if later is not None
            else "the points do not move it in the questions asked here")
    return (
        f"**Why the risk has not moved.** The list does not yet trust a score after only {first}: "
        f"{base_rate_reason(probability_text(session.current))}; {then}."
    )


def missing_rule(question) -> str:
    return md(question.missing_rule)


def answer_label(question) -> str:
    """The (hidden) label of a question's answer widget."""
    return label_md(question.prompt)


def way_here_table(session, steps) -> pd.DataFrame:
    """The table of the session's answered stages (``steps``: its steps), one row "Q<n>" per stage
    (Markdown cells)."""
    s = session.settings
    rows = way_here_rows(session.questions, session.recorded_answers(), steps, s.basis, s.confidence,
                         session.bands.costs if session.has_costs else None, session.cost_unit)
    return pd.DataFrame(rows, index=[f"Q{step.stage}" for step in steps[1:]])
