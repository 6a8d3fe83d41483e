"""Whether each question a list asks is known at the bedside before the outcome, as the
researcher confirms it.

The leak guard (:mod:`psl_triage.data.roles`, :mod:`psl_triage.training.too_good`) flags columns with
evidence in the data of being recorded after the outcome. A column recorded later without
such evidence (a birth weight beside preterm birth, a transplant beside death) passes every
test of the data: only the researcher knows when it was recorded. So after a list is trained
the Train page asks, for the questions the list asks at its recommended length
(:func:`asked_columns`) and for no other column, whether each is known at triage
(:data:`KNOWN`) or recorded later (:data:`LATER`). A question recorded later is never asked
again (the ``forbidden`` constraint, the knowledge table's "never") and the page offers to
train again. In a study export recorded in time points ("V3.*", "V5.*": :func:`psl_triage.data.roles.time_points`)
a column recorded later usually has siblings of its time point that are too: the page offers to
leave them out in the same click (:func:`same_time_point`), or the researcher would meet them one
list at a time.

The answers stay in the Train page's session per column of the table (a list trained again
keeps those already given) and go with the list: its metadata's ``"known_at_triage"`` entry
(:attr:`psl_triage.model_file.metadata.ModelMetadata.known_at_triage`, column -> answer, for the
questions it asks). A list is confirmed when every question it asks is answered
:data:`KNOWN`; a file without the entry (saved before lists carried it) is not confirmed.
:func:`timing_status` is the one reading of it, for the Train page, the card and the report.
"""

from __future__ import annotations

from dataclasses import dataclass

from psl_triage.bedside.session import recommended_length
from psl_triage.data.roles import time_points
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.words.known_at_triage import CONFIRMED, KNOWN, LATER, NO_QUESTION, NOT_CONFIRMED, RECORDED_LATER

ANSWERS = (KNOWN, LATER)


def asked_columns(model) -> tuple[str, ...]:
    """The columns the list asks about at its recommended length (the Triage page's default,
    :func:`~psl_triage.bedside.session.recommended_length`), each once, in the order asked; none
    for a list whose held-out evidence recommends asking nothing (``recommended_stages_`` 0):
    its questions are no list to confirm, whatever Triage offers to ask anyway."""
    stage = recommended_length(model)
    return tuple(dict.fromkeys(str(literal.column) for literal in model.literals_[:stage]))


def list_answers(model, answers) -> dict[str, str] | None:
    """The answers of ``answers`` (column -> :data:`KNOWN` | :data:`LATER`, for any columns)
    that concern the questions the list asks, as its metadata keeps them; None when none does."""
    kept = {column: answers[column] for column in asked_columns(model) if answers.get(column) in ANSWERS}
    return kept or None


@dataclass(frozen=True)
class TimingStatus:
    """Where the researcher's confirmation of a list stands.

    Attributes
    ----------
    state : str
        :data:`CONFIRMED` (every question asked is known at triage), :data:`RECORDED_LATER`
        (at least one is marked recorded later), :data:`NOT_CONFIRMED` (some are not answered
        yet, or the file carries no answers) or :data:`NO_QUESTION` (the list asks nothing).
    asked : tuple of str
        The columns the list asks about (:func:`asked_columns`).
    later, unanswered : tuple of str
        Those marked recorded later, and those not answered yet.
    """

    state: str
    asked: tuple[str, ...]
    later: tuple[str, ...] = ()
    unanswered: tuple[str, ...] = ()


def timing_status(model, metadata) -> TimingStatus:
    """Whether the researcher confirmed that each question ``model`` asks is known at triage,
    by ``metadata``'s (a :class:`~psl_triage.model_file.metadata.ModelMetadata` or a model file's dict)
    ``"known_at_triage"`` answers."""
    asked = asked_columns(model)
    answers = ModelMetadata.coerce(metadata).known_at_triage or {}
    later = tuple(column for column in asked if answers.get(column) == LATER)
    unanswered = tuple(column for column in asked if answers.get(column) not in ANSWERS)
    if not asked:
        state = NO_QUESTION
    elif later:
        state = RECORDED_LATER
    elif unanswered:
        state = NOT_CONFIRMED
    else:
        state = CONFIRMED
    return TimingStatus(state, asked, later, unanswered)


def same_time_point(later, columns) -> dict[str, tuple[str, ...]]:
    """The other columns of each time point a column recorded later belongs to.

    Parameters
    ----------
    later : sequence of str
        Columns marked recorded later.
    columns : sequence of str
        The columns the list could ask about (the prepared data's).

    Returns
    -------
    dict
        The time point's prefix as the first column of ``later`` there writes it ("V5" of
        "V5.PD.avg") -> the other columns of that time point, in the table's order; only time
        points with such columns (:func:`psl_triage.data.roles.time_points`: none in a table not
        recorded in time points).
    """
    points = time_points([str(column) for column in columns])
    groups: dict[str, tuple[str, ...]] = {}
    seen = set()
    for column in later:
        phase = points.get(column)
        if phase is None or phase in seen:
            continue
        seen.add(phase)
        others = tuple(name for name, point in points.items() if point == phase and name not in later)
        if others:
            groups[column[: len(phase)]] = others
    return groups
