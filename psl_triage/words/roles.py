"""The evidence sentences of column roles (:mod:`psl_triage.data.roles`): why a column is proposed
as an identifier, a time or date, or a possible leak, and how the page names each role.

Names and values from the table are plain text here; the Data page shows these sentences
with :func:`psl_triage.words.md`.
"""


ROLE_LABELS = {
    "question": "question candidate",
    "identifier": "identifier",
    "time": "time or date",
    "leak": "possible leak",
    "ignore": "ignore",
}
"""The roles a column can have, with how the page names them."""
PUT_BACK = " (put back)"
"""After a question candidate's role when the user put back a column proposed out."""
NO_CUT = "no cut"
ITS_CATEGORIES = "its categories"
"""The rule that tells the classes apart when a column has no cut, or is categorical."""


EVENT_WITH_OWN_TIME = "A 0/1 column with its own follow-up time ({time!r}): an event after baseline, another outcome of the study, not a finding at triage."
FILLED_AFTER_EVENT = (
    "Filled in only where {event!r} is 1 ({share} of those rows) and in none of the others: recorded after that "
    "event, not a finding at triage."
)
TIME_OF_EVENT = "The follow-up time of {event!r}: measured after baseline, up to that event."
RECORDED_WITH_OUTCOME = "Recorded at the outcome's own time point ({phase!r}, like {outcome!r}): not known at triage."
RECORDED_LATER = "Recorded at a later time point ({phase!r} comes after {own!r}, the outcome's, in the table's columns): after the outcome, not before it."
EMPTY_BUT_NOT_TELLING = "{empty} of its rows are empty, but not in a way that tells the classes apart: it is never filled in (one value in most rows would be a made-up predictor); the list learns where a missing answer goes."
NAMED_IDENTIFIER = "Named {id_name!r}, with {distinct} different values in {n_rows} rows."
RUNNING_NUMBER = "Whole numbers, different in every row, rising with the row order (rank correlation {correlation:.3f})."
FREE_TEXT = "Free text: {distinct} different values, {unique_share} of rows with a value no other row has (one per person)."
DATES_OR_TIMES = "Dates or times: measured on a calendar, not a patient's finding."
CALENDAR_DATES = "Dates (e.g. {example}): a calendar date, not a finding at triage."
NAMED_LIKE_TIME = "Named {word!r}; follow-up and waiting times are measured after baseline, often after the outcome."
DAY_COUNT = "Named {word!r}, with {distinct} different values from {first} to {last}: a count of days since baseline or a date, measured after it, often after the outcome."
CALENDAR_YEARS = "Calendar years ({first} to {last}): when something happened, not a finding at triage."
NAMED_LIKE_OUTCOME = "Named like another outcome or its cause ({word!r}) while {outcome!r} is the outcome: recorded at or after the event, not before it."
ALONE_TELLS_CLASSES = "Alone it tells {positive} from {negative} on held-out rows: {rule}, learned on half the rows, is right for {accuracy} of the other half (balanced). A value that defines the outcome or is recorded after it?"
FILLED_IN_FOR_ONE_CLASS = "Filled in only for {cls} ({present} of them, {other} of the others): recorded because of the outcome, not before it."
MISSINGNESS_TELLS_CLASSES = "Whether it is filled in tells {positive} from {negative} (balanced accuracy {accuracy}): its missingness carries the outcome."


def as_sentence(reason):
    """A type's reason ("numbers from 1 to 3") as a sentence ("Numbers from 1 to 3.")."""
    return reason[:1].upper() + reason[1:] + "."


def person_name(tokens):
    """A column named like a person's name (``tokens``: the words of its name)."""
    return f"A person's name ({' '.join(tokens)}): not something to score a patient on."


def second_outcome(phi):
    """A second 0/1 column correlated with the outcome (``phi``: their correlation)."""
    return (
        f"A second 0/1 column tied to the outcome (correlation {abs(phi):.2f}): another outcome of the study, "
        "or recorded after it?"
    )


def cut_at(text, high):
    """The one-cut rule that tells the classes apart, as said in :data:`ALONE_TELLS_CLASSES`."""
    return f"a cut at {text} (above it {'positive' if high else 'negative'})"


