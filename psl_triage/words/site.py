"""The words of judging a list on another site's table (:mod:`psl_triage.judging.validation`,
:mod:`psl_triage.judging.validation_horizon`): what is wrong with the table, its columns, codes and
units, and the notes on rows left out.

Names from the site's table or the model file are plain text in the templates here (quoted
with ``repr``), escaped with :func:`psl_triage.words.md` where a sentence is Markdown already.
"""

from psl_triage.words.common import plural
from psl_triage.words.escape import md


def left_out_without_time(count, time):
    """The note on a site's rows left out for want of a follow-up time in ``time``."""
    return f"Left out {plural(count, 'row')} without a follow-up time in {time!r}."

OUTCOME_NOT_IN_TABLE = "The outcome column {outcome!r} is not in the table. Choose the column holding the outcome."
CHOOSE_POSITIVE_VALUES = "Choose which values of {outcome!r} count as positive (the list's positive class)."
LEFT_OUT_WITHOUT_OUTCOME = "Left out {count} rows without a value for the outcome {outcome!r}."
NO_OUTCOME_VALUES = "No row has a value for the outcome {outcome!r}."
QUESTION_NOT_IN_TABLE = "{label} ({name!r}) is not in this table: every answer to it is missing, and no value was missing there in training, so the list learned no direction for a missing answer; only stages before question {first_stage} can be judged."
"""A column the list asks about with no learned direction for a missing answer, absent here."""
QUESTION_NOT_MEASURED_HERE = "{label} ({name!r}) is not in this table: every answer to it counts as \"not recorded\", yes or no as the list learned, as that answer does at the bedside."
"""A column the list asks about, absent here, whose missing answers the list learned a direction for."""
CHOSEN_COLUMN_NOT_IN_TABLE = "Column {source!r}, chosen for {label}, is not in the table."
NOT_NUMBERS_COUNT_MISSING = "{count} values of {source!r} are not numbers and count as missing."
UNSEEN_CATEGORIES_POOLED = "{source!r} has values not seen at training ({unseen}); they count as {pooled_category!r}, like the rarest values at training."
UNSEEN_CATEGORIES = "{source!r} has values not seen at training ({unseen}); they answer no to every question about a category."
BINARY_CODING_UNKNOWN = "{source!r} (for {label}) has the values {distinct}; this model file does not say which of them means yes. Recode the column as 0/1 (1 = yes)."
BINARY_TOO_MANY_VALUES = "{source!r} (for {label}) has {n_distinct} different values ({distinct}); a yes/no question needs two."
CHECK_UNIT = "Check the unit of {label} (column {source!r}): {reason}. A different unit or coding (e.g. 0 for not measured) makes the list's thresholds wrong."
"""A numeric column whose values look like another unit (``reason``: :func:`median_outside_range`
or :func:`median_scaled`)."""
NO_YES_VALUE = "No row of {source!r} has the value {one_text} (yes at training)."
TIME_NOT_IN_TABLE = "The time column {time!r} is not in the table. Choose the column holding the follow-up time."
TIMES_NOT_NUMBERS = "{count} values of the time column {time!r} are not numbers ({examples}). Choose the column holding the follow-up time, or correct those values."
NEGATIVE_TIMES = "The time column {time!r} has {count} negative times: a follow-up time is 0 or more. Correct them, or choose the column holding the follow-up time."
CHOOSE_TIME_COLUMN = "Choose the column holding the follow-up time."
TIME_IS_EVENT = "{time!r} is chosen as both the time and the event column: choose two columns."
NO_TIMES = "No row has a follow-up time in {time!r}."


def no_complete_answers(stage):
    """No site patient answers the stage's questions: "the first question" (no earlier stage to
    judge), "all of the first 3 questions" (judge an earlier one)."""
    asked = "the first question" if stage == 1 else f"all of the first {stage} questions"
    return (f"No patient here answers {asked} (a missing answer the list learned no direction for stays "
            f"unknown){'' if stage == 1 else ': judge an earlier stage'}.")


def _column(mismatch):
    """The site's column and the question it answers, as the coding errors name them:
    "Column 'cp' (for Chest pain)"."""
    return f"Column {md(repr(mismatch.source))} (for {md(mismatch.need.label)})"


