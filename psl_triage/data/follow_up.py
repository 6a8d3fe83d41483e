"""Follow-up tables: a time and an event column, and the horizon of "risk within tau".

A follow-up table gives each patient a time (to the event, or to last contact) and a 0/1
status. The Data page proposes such a pair (:func:`guess_follow_up`: a follow-up time as
:mod:`psl_triage.data.roles` recognises one, and an outcome-named 0/1 column, paired by name as
"rtime"/"recur" or "dtime"/"death"), asks for the horizon with a sentence on who is censored
before it (:func:`horizon_text`), and never offers the time as a question. The learner then
predicts the risk of the event within the horizon, censoring respected
(:mod:`psl_core.survival`). Competing events are out of scope: a death from another cause is
censoring, and the risk is that of the event in a world without the competing one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from psl_core.errors import DataError
from psl_core.survival import held_out_targets, horizon_summary, survival_outcome
from psl_triage.data.censoring import censoring_of
from psl_triage.data.event_times import event_codes, follow_up_evidence, time_of
from psl_triage.data.outcome import WEAK_OUTCOME_WORDS
from psl_triage.data.roles import OUTCOME_TOKENS, follow_up_pairs, name_tokens, time_word
from psl_triage.words import lists as words
from psl_triage.words.common import share_of


@dataclass(frozen=True)
class FollowUp:
    """The user's time-to-event choice: the time column, the horizon and its unit."""

    time: str
    horizon: float
    unit: str = ""


def time_columns(df: pd.DataFrame, found: list | None = None) -> list:
    """Columns of non-negative values that are follow-up times: by how they behave with an event
    (:func:`psl_triage.data.event_times.follow_up_evidence`, follow-up times of their own first;
    ``found``: its result when already worked out) or by name ("futime", "rfstime")."""
    evidence = sorted(follow_up_evidence(df) if found is None else found, key=lambda item: item.longer is not None)
    found = list(dict.fromkeys(item.time for item in evidence if item.event is not None))
    for name in df.columns:
        values = pd.to_numeric(df[name], errors="coerce")
        tokens = name_tokens(name)
        if "tstart" in tokens:  # the start of an interval at risk (counting-process data): not its length
            continue
        if name not in found and time_word(tokens) and values.notna().mean() > 0.5 and (values.dropna() >= 0).all():
            found.append(name)
    return found


def numeric_columns(df: pd.DataFrame, times: list | None = None) -> list:
    """Every column of non-negative numbers the user may declare a follow-up time by hand:
    the follow-up times found (:func:`time_columns`, or ``times`` when already found) first."""
    found = time_columns(df) if times is None else list(times)
    for name in df.columns:
        values = pd.to_numeric(df[name], errors="coerce")
        if name not in found and values.notna().mean() > 0.5 and (values.dropna() >= 0).all() and values.nunique() > 2:
            found.append(name)
    return found


def time_evidence(df: pd.DataFrame, time: object, event: object) -> str | None:
    """Why the values show ``time`` as the follow-up time of ``event`` (the sentence of
    :func:`psl_triage.data.event_times.time_of`), None when they do not."""
    found = time_of(df, event) if event in df.columns else None
    return found.evidence if found is not None and found.time == time else None


def is_status(series: pd.Series) -> bool:
    """Whether a column looks like an event status: two or three distinct whole numbers
    (0/1; 1/2 as R's survival tables code censored/dead; 0/1/2 with a competing event)."""
    values = pd.to_numeric(pd.Series(series).dropna(), errors="coerce")
    distinct = values.unique()
    return values.notna().all() and 2 <= len(distinct) <= 3 and bool(np.all(distinct == np.round(distinct)))


def named_pairs(df: pd.DataFrame) -> list[tuple[object, object]]:
    """(event, time) pairs named alike: a status (:func:`is_status`) and the numeric column that
    is its time by name (:func:`psl_triage.data.roles.follow_up_pairs`)."""
    kinds = {
        name: "binary" if is_status(df[name]) else
        "numeric" if pd.to_numeric(df[name], errors="coerce").notna().mean() > 0.5 else "other"
        for name in df.columns
    }
    return follow_up_pairs(df, kinds, None)


def guess_follow_up(df: pd.DataFrame, found: list | None = None, times: list | None = None) -> tuple[object, object] | None:
    """A proposed (time column, event column) pair, or None.

    By name first: the event is a status column (:func:`is_status`) with an outcome word
    ("status", "death", "recur", "event"); where several are, the one sharing the time's
    initial ("dtime" with "death", "rtime" with "recur") or else the first. Without one, the
    first status whose name its time carries ("cmv" and "time.to.cmv", :func:`named_pairs`).
    Without a pair by name, the follow-up time the values show (``OS`` with ``Death``, ``t1``
    with ``d1``: :func:`psl_triage.data.event_times.follow_up_evidence`) with its event, unless
    that event is named like no outcome and a status named like one behaves as the time's event
    too (ascites at entry, its patients dying sooner, and the study's ``status``).
    ``found`` and ``times``: that evidence and :func:`time_columns` when already worked out
    (:class:`psl_triage.data.profile.TableProfile`).
    """
    found = follow_up_evidence(df) if found is None else found
    times = [time for time in (time_columns(df, found) if times is None else times) if time_word(name_tokens(time))]
    events = [
        name for name in df.columns
        if name not in times and is_status(df[name])
        and any(t in OUTCOME_TOKENS or t in WEAK_OUTCOME_WORDS for t in name_tokens(name))
    ]
    if not times or not events:
        pairs = named_pairs(df)
        if pairs:
            return pairs[0][1], pairs[0][0]
        own = [item for item in found if item.longer is None and item.event is not None]
        if not own:
            return None
        time, event = own[0].time, own[0].event
        if event not in events:  # a finding that shortens follow-up gives way to the status named so
            event = next((named for named in events if _follows(df, time, named)), event)
        return time, event
    for time in times:
        prefix = str(time).lower().removesuffix("time")
        for event in events:
            if len(prefix) == 1 and str(event).lower().startswith(prefix):
                return time, event
    return times[0], events[0]


