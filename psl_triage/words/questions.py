"""The bedside questionnaire's words (:mod:`psl_triage.bedside.questions`): a question, its answers,
what a missing value does, and an answer as the record gives it.

Names from files (a column's label and unit, a category's name) are returned as given, in
plain text: the Triage page escapes what it shows, the record keeps them as written.
"""

from psl_triage.words.common import points_text

NOT_RECORDED = "Not recorded"
"""The answer "no value exists" in short, as the list's rules say it: "Not recorded: counts as no"."""
UNKNOWN_TEXT = f"Unknown / {NOT_RECORDED.lower()}"
"""The one answer for a value not at hand, on a question whose list learned no direction for
a missing value (its column had none in training): the list follows both answers."""
UNKNOWN_AT_HAND_TEXT = "Unknown (there is an answer, but not at hand)"
"""On a question with a learned missing direction: a value exists (a lab done, a question
answered, a category recorded) but is not at hand; the list follows both answers."""
NOT_MEASURED_TEXT = f"{NOT_RECORDED} (never measured or asked)"
"""On a question with a learned missing direction: no value exists (a test not done, a question
not asked, a category not recorded); the answer goes where the list learned a missing value
goes. Worded to fit a lab, a questionnaire item and a recorded category alike."""
YES, NO = "yes", "no"
"""A binary column's two answers when its metadata names none."""
OTHER_CATEGORY = "other (none of these)"
"""The answer "none of the listed categories" of a categorical question without labels."""
UNKNOWN_ANSWER = "unknown"
NOT_MEASURED_ANSWER = NOT_RECORDED.lower()
"""The record's word for that answer, apart from "unknown"."""


def prompt(label, unit, binary_options=()):
    """The question: "Max heart rate (bpm)", "Sex: male / female" (a binary column's two
    answers), "Chest pain type"."""
    if binary_options:
        return f"{label}: {' / '.join(binary_options)}"
    return f"{label} ({unit})" if unit else label


def rule(condition, points):
    """Condition and points: "Max heart rate > 147.5 bpm: −2 points"."""
    return f"{condition}: {points_text(points)}"


def record_line(condition, points, note=""):
    """Condition and points for the record: "Max heart rate > 147.5 bpm (−2 points)", with
    the missing note (:func:`missing_note`) when there is one."""
    return f"{condition} ({points_text(points)}{'; ' + note if note else ''})"


def counts_as(counts_yes):
    """Where a missing answer goes: "counts as yes" or "counts as no"."""
    return f"counts as {YES if counts_yes else NO}"


def missing_rule(counts_yes, points):
    """What "not recorded" does: "Not recorded: counts as yes (−2 points)"."""
    return f"{NOT_RECORDED}: {counts_as(counts_yes)} ({points_text(points)})"


def missing_note(counts_yes):
    """Where a missing answer goes, for the list's table: "missing: counts as yes"."""
    return f"missing: {counts_as(counts_yes)}"


def value_text(value, unit):
    """A numeric answer with its unit: "152 bpm"."""
    value = f"{float(value):g}"
    return f"{value} {unit}" if unit else value


def recorded_answer(answer, holds, first_question=None):
    """An answered stage for the record: "152 bpm (condition met)"; ``first_question`` (1-based)
    when the stage was answered from an earlier question on the same column."""
    text = f"{answer} ({'condition met' if holds else 'not met'}"
    if first_question is not None:
        text += f"; as answered at question {first_question}"
    return text + ")"


def level_range(name, run, from_lowest, to_highest):
    """A grouping of an ordered column's levels as a range of them (``run``: their readable
    names in order, two or more): "Sleep: 7 hours or more" when it reaches the highest level,
    "Sleep: 5 hours or less" from the lowest, "Sleep: between 5 hours and 7 hours" between.
    A level whose name holds " or " or " and " is quoted, so the range reads one way."""
    first, last = (f"'{level}'" if " or " in level or " and " in level else level for level in (run[0], run[-1]))
    if to_highest:
        return f"{name}: {first} or more"
    if from_lowest:
        return f"{name}: {last} or less"
    return f"{name}: between {first} and {last}"
