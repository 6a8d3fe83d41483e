"""How a time behaves with a 0/1 event, as a follow-up time does with its event: :class:`Censoring`.

The patients with the event have times spread from near zero up; the patients without it
(censored) are followed longer and make up most of the longest times, as at a study's end, or
many of them end at exactly the longest time where no event is (the day the records closed).
:mod:`psl_triage.data.event_times` pairs times and events with it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

MIN_DISTINCT_TIMES = 20
"""A time has at least this many different values (or one per four rows in a small table)."""
MIN_EVENTS = 10
"""An event column has at least this many rows of each value."""
CENSORED_LONGER = 0.7
"""The chance that a censored patient's time is longer than one with the event, at least."""
CHANCE_ERRORS = 5.0
"""...and at least this many standard errors of that chance above one half, as it would be for
a column unrelated to the event (Hanley and McNeil's standard error under no relation): a
handful of events may sit low by chance, a study's hundreds do not."""
EVENTS_FROM_ZERO = 0.25
"""The tenth of the events' times lies below this share of the censored patients' median time:
events happen from early on, not only late."""
AT_CUT_OFF = 0.1
"""At least this share of the censored patients end at exactly the longest time, and
:data:`MIN_EVENTS` or more events would sit there were the event unrelated to the time, yet at
most :data:`EVENTS_AT_CUT_OFF` of the events do: an administrative end of follow-up (Channing
House closed its records on one day; KMsurv's pneumon followed every child to 12 months). Such
a time may take fewer values (:data:`MIN_DISTINCT_AT_CUT_OFF`) and show its events earlier by
fewer standard errors (:data:`CUT_OFF_ERRORS`): censored patients lost before the end, or
entering late, make it less clean. A clinical scale beside death (a coma score of 15) has some
deaths at its top."""
EVENTS_AT_CUT_OFF = 0.01
MIN_DISTINCT_AT_CUT_OFF = 10
CUT_OFF_ERRORS = 3.0
FEW_CENSORED = 3
"""An event column with fewer than :data:`MIN_EVENTS` censored patients but this many or more
(veteran's lung cancer trial: 9 of 137) cannot show the follow-up pattern beyond chance, nor
teach a yes/no list (:data:`psl_triage.data.formats.MIN_ROWS_PER_CLASS`): its time is the one
column of the table whose events spread from early on while its few censored patients sit
later (censored-longer chance :data:`FEW_CENSORED_LONGER` or more), none of them below the
events' quarter, and no one value holds more than :data:`FEW_CENSORED_MODE` of the events' times
(a count mostly 0 is no time) (:attr:`Censoring.few_censored_follow`); when two columns do, the
values cannot tell which, and none is proposed. Weak evidence, said so to the user: on random
tables with no time at all (a lognormal lab, uniform days, age, a count; 3 to 9 censored drawn
at random) one column passes in 46 of 300 (62 with the events' tenth and any chance above one
half), where no yes/no list could be learned either."""
FEW_CENSORED_MODE = 0.1
FEW_CENSORED_LONGER = 0.6
FEWER_EVENTS_AT_END = 0.6
"""Among the longest fifth of times the event's share is at most this share of its share in
all rows: the longest times are mostly censored ones, as at a study's end. Where the censored are
fewer than a fifth of the rows the censored share asked is scaled by the share they could fill
(:attr:`Censoring.fillable_at_end`): at 94 % events no study's end could meet it unscaled."""
FOLLOWED_LONGER = 1.5
"""The censored patients' median time is at least this many times the events' median."""

@dataclass(frozen=True)
class Censoring:
    """How a time behaves with an event: censored longer (AUC), the events' tenth and median
    time, the censored patients' median, the share censored among the longest fifth."""

    auc: float
    chance_error: float
    n_events: int
    event_low: float
    event_median: float
    censored_median: float
    censored_at_end: float
    event_share: float
    censored_at_cut_off: float = 0.0
    events_at_cut_off: float = 1.0
    expected_at_cut_off: float = 0.0
    few_values: bool = False
    cut_off: float = 0.0
    censored_low: float = 0.0
    event_mode: float = 1.0
    event_quarter: float = 0.0

    @property
    def few_censored_follow(self) -> bool:
        """Whether the few censored patients sit later than the events, as :data:`FEW_CENSORED` says."""
        return (not self.few_values and self.auc >= FEW_CENSORED_LONGER and self.censored_low >= self.event_quarter
                and self.event_mode <= FEW_CENSORED_MODE
                and self.event_low <= EVENTS_FROM_ZERO * self.censored_median
                and self.censored_median >= FOLLOWED_LONGER * self.event_median)

    @property
    def ends_at_cut_off(self) -> bool:
        """Whether many censored patients end at the longest time and (almost) no event does."""
        return (self.censored_at_cut_off >= AT_CUT_OFF and self.events_at_cut_off <= EVENTS_AT_CUT_OFF
                and self.expected_at_cut_off >= MIN_EVENTS)

    @property
    def follows(self) -> bool:
        """Whether the time behaves as the event's follow-up time (the module's pattern)."""
        cut_off = self.ends_at_cut_off
        if self.few_values and not cut_off:
            return False
        floor = 0.5 + CUT_OFF_ERRORS * self.chance_error if cut_off else max(
            CENSORED_LONGER, 0.5 + CHANCE_ERRORS * self.chance_error)
        return (self.auc >= floor
                and self.event_low <= EVENTS_FROM_ZERO * self.censored_median
                and self.censored_median >= FOLLOWED_LONGER * self.event_median
                and self.censored_at_end >= (1 - FEWER_EVENTS_AT_END * self.event_share) * self.fillable_at_end)

    @property
    def fillable_at_end(self) -> float:
        """The share of the longest fifth the censored patients could fill were they all there: below
        1 where they are fewer than a fifth (a waiting list's 6 %), scaling :data:`FEWER_EVENTS_AT_END`."""
        return min(1.0, (1 - self.event_share) / 0.2)


def censoring_of(time: np.ndarray, event: np.ndarray, fewest: int = MIN_EVENTS) -> Censoring | None:
    """How ``time`` (n,) behaves with the 0/1 ``event`` (n,) over the rows where both are known;
    None where either value of the event has fewer than ``fewest`` rows."""
    rows = ~np.isnan(time) & ~np.isnan(event)
    time, event = time[rows], event[rows]
    happened, censored = time[event == 1], time[event == 0]
    if min(len(happened), len(censored)) < fewest:
        return None
    ranks = pd.Series(time).rank().to_numpy()
    longest = event[time >= np.quantile(time, 0.8)]
    at_end = time == time.max()
    return Censoring(
        auc=float((ranks[event == 0].mean() - ranks[event == 1].mean()) / len(time) + 0.5),
        chance_error=float(np.sqrt((len(time) + 1) / (12 * len(happened) * len(censored)))),
        n_events=len(happened),
        event_low=float(np.quantile(happened, 0.1)),
        event_median=float(np.median(happened)),
        censored_median=float(np.median(censored)),
        censored_at_end=float(np.mean(longest == 0)),
        event_share=float(np.mean(event)),
        censored_at_cut_off=float(np.mean(censored == time.max())),
        events_at_cut_off=float(np.mean(happened == time.max())),
        expected_at_cut_off=float(at_end.sum() * np.mean(event)),
        few_values=len(np.unique(time)) < min(MIN_DISTINCT_TIMES, max(len(time) // 4, 5)),
        cut_off=float(time.max()),
        censored_low=float(censored.min()),
        event_mode=float(np.unique(happened, return_counts=True)[1].max() / len(happened)),
        event_quarter=float(np.quantile(happened, 0.25)),
    )