def numbers_expected(mismatch, limits, unit):
    """A numeric column holding values that are not numbers (``mismatch``: a
    :class:`psl_triage.judging.validation.CodingMismatch`), with the list's training range when known."""
    unit = f" {unit}" if unit else ""
    learned = (
        f"numbers from {limits['min']:g} to {limits['max']:g}{md(unit)}"
        if isinstance(limits, dict) and all(isinstance(limits.get(k), (int, float)) for k in ("min", "max"))
        else "numbers"
    )
    unknown = mismatch.unknown
    return f"{_column(mismatch)} holds {md(', '.join(unknown[:3]))}{(' …' if len(unknown) > 3 else '')} here, where the list learned {learned}. Give each of these values a number in the list's unit below (e.g. the middle of a band), or count it as missing."


def coding_mismatch(mismatch):
    """A category or yes/no column coded otherwise than the list's (``mismatch``: a
    :class:`psl_triage.judging.validation.CodingMismatch`): both codings, names escaped."""
    here = ", ".join(md(v) for v in mismatch.unknown[:8]) + (" …" if len(mismatch.unknown) > 8 else "")
    labels = mismatch.training_labels
    coding = ", ".join(
        md(v) + (f" ({md(labels[v])})" if labels.get(v, v) != v else "") for v in mismatch.training_values
    )
    return f"{_column(mismatch)} is coded {md(', '.join(mismatch.site_values[:8]))} here, but {coding} in the list: {here} {('is' if len(mismatch.unknown) == 1 else 'are')} not in the list's coding. Map each value here to the list's coding below, or count it as missing."


def _with_unit(value, unit):
    """A number with its unit when there is one: "12 mm", "12"."""
    return f"{value:g} {unit}" if unit else f"{value:g}"


def median_outside_range(median, low, high, unit):
    """Why a column's unit is in doubt: its median here lies outside the training range."""
    return f"its median here, {_with_unit(median, unit)}, lies outside the training range {low:g} to {_with_unit(high, unit)}"


def median_scaled(median, mid, unit):
    """Why a column's unit is in doubt: its median here is a multiple of the training median."""
    return f"its median here, {_with_unit(median, unit)}, is {max(median / mid, mid / median):.1f} times {('larger' if median > mid else 'smaller')} than the training median {_with_unit(mid, unit)}"


def units_unchecked(names):
    """A model file without training ranges: the units of these columns cannot be checked."""
    return f"This model file has no training ranges (saved before they were recorded), so the units of {', '.join(repr(n) for n in names)} cannot be checked: compare them with the model card by hand."


def training_table_again(trained_on, n_rows, compared, escape=md):
    """The site's table looks like the list's own training data (``trained_on``: its name, or
    None); ``compared``: whether numeric columns' ranges and medians were compared too. Said on
    the Validate page and, in the same words, in the model report: ``escape`` writes the name
    (:func:`md` for Markdown, ``visible`` for the report's plain text)."""
    trained_on = "its training table" if trained_on is None else escape(trained_on)
    same = "and the same ranges and medians of its numeric columns" if compared else "with as many positive"
    return f"This table looks like the list's own training data ({trained_on}): {n_rows} patients, as many as that table, {same}. Judged on the patients it learned from, a list looks better than it will at another site: upload the other site's table."


def event_not_two_values(event, values):
    """An event column of one value or of more than two (``values``: its distinct values)."""
    count = "only one value" if len(values) == 1 else f"{len(values)} different values"
    return f"The event column {event!r} has {count} ({', '.join(str(v) for v in values[:5])}); an event column holds two: the event happened, or the patient was censored. Choose the event column, or recode it (competing events are not modelled: code another kind of event as censored)."


def horizon_out_of_reach(horizon, unit, time, longest):
    """No patient at the site is followed beyond the list's horizon (``longest``: the longest time)."""
    in_unit = f" ({unit})" if unit else ""
    return f"No patient here is followed beyond the list's horizon of {_with_unit(horizon, unit)} (the longest time in {time!r} is {longest:g}), so the risk within it cannot be judged. Check that {time!r} is in the list's time unit{in_unit}, or choose the column holding the follow-up time."
