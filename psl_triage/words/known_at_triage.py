"""The words of "known at triage?" (:mod:`psl_triage.training.known_at_triage`): the Train page's
question for each question a list asks, its answers, where the confirmation stands, and the
sentence the card and the report carry.

The Train page's sentences are Markdown with names from files escaped here (:func:`md`); the
card's and report's are plain text, which :mod:`psl_triage.judging.card` escapes for HTML.
"""

from __future__ import annotations

from .escape import md

# The codes saved in a model file ("known_at_triage": {column: KNOWN or LATER}) and the states
# of psl_triage.training.known_at_triage.TimingStatus, here beside the words they read as.
KNOWN = "known"
"""The answer: the question's value is known at triage, before the outcome."""
LATER = "later"
"""The answer: the question's value is recorded after the outcome (never asked again)."""

CONFIRMED = "confirmed"
NOT_CONFIRMED = "not_confirmed"
RECORDED_LATER = "recorded_later"
NO_QUESTION = "no_question"
"""The states of :class:`~psl_triage.training.known_at_triage.TimingStatus`."""

HEADER = "Known at triage?"
ANSWERS = {KNOWN: "known at triage", LATER: "recorded later"}
"""The two answers per question, as the page offers them."""


def intro(n_asked: int) -> str:
    """What the page asks, above one answer per question the list asks."""
    which = "the column" if n_asked == 1 else f"each of the {n_asked} columns"
    return (
        f"No test of the data can tell when a column was recorded; you can. For {which} this list asks "
        "about at its recommended length, say whether its value is known at the bedside **before** the "
        "outcome. A column recorded later (at or after the outcome, or because of it) is never asked "
        "again: the list can be trained again without it."
    )


def _names(columns) -> str:
    return ", ".join(f"**{md(column)}**" for column in columns)


def status(state, later=(), unanswered=(), n_asked=0) -> str:
    """Where the confirmation of the current list stands (Markdown, names escaped)."""
    if state == CONFIRMED:
        which = "the column" if n_asked == 1 else f"each of the {n_asked} columns"
        return (f"Confirmed: you said {which} the list asks about is known at triage. "
                "The list's file, card and report say so.")
    if state == RECORDED_LATER:
        return (f"Recorded later: {_names(later)}. The list still asks about "
                f"{'it' if len(later) == 1 else 'them'}: do not use it at the bedside; train it again without.")
    if len(unanswered) == n_asked:
        which = "Not confirmed yet."
    else:
        which = (f"Not confirmed yet: {len(unanswered)} of the {n_asked} columns the list asks about "
                 f"{'is' if len(unanswered) == 1 else 'are'} not marked ({_names(unanswered)}).")
    return f"{which} The list can be used, but its card and report will say it was not confirmed."


def train_again(later) -> str:
    """The button that trains the list again without the columns recorded later."""
    return f"Train again without {', '.join(md(column) for column in later)}"


def train_again_with_time_point(prefix: str, n_others: int) -> str:
    """The button that also leaves out the other columns of a time point ("V5.*")."""
    return f"Train again without them and every other {md(prefix)} column ({n_others})"


NOT_HERE = ("To train again without them, load the table this list was trained on (Data page): "
            "they are set to be asked never on this page's table of what you know.")
SAVE_AGAIN = "Save the list again to keep your answers in its file."


def report_said(state, later=(), unanswered=(), asked=()) -> str:
    """The card's and report's sentence on the confirmation (plain text; "" for a list that asks
    nothing)."""
    if state == NO_QUESTION:
        return ""
    if state == CONFIRMED:
        return "The researcher confirmed that each question of the list is known at triage, before the outcome."
    if state == RECORDED_LATER:
        return (f"The researcher marked {', '.join(later)} as recorded after the outcome: "
                "do not use this list at the bedside.")
    if len(unanswered) == len(asked):
        return "Not confirmed that each question of the list is known at triage, before the outcome."
    return ("Not confirmed that each question of the list is known at triage, before the outcome "
            f"(not confirmed: {', '.join(unanswered)}).")
