"""Follow-up times found from how columns behave with their events, not from their names.

Study exports name times tersely (``OS``, ``RFS``, ``t1``, ``ta``, ``edrel``), so a name says
little. The values say more:

- a **follow-up time** and its 0/1 event (:func:`follow_up_evidence`): the patients with the
  event have times spread from near zero up, the patients without it (censored) are followed
  longer and make up most of the longest times, as at a study's end or an administrative
  cut-off (the event's rate falls with time, as a Kaplan-Meier curve would), or many of them
  end at exactly the longest time where no event is (the day the records closed:
  :data:`AT_CUT_OFF`);
- for the event the user chose (:func:`time_of`), two more: with only a few censored patients,
  the one column whose events spread from early on while the few censored sit later
  (:data:`FEW_CENSORED`); with follow-up closed on one date, the time that falls with the entry
  order among the censored patients only (:data:`CLOSED_BY_DATE`);
- **another event's time** that tracks a follow-up time: never above it (``RFS`` <= ``OS`` in
  every row) and equal to it exactly where its own event did not happen (censored at the end of
  follow-up), or rising with it in step (a time or count recorded after baseline), or a column
  equal to another plus the follow-up time (an age at exit: :func:`at_exit`).

A running number (an observation number in sorted rows) is never a time.

Every finding carries one sentence of evidence (:mod:`psl_triage.words.roles`). Baseline columns
(unrelated to any time) pass none of these tests: they are never found here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from psl_triage.data.after_baseline import TRACKS_FOLLOW_UP, never_above
from psl_triage.data.censoring import (
    EVENTS_FROM_ZERO,
    FEW_CENSORED,
    MIN_DISTINCT_AT_CUT_OFF,
    MIN_DISTINCT_TIMES,
    MIN_EVENTS,
    Censoring,
    censoring_of,
)
from psl_triage.data.values import running_number
from psl_triage.words import roles as words
from psl_triage.words.common import share

MIN_PRESENT = 0.9
"""A time or an event column is filled in for at least this share of rows."""
FILLED_TOGETHER = 0.5
"""A time and a 0/1 column filled in for fewer rows than :data:`MIN_PRESENT`, but for at least this
share, both in the same rows (:data:`EQUAL_WHERE_NO_EVENT` of them), are a pair when the time
behaves as the 0/1 column's follow-up time where they are filled in: an outcome recorded only for
the patients seen at a follow-up visit (the HELP trial's days to any substance use, 54 %)."""
MIN_EVENT_SHARE = 0.03
"""An event column's rarer value is at least this share of its rows: a finding of one patient
in a hundred (a rare diagnosis tied to a lab value) is no study's censored outcome."""
CLOSED_BY_DATE = -0.6
"""A time is the follow-up time of the chosen event closed on one calendar date when, among the
censored patients, it falls with another column (an entry date or year) at this rank correlation
or below, while among the patients with the event the two are at least :data:`EVENTS_UNLIKE`
less so, and the censored patients, a minority, entered last (:data:`ENTERED_LAST`): the later
one entered, the shorter one could be followed (KMsurv's bfeed: the weeks of breast feeding and
the year of birth, -0.78 among the 35 censored, -0.11 among the others). The time starts near
zero (its least value below :data:`EVENTS_FROM_ZERO` of its median: no calendar year) and varies
among the events. Two columns related in every row (an age and a year of birth) are so among
the events too."""
EVENTS_UNLIKE = 0.4
ENTERED_LAST = 0.9
EVENT_OF_A_TIME = 0.9
"""A 0/1 column left over is an event of a time found when it behaves as that time's event does
with at least this AUC: no finding at baseline sorts follow-up times so well."""
NEVER_ABOVE = 0.98
"""Another event's time is at most the follow-up time in this share of rows or more."""
EQUAL_WHERE_NO_EVENT = 0.95
"""Another event's time equals the follow-up time exactly where its event did not happen, and
is below it where it did, in this share of rows or more."""
MIN_EQUAL_ROWS = 5
"""Rows of each kind (equal, below) that pattern needs."""
CENSORED_TOGETHER = 0.8
"""Another event's time equals a follow-up time exactly where its 0/1 event is 0 and differs from
it where the event is 1, in this share of rows or more: the patients without that event were
censored at the same end of follow-up (burns: the time to excision equals the time to infection's
follow-up where no excision happened). It may lie above the follow-up time where the outcome
came first, so it need not be never above (:func:`_tracks`)."""
MOSTLY_EQUAL = 0.5
"""...with at least this share of the event's 0 rows exactly equal, and at most
:data:`RARELY_EQUAL` of its 1 rows: no baseline finding equals a follow-up time so often."""
RARELY_EQUAL = 0.1
PARTIAL_IN_STEP = 0.5
"""Rank correlation with the follow-up time, among the rows it fills, from which a time filled in for
some patients only and never above it is the time of an event they had (no baseline finding with
gaps rises with the follow-up time so; survival's mgus labs: -0.17 to 0.26)."""
SAME_CLOCK = 0.05
"""...and whose median there is at least this share of the follow-up time's: a time on the same
clock, not a lab value in small units that is never above a time in days."""
END_EVENT_ERRORS = 3.0
"""A follow-up time found by its structure, not by censoring (other events' times end at it,
:func:`_ends_of_others`; it counts the days between two dates, :func:`_between_dates`), takes as
its event a 0/1 column whose patients end there earlier by at least this many standard errors
(no floor): the structure is the evidence, the event only names what ends it."""
DATE_UNITS = {"days": 1.0, "weeks": 7.0, "months": 30.4375, "years": 365.25}
"""Days per unit of a time counted between two dates, to one unit (:func:`_between_dates`)."""
IN_STEP = 0.8
"""Rank correlation with a follow-up time from which a column never above it tracks it."""
WITHIN_IN_STEP = 0.5
"""Rank correlation with a follow-up time from which a column never above it and equal to it in
:data:`MIN_EQUAL_ROWS` rows or more is a time within follow-up (the days in a treatment that ends
at the relapse for some: quantreg's uis, 0.62); a baseline column almost never equals a follow-up
time, and one that does by chance does not rise with it."""
RISES_WITH_TIME = 0.9
"""Rank correlation with a follow-up time from which any column is recorded along it."""
MAX_SCALES = 4
"""A column whose ratio to a time found takes at most this many values (three significant digits)
in :data:`NEVER_ABOVE` of its rows is that time rescaled per group: the share of a planned
treatment completed (quantreg's uis: the days in treatment over 90 or 180 planned), a time in
another unit for some sites; never a finding at baseline."""


@dataclass(frozen=True)
class FoundTime:
    """A time column found from its values: its event (None when none fits), the follow-up
    time it tracks (None for a follow-up time of its own) and the evidence."""

    time: object
    event: object | None
    evidence: str
    longer: object | None = None


def event_codes(series: pd.Series) -> np.ndarray | None:
    """A status column as 1 (event), 0 (censored) and NaN (missing): two whole numbers (0/1;
    1/2 as R's survival tables code censored/dead), or 0/1/2 (with a competing event: any value
    above 0 is an event), or True/False; None for any other column (a grade 1/2/3)."""
    if ptypes.is_bool_dtype(series):
        return series.astype(float).to_numpy()
    values = pd.to_numeric(series, errors="coerce")
    if values.notna().sum() < series.notna().sum():
        return None
    distinct = values.dropna().unique()
    if not 2 <= len(distinct) <= 3 or not np.all(distinct == np.round(distinct)):
        return None
    if len(distinct) == 3 and distinct.min() != 0:
        return None
    return np.where(values.isna(), np.nan, (values > distinct.min()).astype(float))


def _times(df: pd.DataFrame, few_values: bool = False) -> dict[object, np.ndarray]:
    """The columns that could be times: numbers, none negative, filled in enough, many values
    (``few_values``: or :data:`MIN_DISTINCT_AT_CUT_OFF` or more), not a running number."""
    found = {}
    for name in df.columns:
        series = df[name]
        if ptypes.is_bool_dtype(series) or not (ptypes.is_numeric_dtype(series) or series.dtype == object):
            continue
        values = pd.to_numeric(series, errors="coerce")
        present = values.dropna()
        if len(present) < MIN_PRESENT * len(values) or len(present) == 0 or (present < 0).any():
            continue
        needed = min(MIN_DISTINCT_TIMES, max(len(present) // 4, 5))
        enough = present.nunique() >= (min(needed, MIN_DISTINCT_AT_CUT_OFF) if few_values else needed)
        if enough and running_number(values) is None:
            found[name] = values.to_numpy(dtype=float)
    return found


def _events(df: pd.DataFrame) -> dict[object, np.ndarray]:
    found = {}
    for name in df.columns:
        codes = event_codes(df[name])
        if codes is None or np.isnan(codes).mean() > 1 - MIN_PRESENT:
            continue
        rarer = min(np.nansum(codes), np.sum(codes == 0))
        if rarer >= max(MIN_EVENTS, MIN_EVENT_SHARE * np.sum(~np.isnan(codes))):
            found[name] = codes
    return found


def _tracks(short: np.ndarray, long: np.ndarray, events: dict) -> tuple[object, float] | None:
    """Whether ``short`` is another event's time censored at ``long``: never above it, equal to
    it exactly where its event (returned, with the share of rows never above) is 0."""
    rows = ~np.isnan(short) & ~np.isnan(long)
    if rows.sum() == 0:
        return None
    below_or_equal = float(np.mean(short[rows] <= long[rows]))
    equal, below = short == long, short < long
    if below_or_equal < NEVER_ABOVE or min(int(np.sum(equal & rows)), int(np.sum(below & rows))) < MIN_EQUAL_ROWS:
        return None
    best, agreement = None, EQUAL_WHERE_NO_EVENT
    for name, codes in events.items():
        both = rows & ~np.isnan(codes)
        if both.sum() == 0:
            continue
        agrees = float(np.mean(below[both] == (codes[both] == 1)))
        if agrees >= agreement:
            best, agreement = name, agrees
    return None if best is None else (best, below_or_equal)


def _rank_matrix(columns: dict[object, np.ndarray]) -> np.ndarray:
    """Each column's ranks, centred and scaled, missing values at the centre: their products
    are rank correlations (pulled towards 0 where values are missing)."""
    ranks = pd.DataFrame(columns).rank()
    ranks = (ranks - ranks.mean()).fillna(0.0)
    scale = np.sqrt((ranks**2).sum()).replace(0, 1)
    return (ranks / scale).to_numpy()


def follow_up_evidence(df: pd.DataFrame) -> list[FoundTime]:
    """Every follow-up time and every other event's time the values show, with evidence.

    First the times that track a longer one (:func:`_tracks`: another event's time, with its
    event when one fits), then each remaining time with the 0/1 column it behaves with as a
    follow-up time does, the best first (:attr:`Censoring.follows`), one event per time, then
    the columns rising with a follow-up time in step (:data:`IN_STEP`, :data:`RISES_WITH_TIME`).
    """
    times, events = _times(df), _events(df)
    every = _times(df, few_values=True)  # with the times of few values that end at a cut-off
    if not every:
        return []
    found: dict[object, FoundTime] = {}
    censoring = {(time, event): censoring_of(every[time], codes) for time in every for event, codes in events.items()}
    long = [time for time in every if any(c is not None and c.follows for (t, _), c in censoring.items() if t == time)]
    ends = _ends_of_others(every, events, long)
    long += list(ends)
    for short in times:
        for longer in long:
            tracked = None if short == longer else _tracks(times[short], every[longer], events)
            if tracked is not None:
                found[short] = FoundTime(short, tracked[0], words.TRACKS_TIME.format(
                    longer=str(longer), share=share(tracked[1]), event=str(tracked[0])), longer)
                break
    taken = {item.event for item in found.values()}
    ranked = sorted(((c.auc, time, event) for (time, event), c in censoring.items() if c is not None and c.follows
                     and time not in found and event not in taken), key=lambda item: -item[0])
    for _, time, event in ranked:
        if time not in found and event not in taken:
            found[time] = FoundTime(time, event, _follow_up_sentence(event, censoring[time, event]))
            taken.add(event)
    _end_events(censoring, ends, found, taken)
    _censored_together(every, events, found, taken)
    _filled_together(df, every, found, taken)
    _times_of_some(df, events, found, taken)
    _in_step(df, every, found)
    _rescaled(df, found)
    for item in at_exit(df, [item.time for item in found.values() if item.longer is None], found):
        found[item.time] = item
    return [*found.values(), *_events_of_found_times(censoring, events, found, taken)]


def _filled_together(df: pd.DataFrame, every: dict, found: dict[object, FoundTime], taken: set) -> None:
    """Add each pair of a time and a 0/1 column filled in together for some rows only
    (:data:`FILLED_TOGETHER`) where the time behaves as the column's follow-up time
    (:attr:`Censoring.follows`), the best first; its values join ``every`` as a follow-up time's."""
    present = df.notna().mean()
    partial = [name for name in df.columns if FILLED_TOGETHER <= present[name] < MIN_PRESENT
               and name not in found and name not in taken and not ptypes.is_bool_dtype(df[name])]
    codes = {name: event_codes(df[name]) for name in partial}
    codes = {name: values for name, values in codes.items() if values is not None
             and min(np.nansum(values), np.sum(values == 0)) >= MIN_EVENTS}
    times = {name: pd.to_numeric(df[name], errors="coerce").to_numpy(dtype=float) for name in partial if name not in codes}
    scored = []
    for time, values in times.items():
        if np.nanmin(values, initial=0.0) < 0 or len(np.unique(values[~np.isnan(values)])) < MIN_DISTINCT_TIMES:
            continue
        for event, event_values in codes.items():
            censoring = censoring_of(values, event_values)
            together = np.mean(np.isnan(values) == np.isnan(event_values)) >= EQUAL_WHERE_NO_EVENT
            if together and censoring is not None and censoring.follows:
                scored.append((censoring.auc, time, event, censoring))
    for _, time, event, censoring in sorted(scored, key=lambda item: -item[0]):
        if time not in found and event not in taken:
            found[time] = FoundTime(time, event, _follow_up_sentence(event, censoring) + " " + words.FILLED_TOGETHER.format(
                event=str(event), share=share(float(np.mean(~np.isnan(times[time]))))))
            every[time] = times[time]
            taken.add(event)


def _ends_of_others(times: dict, events: dict, long: list) -> dict[object, list]:
    """The times, none in ``long``, that another time tracks (:func:`_tracks`: never above it,
    equal to it exactly where its own event is 0): the end of follow-up of those events, though no
    event shows it by censoring alone (an HIV cohort's death time, where AIDS and the SI switch
    are censored at it and most patients reach one event). Each -> the times that end at it."""
    ends = {}
    for end, values in times.items():
        if end in long:
            continue
        shorter = [short for short in times if short != end and _tracks(times[short], values, events) is not None]
        if shorter:
            ends[end] = shorter
    return ends


def _end_events(censoring: dict, ends: dict, found: dict[object, FoundTime], taken: set) -> None:
    """Add each end of follow-up (:func:`_ends_of_others`) not found otherwise, with the event
    left whose patients end there earlier (:data:`END_EVENT_ERRORS`), or None."""
    for end, shorter in ends.items():
        if end in found:
            continue
        scored = [(c.auc, event) for (time, event), c in censoring.items() if time == end and c is not None
                  and event not in taken and c.auc >= 0.5 + END_EVENT_ERRORS * c.chance_error]
        event = max(scored, key=lambda item: item[0])[1] if scored else None
        tracked = ", ".join(repr(str(name)) for name in shorter if name in found)
        found[end] = FoundTime(end, event, words.END_OF_OTHERS.format(shorter=tracked or repr(str(shorter[0])))
                               + ("" if event is None else " " + words.ENDED_BY.format(event=str(event))))
        if event is not None:
            taken.add(event)


def _events_of_found_times(censoring: dict, events: dict, found: dict[object, FoundTime], taken: set) -> list[FoundTime]:
    """The 0/1 columns left that are events of a time found with its own event: they behave as
    its event almost as well as a follow-up time's event does (:data:`EVENT_OF_A_TIME`), or
    they are 1 wherever a found event is, and more often (a disease-free survival indicator,
    relapse or death, beside the relapse's own indicator); each with the time it sorts best."""
    extra = []
    paired = {item.event: item.time for item in found.values() if item.event in events}
    for event, codes in events.items():
        if event in taken:
            continue
        covered = [time for other, time in paired.items() if _covers(codes, events[other])]
        scored = [(censoring[time, event], time) for time in {item.time for item in found.values()}
                  if censoring.get((time, event)) is not None]
        strong = [(item.auc, time) for item, time in scored
                  if time in covered or (item.follows and item.auc >= EVENT_OF_A_TIME)]
        if strong:
            time = max(strong, key=lambda pair: pair[0])[1]
            extra.append(FoundTime(time, event, _follow_up_sentence(event, censoring[time, event])))
    return extra


def _covers(codes: np.ndarray, other: np.ndarray) -> bool:
    """Whether a 0/1 column is 1 in every row where ``other`` (an event's, with
    :data:`MIN_EVENTS` or more) is, and in more rows: an event of which ``other`` is a part."""
    both = ~np.isnan(codes) & ~np.isnan(other)
    happened = both & (other == 1)
    return (int(happened.sum()) >= MIN_EVENTS and bool(np.all(codes[happened] == 1))
            and int(np.sum(codes[both] == 1)) > int(happened.sum()))


def _follow_up_sentence(event: object, censoring: Censoring) -> str:
    sentence = words.FOLLOWS_EVENT.format(
        event=str(event), n_events=censoring.n_events, event_median=f"{censoring.event_median:.4g}",
        censored_median=f"{censoring.censored_median:.4g}", event_low=f"{censoring.event_low:.4g}",
        at_end=share(censoring.censored_at_end), share=share(censoring.censored_share))
    if not censoring.ends_at_cut_off:
        return sentence
    return sentence + " " + words.ENDS_AT_CUT_OFF.format(
        share=share(censoring.censored_at_cut_off), cut_off=f"{censoring.cut_off:.4g}")


def _censored_together(times: dict, events: dict, found: dict[object, FoundTime], taken: set) -> None:
    """Add each time left that is another event's time censored with a follow-up time found: equal
    to it exactly where a 0/1 column left is 0 and not where it is 1 (:data:`CENSORED_TOGETHER`,
    :data:`MOSTLY_EQUAL`, :data:`RARELY_EQUAL`), with that column as its event. A follow-up time
    found with its own event is said so too when that event is the column (burns: the time to
    excision behaves as a follow-up time with its indicator, censored at the infection's)."""
    follow_ups = [item.time for item in found.values() if item.longer is None]
    for name, values in times.items():
        own = found.get(name)
        if name in taken or (own is not None and (own.longer is not None or own.event not in events)):
            continue
        for longer in (time for time in follow_ups if time != name):
            equal = values == times[longer]
            if int(equal.sum()) < MIN_EQUAL_ROWS:
                continue
            allowed = [own.event] if own is not None else [event for event in events if event not in taken]
            event = next((event for event in allowed if _censored_with(equal, events[event])), None)
            if event is not None:
                found[name] = FoundTime(name, event, words.CENSORED_TOGETHER.format(
                    longer=str(longer), event=str(event), share=share(float(np.mean(equal[events[event] == 0])))), longer)
                taken.add(event)
                break


def _censored_with(equal: np.ndarray, codes: np.ndarray) -> bool:
    """Whether rows equal to a follow-up time (``equal``) are the rows where ``codes`` is 0."""
    known = ~np.isnan(codes)
    without, happened = known & (codes == 0), known & (codes == 1)
    if min(int(without.sum()), int(happened.sum())) < MIN_EVENTS:
        return False
    return (float(np.mean(equal[known] == without[known])) >= CENSORED_TOGETHER
            and float(np.mean(equal[without])) >= MOSTLY_EQUAL and float(np.mean(equal[happened])) <= RARELY_EQUAL)


def times_along_named(df: pd.DataFrame, found: list[FoundTime], named_times) -> list[FoundTime]:
    """The times filled in for some patients only (:func:`_times_of_some`) measured against the
    follow-up times known by their names (``futime`` beside ``death``) that the values did not
    show (too few censored patients: survival's mgus), beyond ``found``
    (:func:`follow_up_evidence`)."""
    known = {item.time: item for item in found}
    named = [time for time in dict.fromkeys(named_times) if time not in known and time in df.columns]
    if not named:
        return []
    more = {time: FoundTime(time, None, "") for time in named}  # follow-up times, not returned
    taken = {item.event for item in found if item.event is not None}
    grown = {**known, **more}
    _times_of_some(df, _events(df), grown, taken)
    return [item for name, item in grown.items() if name not in known and name not in more]


def _times_of_some(df: pd.DataFrame, events: dict, found: dict[object, FoundTime], taken: set) -> None:
    """Add the times filled in only for the patients an event happened to (the wait for a
    transplant): numbers, none negative, never above a follow-up time (:data:`NEVER_ABOVE`),
    present exactly where a 0/1 column left is 1 (:data:`EQUAL_WHERE_NO_EVENT`), or, without
    such a column, rising with the follow-up time in step among the rows they fill
    (:data:`IN_STEP`)."""
    follow_ups = [item.time for item in found.values() if item.longer is None]
    for name in df.columns:
        values = pd.to_numeric(df[name], errors="coerce").to_numpy(dtype=float)
        present = ~np.isnan(values)
        if (name in found or name in taken or not follow_ups or ptypes.is_bool_dtype(df[name])
                or present.mean() >= MIN_PRESENT or present.sum() < MIN_EVENTS or (values[present] < 0).any()):
            continue
        event = next((event for event, codes in events.items() if event not in taken
                      and np.mean(present == (codes == 1)) >= EQUAL_WHERE_NO_EVENT), None)
        longer = next((time for time in follow_ups if time != name
                       and np.mean(values[present] <= df[time].to_numpy(dtype=float)[present]) >= NEVER_ABOVE), None)
        if longer is None:
            continue
        if event is not None:
            found[name] = FoundTime(name, event, words.TIME_OF_SOME.format(
                longer=str(longer), event=str(event), share=share(float(present.mean()))), longer)
            taken.add(event)
            continue
        # No 0/1 column says which patients: the time itself, on the follow-up time's clock and
        # rising with it among the rows it fills (survival's mgus: the time to progression, 0.80).
        follow_up = df[longer].to_numpy(dtype=float)[present]
        rho = pd.Series(values[present]).corr(pd.Series(follow_up), method="spearman")
        if rho >= PARTIAL_IN_STEP and np.median(values[present]) >= SAME_CLOCK * np.median(follow_up):
            found[name] = FoundTime(name, None, words.SOME_RISE_WITH.format(
                longer=str(longer), share=share(float(present.mean())), rho=rho), longer)


def filled_with(df: pd.DataFrame, name: object) -> list:
    """The other columns filled in exactly where ``name`` is (in :data:`EQUAL_WHERE_NO_EVENT` of
    the rows or more) when ``name`` is filled in for some rows only: recorded together with it
    (the type of a progression beside its time)."""
    present = df[name].notna().to_numpy()
    if present.mean() >= MIN_PRESENT or present.sum() < MIN_EVENTS:
        return []
    return [other for other in df.columns if other != name
            and np.mean(df[other].notna().to_numpy() == present) >= EQUAL_WHERE_NO_EVENT]


def filled_after(df: pd.DataFrame, event: object) -> dict[object, float]:
    """The columns filled in only where ``event`` (a 0/1 column found with its own time) is 1,
    and in most of those rows (the mismatch score of a transplant): recorded after that event.
    Each -> the share of the event's rows it fills; the event's other rows are
    :data:`MIN_EVENTS` or more, at most one in fifty of them filled in."""
    codes = event_codes(df[event])
    if codes is None:
        return {}
    happened, not_yet = codes == 1, codes == 0
    if min(int(happened.sum()), int(not_yet.sum())) < MIN_EVENTS:
        return {}
    filled = {}
    for name in df.columns:
        present = df[name].notna().to_numpy()
        if name != event and present[not_yet].mean() <= 1 - NEVER_ABOVE and present[happened].mean() >= 0.5:
            filled[name] = float(present[happened].mean())
    return filled


def at_exit(df: pd.DataFrame, follow_ups: list, known=()) -> list[FoundTime]:
    """The columns that equal another column plus a follow-up time (of ``follow_ups``) in
    :data:`NEVER_ABOVE` of the rows or more: measured at the end of follow-up (the age at exit
    beside the age at entry, a date of last contact beside the date of entry), not at triage;
    none of ``known`` (columns already found) nor a follow-up time."""
    numbers = {}
    for name in df.columns:
        values = pd.to_numeric(df[name], errors="coerce") if not ptypes.is_bool_dtype(df[name]) else None
        if values is not None and values.notna().mean() >= MIN_PRESENT and values.nunique() > 2:
            numbers[name] = values.to_numpy(dtype=float)
    names = list(numbers)
    if not names or not any(time in numbers for time in follow_ups):
        return []
    sample = np.column_stack([numbers[name][:64] for name in names])  # a pair must hold here first
    found = []
    for time in dict.fromkeys(time for time in follow_ups if time in numbers):
        candidates = [(name, base) for end, name in enumerate(names) if name not in known and name not in follow_ups
                      for base in _equal_columns(sample[:, end] - sample[:, names.index(time)], sample, names)]
        for name, base in candidates:
            if base == time or name == base:
                continue
            equal = np.isclose(numbers[name] - numbers[time], numbers[base], rtol=1e-9, atol=1e-9)
            if np.mean(equal) >= NEVER_ABOVE and name not in {item.time for item in found}:
                found.append(FoundTime(name, None, words.AT_EXIT.format(
                    entry=str(base), longer=str(time), share=share(float(np.mean(equal)))), time))
    return found


def _equal_columns(values: np.ndarray, sample: np.ndarray, names: list) -> list:
    """The names of the columns of ``sample`` equal to ``values`` in :data:`NEVER_ABOVE` of the rows."""
    close = np.isclose(values[:, None], sample, rtol=1e-9, atol=1e-9) | np.isnan(values)[:, None]
    return [names[index] for index in np.flatnonzero(close.mean(axis=0) >= NEVER_ABOVE)]


def _in_step(df: pd.DataFrame, times: dict, found: dict[object, FoundTime]) -> None:
    """Add the numeric columns that rise with a follow-up time in step, or never pass it, reach it
    in some rows and rise with it (:data:`WITHIN_IN_STEP`), or never pass it in any row and rise with it
    (:func:`~psl_triage.data.after_baseline.never_above`): recorded after baseline."""
    follow_ups = [item.time for item in found.values() if item.longer is None]
    events = {item.event for item in found.values()}
    numbers = {}
    for name in df.columns:
        if name in found or name in events or ptypes.is_bool_dtype(df[name]):
            continue
        values = pd.to_numeric(df[name], errors="coerce")
        if values.notna().mean() >= MIN_PRESENT and values.nunique() > 2:
            numbers[name] = values.to_numpy(dtype=float)
    if not follow_ups or not numbers:
        return
    correlation = _rank_matrix(numbers).T @ _rank_matrix({time: times[time] for time in follow_ups})
    for index, name in enumerate(numbers):
        best = int(np.argmax(correlation[index]))
        rho, longer = float(correlation[index, best]), follow_ups[best]
        below = np.nanmean(numbers[name] <= times[longer]) >= NEVER_ABOVE
        equal = int(np.sum(numbers[name] == times[longer]))
        if rho >= RISES_WITH_TIME or (rho >= IN_STEP and below):
            found[name] = FoundTime(name, None, words.RISES_WITH.format(longer=str(longer), rho=rho), longer)
        elif rho >= WITHIN_IN_STEP and below and equal >= MIN_EQUAL_ROWS:
            found[name] = FoundTime(name, None, words.WITHIN_FOLLOW_UP.format(
                longer=str(longer), equal=equal, rho=rho), longer)
        elif rho >= TRACKS_FOLLOW_UP and never_above(numbers[name], times[longer], SAME_CLOCK):
            found[name] = FoundTime(name, None, words.WITHIN_NEVER_EQUAL.format(longer=str(longer), rho=rho), longer)


def _rescaled(df: pd.DataFrame, found: dict[object, FoundTime]) -> None:
    """Add the numeric columns that are a time found rescaled per group (:data:`MAX_SCALES`)."""
    events = {item.event for item in found.values()}
    for name in df.columns:
        if name in found or name in events or ptypes.is_bool_dtype(df[name]):
            continue
        values = pd.to_numeric(df[name], errors="coerce").to_numpy(dtype=float)
        present = ~np.isnan(values)
        if present.mean() < MIN_PRESENT or len(np.unique(values[present])) <= 2:
            continue
        for time in list(found):
            base = pd.to_numeric(df[time], errors="coerce").to_numpy(dtype=float)
            both = present & (values > 0) & (base > 0)
            if both.sum() < NEVER_ABOVE * present.sum():
                continue
            ratios = base[both] / values[both]
            if len(_three_digits(ratios[:200])) > MAX_SCALES:  # most pairs fail on the first rows
                continue
            scales = _three_digits(ratios)
            if len(scales) <= MAX_SCALES:
                found[name] = FoundTime(name, None, words.RESCALED.format(
                    longer=str(time), scales=", ".join(f"{scale:g}" for scale in scales)), time)
                break


def _three_digits(values: np.ndarray) -> np.ndarray:
    """The distinct positive ``values`` rounded to three significant digits."""
    power = 10.0 ** np.floor(np.log10(values))
    return np.unique(np.round(values / power, 2) * power)


def _censored_code(status: pd.Series, positive: list, times: dict) -> FoundTime | None:
    """The time of a status of several values (``positive`` the event chosen) that behaves as the
    follow-up time of "any value but one" (:attr:`_Censoring.follows`): that one is the censored
    code, the other values events that compete with the chosen one (a waiting list: transplant,
    death, withdrawal; the chosen death alone shows nothing, those transplanted leaving early)."""
    best = None
    for code in status.dropna().unique():
        if code in positive:
            continue
        codes = np.where(status.isna(), np.nan, (status != code).astype(float))
        for time, values in times.items():
            censoring = censoring_of(values, codes)
            if censoring is not None and censoring.follows and (best is None or censoring.auc > best[0].auc):
                best = (censoring, time, code)
    if best is None:
        return None
    censoring, time, code = best
    return FoundTime(time, status.name, words.CENSORED_CODE.format(
        event=str(status.name), code=str(code), n_events=censoring.n_events, event_median=f"{censoring.event_median:.4g}",
        censored_median=f"{censoring.censored_median:.4g}", event_low=f"{censoring.event_low:.4g}",
        at_end=share(censoring.censored_at_end), share=share(censoring.censored_share)))


def time_of(df: pd.DataFrame, event: object, found: list[FoundTime] | None = None,
            positive=None) -> FoundTime | None:
    """The time of one event column: the one found with it (:func:`follow_up_evidence`), else
    the time column it behaves best with as a follow-up time does (a time found as another
    event's only where no other passes: ACTG 320's death beside the time to AIDS or death),
    else the one time of its few censored patients (:data:`FEW_CENSORED`) or closed on one date
    (:data:`CLOSED_BY_DATE`); None without one.
    ``positive``: the values that are the event, as the user chose them, for a status of other
    codes (MASS's Melanoma: 1 died of melanoma, 2 alive, 3 died of other causes)."""
    found = follow_up_evidence(df) if found is None else found
    own = next((item for item in found if item.event == event), None)
    codes = event_codes(df[event]) if event in df.columns else None
    if codes is None and own is None and positive and event in df.columns:
        codes = np.where(df[event].isna(), np.nan, df[event].isin(list(positive)).astype(float))
    if own is not None or codes is None:
        return own
    others = {item.time for item in found if item.event is not None}
    times = {time: values for time, values in _times(df, few_values=True).items() if time != event}
    passing = [(time not in others, censoring.auc, time, censoring) for time, values in times.items()
               if (censoring := censoring_of(values, codes)) is not None and censoring.follows]
    if passing:
        *_, time, censoring = max(passing, key=lambda item: item[:2])
        return FoundTime(time, event, _follow_up_sentence(event, censoring))
    coded = _censored_code(df[event], positive, times) if event_codes(df[event]) is None and positive else None
    return (coded or _few_censored_time(times, event, codes) or _closed_by_date(df, times, event, codes)
            or _between_dates(df, times, event, codes))


def _dates(df: pd.DataFrame) -> dict[object, pd.Series]:
    """The columns of calendar dates: read as dates, or text of which nine in ten read as ISO dates."""
    found = {}
    for name in df.columns:
        series = df[name]
        if ptypes.is_datetime64_any_dtype(series):
            found[name] = series
        elif (series.dtype == object or ptypes.is_string_dtype(series)) and pd.to_datetime(
                series.dropna().head(20), format="ISO8601", errors="coerce").notna().all():  # the first rows first
            dates = pd.to_datetime(series, format="ISO8601", errors="coerce")
            if dates.notna().sum() >= MIN_PRESENT * series.notna().sum() > 0:
                found[name] = dates
    return found


def _between_dates(df: pd.DataFrame, times: dict, event: object, codes: np.ndarray) -> FoundTime | None:
    """The time of ``event`` that counts the days (weeks, months, years: :data:`DATE_UNITS`)
    between two dates in :data:`NEVER_ABOVE` of the rows, a registry's diagnosis and last contact,
    with the event's patients ending earlier (:data:`END_EVENT_ERRORS`); None without one."""
    dates = _dates(df) if times else {}
    for start, end in ((start, end) for start in dates for end in dates if start != end):
        days = (dates[end] - dates[start]).dt.total_seconds().to_numpy() / 86400.0
        if np.nanmean(days >= 0) < NEVER_ABOVE:
            continue
        for time, values in times.items():
            unit = next((unit for unit, length in DATE_UNITS.items()
                         if np.nanmean(np.abs(values * length - days) <= length) >= NEVER_ABOVE), None)
            censoring = censoring_of(values, codes) if unit is not None else None
            if censoring is not None and censoring.auc >= 0.5 + END_EVENT_ERRORS * censoring.chance_error:
                return FoundTime(time, event, words.BETWEEN_DATES.format(
                    unit=unit, start=str(start), end=str(end), event=str(event), auc=censoring.auc))
    return None


def _few_censored_time(times: dict, event: object, codes: np.ndarray) -> FoundTime | None:
    """The one time of ``event`` with few censored patients (:data:`FEW_CENSORED`), or None."""
    if not FEW_CENSORED <= np.sum(codes == 0) < MIN_EVENTS:
        return None
    later = [(censoring, time) for time, values in times.items()
             if (censoring := censoring_of(values, codes, FEW_CENSORED)) is not None and censoring.few_censored_follow]
    if len(later) != 1:
        return None
    censoring, time = later[0]
    return FoundTime(time, event, words.FEW_CENSORED.format(
        event=str(event), n_events=censoring.n_events, event_median=f"{censoring.event_median:.4g}",
        n_censored=int(np.sum(codes == 0)), censored_median=f"{censoring.censored_median:.4g}",
        censored_low=f"{censoring.censored_low:.4g}"))


def _closed_by_date(df: pd.DataFrame, times: dict, event: object, codes: np.ndarray) -> FoundTime | None:
    """The one time of ``event`` closed on a calendar date (:data:`CLOSED_BY_DATE`), or None."""
    censored, happened = codes == 0, codes == 1
    if not MIN_EVENTS <= int(censored.sum()) < int(happened.sum()):
        return None
    times = {time: values for time, values in times.items() if np.nanmin(values) <= EVENTS_FROM_ZERO * np.nanmedian(values)
             and len(np.unique(values[happened & ~np.isnan(values)])) >= MIN_DISTINCT_AT_CUT_OFF}
    starts = {}
    for name in df.columns:
        values = None if ptypes.is_bool_dtype(df[name]) else pd.to_numeric(df[name], errors="coerce")
        if name != event and values is not None and values.notna().mean() >= MIN_PRESENT and values.nunique() > 2:
            later = censoring_of(values.to_numpy(dtype=float), codes)
            if later is not None and later.auc >= ENTERED_LAST:
                starts[name] = values.to_numpy(dtype=float)
    if not starts or not times:
        return None
    names = list(times)
    among = {}
    for rows in (censored, happened):
        columns = [*(values[rows] for values in times.values()), *(values[rows] for values in starts.values())]
        ranks = _rank_matrix(dict(enumerate(columns)))
        among[rows is censored] = ranks[:, :len(names)].T @ ranks[:, len(names):]
    pairs = [(among[True][i, j], among[False][i, j], time, start) for i, time in enumerate(names)
             for j, start in enumerate(starts) if time != start]
    closed = [pair for pair in pairs if pair[0] <= CLOSED_BY_DATE and pair[1] - pair[0] >= EVENTS_UNLIKE]
    if len({pair[2] for pair in closed}) != 1:
        return None
    rho, rho_events, time, start = min(closed, key=lambda pair: pair[0])
    return FoundTime(time, event, words.CLOSED_BY_DATE.format(
        event=str(event), start=str(start), n_censored=int(censored.sum()), rho=rho, rho_events=rho_events))


def own_time(df: pd.DataFrame, event: object, found: list[FoundTime], positive=None) -> list[FoundTime]:
    """The follow-up time of ``event`` (:func:`time_of`) and the columns measured at its end
    (:func:`at_exit`) that ``found`` does not hold yet; empty without one."""
    own = time_of(df, event, found, positive)
    if own is None:
        return []
    return [own, *at_exit(df, [own.time], {item.time for item in found} | {event})]