def _follows(df: pd.DataFrame, time: object, event: object) -> bool:
    """Whether ``event``'s values behave with ``time`` as a follow-up time's event does
    (:attr:`psl_triage.data.censoring.Censoring.follows`)."""
    codes = event_codes(df[event])
    times = pd.to_numeric(df[time], errors="coerce").to_numpy(dtype=float)
    censoring = censoring_of(times, codes) if codes is not None else None
    return censoring is not None and censoring.follows


def event_time(df: pd.DataFrame, time: object, event: object, positive: list) -> tuple[np.ndarray, np.ndarray]:
    """Times and 0/1 events (``event`` in ``positive``) of the rows with both (DataError
    naming a time column that cannot serve)."""
    times = pd.to_numeric(df[time], errors="coerce")
    if times.notna().sum() == 0:
        raise DataError(words.TIME_WITHOUT_NUMBERS.format(time=str(time)))
    if (times.dropna() < 0).any():
        raise DataError(words.TIME_NEGATIVE.format(time=str(time)))
    known = times.notna() & df[event].notna()
    texts = {str(v) for v in positive}
    happened = df.loc[known, event].map(lambda v: str(v) in texts or str(v).removesuffix(".0") in texts)
    return times[known].to_numpy(float), happened.to_numpy(float)


def default_horizon(times: np.ndarray) -> float:
    """A round horizon near the median follow-up time: the nearest multiple of half its leading
    power of ten (median 1,855 days: 2,000; 1,230: 1,000; 1,400: 1,500; 5.3 years: 5.5)."""
    median = float(np.median(times))
    if median <= 0:
        return 1.0
    half = 10 ** np.floor(np.log10(median)) / 2
    return float(f"{max(half, np.round(median / half) * half):.12g}")


def horizon_text(times: np.ndarray, events: np.ndarray, horizon: float, unit: str = "") -> str:
    """One sentence on the horizon: events by it, censored before it (they drop out), followed beyond it."""
    counts = horizon_summary(survival_outcome(times, events), horizon)
    return words.horizon_sentence(counts, words.within(horizon, unit), share_of(counts["censored"], counts["n"]))


def horizon_labels(
    event_label: str, horizon: float, unit: str = "", negative_label: str | None = None, coded: bool = False,
    column: object = None,
) -> tuple[str, str]:
    """Names of the two classes of a time-to-event list, whatever the user named them, each
    with the horizon: ("death within 5 years", "no death within 5 years"); the user's
    ("recurrence", "no recurrence") become ("recurrence within 24 months", "no recurrence
    within 24 months") (:func:`psl_triage.words.lists.horizon_class_names`)."""
    return words.horizon_class_names(event_label, horizon, unit, negative_label, coded, column)


def survival_part(times: np.ndarray, events: np.ndarray, horizon: float, train_times=None, train_events=None):
    """The rows of a part (train or test) that count at the horizon, their outcome by it and
    their censoring weights (G from the training part when given, else from the part:
    :func:`psl_core.survival.held_out_targets`).

    Returns
    -------
    kept : ndarray of int, outcome : ndarray of int, weight : ndarray of float
    """
    part = survival_outcome(times, events)
    train = part if train_times is None else survival_outcome(train_times, train_events)
    targets = held_out_targets(train, part, horizon)
    kept = np.flatnonzero(targets.weight > 0)
    return kept, targets.outcome[kept], targets.weight[kept]


def proposed_follow_up(df: pd.DataFrame, outcome: object, positive: list, profile=None) -> FollowUp | None:
    """The time-to-event choice proposed for this outcome: the guessed time column when the
    outcome is the guessed event column, with a round horizon near the median follow-up.
    ``profile``: the table's :class:`~psl_triage.data.profile.TableProfile`, whose pair and
    follow-up evidence are then not worked out again."""
    pair = guess_follow_up(df) if profile is None else profile.follow_up_pair
    if pair is None or pair[1] != outcome:
        own = [time for event, time in named_pairs(df) if event == outcome]
        found = time_of(df, outcome, None if profile is None else profile.found_times, positive) if not own else None
        if not own and found is None:
            return None
        pair = (own[0] if own else found.time, outcome)
    times, _ = event_time(df, pair[0], outcome, positive)
    return FollowUp(pair[0], default_horizon(times), time_unit(pair[0]))


_UNIT_TOKENS = {
    "day": "days", "days": "days", "week": "weeks", "weeks": "weeks", "wk": "weeks", "wks": "weeks",
    "month": "months", "months": "months", "mo": "months", "mos": "months",
    "year": "years", "years": "years", "yr": "years", "yrs": "years",
}


def time_unit(name: object) -> str:
    """The unit a time column's name states ("OS_days" -> "days", "pfs.months" -> "months"),
    "" when it states none or several: a coded name ("t1", "OS") leaves the unit to the user."""
    units = {_UNIT_TOKENS[token] for token in name_tokens(name) if token in _UNIT_TOKENS}
    return units.pop() if len(units) == 1 else ""