BETWEEN_DATES = (
    "The follow-up time of {event!r}: it counts the {unit} from {start!r} to {end!r}, and the patients with the "
    "event end earlier than those without (AUC {auc:.2f}). Measured after baseline, up to that event."
)
CENSORED_CODE = (
    "Behaves as the follow-up time of {event!r} with {code!r} as its censored value: the {n_events} patients with "
    "any other value have times from early on (a tenth below {event_low}, median {event_median}), those with "
    "{code!r} (median {censored_median}) make {at_end} of the longest tenth against {share} of all rows, as where a "
    "study's follow-up ends; the other values end follow-up as events that compete with the one chosen. Measured "
    "after baseline, up to that event."
)
FOLLOWS_EVENT = (
    "Behaves as the follow-up time of {event!r}: the {n_events} patients with the event have times from early "
    "on (a tenth below {event_low}, median {event_median}), those without it (median {censored_median}) make "
    "{at_end} of the longest tenth against {share} of all rows, as where a study's follow-up ends. Measured after "
    "baseline, up to that event."
)
FEW_CENSORED = (
    "Behaves as the follow-up time of {event!r}, the only column that does: the {n_events} patients with the "
    "event have times spread from early on (median {event_median}), the {n_censored} without it are followed "
    "longer (median {censored_median}, none below {censored_low}). Too few are censored to show it beyond "
    "chance, and to learn a yes/no list: check it is the follow-up time."
)
CLOSED_BY_DATE = (
    "Behaves as the follow-up time of {event!r} closed on one date: among the {n_censored} patients without the "
    "event, the later {start!r}, the shorter the time (rank correlation {rho:.2f}; {rho_events:.2f} among those "
    "with it), as when follow-up ends on one day for everyone. Measured after baseline, up to that event."
)
ENDS_AT_CUT_OFF = (
    "{share} of those without it end at exactly {cut_off}, the longest time, where no event is: the "
    "end of the study's follow-up."
)
TRACKS_TIME = (
    "Another event's time: never above the follow-up time {longer!r} ({share} of rows) and equal to it exactly "
    "where {event!r} is 0, as a time to {event!r} censored at the end of follow-up. Measured after baseline."
)
END_OF_OTHERS = (
    "The end of follow-up: {shorter} never above it and equal to it exactly where their own events did not "
    "happen, as times censored at its end. Measured after baseline."
)
ENDED_BY = "Its event is {event!r}: the patients with it end there earlier than those without."
CENSORED_TOGETHER = (
    "Another event's time: equal to the follow-up time {longer!r} exactly where {event!r} is 0 ({share} of those "
    "rows) and not where it is 1, as a time to {event!r} censored at the same end of follow-up. Measured after "
    "baseline."
)
TIME_OF_SOME = (
    "Another event's time: filled in only where {event!r} is 1 ({share} of rows) and never above the follow-up "
    "time {longer!r}, as the time to {event!r} for the patients it happened to. Measured after baseline."
)
SOME_RISE_WITH = (
    "Another event's time: filled in for {share} of rows only, never above the follow-up time {longer!r} and "
    "rising with it there (rank correlation {rho:.2f}), as the time to an event some patients had. Measured after "
    "baseline."
)
FILLED_WITH_TIME = (
    "Filled in exactly where {time!r}, another event's time, is: recorded with that event, after baseline, not a "
    "finding at triage."
)
AT_EXIT = (
    "Equals {entry!r} plus the follow-up time {longer!r} ({share} of rows): measured at the end of "
    "follow-up (an age or a date at exit), after baseline, not a finding at triage."
)
FILLED_TOGETHER = (
    "It and {event!r} are filled in for the same {share} of rows: an outcome recorded at follow-up, after baseline."
)
WITHIN_FOLLOW_UP = (
    "A time within follow-up: never above the follow-up time {longer!r}, equal to it in {equal} rows and rising "
    "with it (rank correlation {rho:.2f}), as the days of a treatment or a stay that ends with the follow-up for "
    "some. Recorded after baseline, not a finding at triage."
)
WITHIN_NEVER_EQUAL = (
    "A time within follow-up: never above the follow-up time {longer!r} in any row and rising with it (rank "
    "correlation {rho:.2f}), as the day of the last visit. Recorded after baseline, not a finding at triage."
)
RESCALED = (
    "{longer!r} rescaled: {longer!r} divided by it is {scales} wherever both are above 0, as a share of a planned "
    "length or a unit per group. Recorded when {longer!r} is, after baseline, not a finding at triage."
)
RISES_WITH = (
    "Rises in step with the follow-up time {longer!r} (rank correlation {rho:.2f}): a time or count recorded "
    "along follow-up, after baseline, not a finding at triage."
)

FILLED_ALONG_FOLLOW_UP = (
    "Filled in only for patients followed to {cut} or longer on {time!r} ({n_missing} followed shorter miss it): "
    "recorded along the follow-up, after baseline, not a finding at triage."
)
SERIES_ALONG_FOLLOW_UP = (
    "One of a numbered series whose members {first!r} to {last!r} ({n_along} of {n}) are filled in only while "
    "{time!r} lasts: the same measurement repeated along the follow-up, after baseline, not a finding at triage."
)
OTHER_STATUS_VALUE = (
    "Another value of the status {outcome!r} is one value of, written one column per value ({names}): never 1 "
    "together with {outcome!r} or with one another, and exactly one of them is 1 in {covered} of rows. How the "
    "follow-up ended, not a finding at triage."
)


def lone_separator(column, auc, next_column, next_auc, positive, negative):
    """A column far ahead of every other at telling the classes apart: is it known at triage?"""
    behind = f"the next best column, {str(next_column)!r}, reaches {next_auc:.2f}" if next_column is not None else (
        "no other column comes close")
    return (
        f"Alone it tells {positive} from {negative} with a held-out AUC of {auc:.2f}, while {behind}: a finding "
        f"known at triage seldom stands so far ahead. Is {str(column)!r} known at triage, before the outcome? "
        "Put it back if it is."
    )
