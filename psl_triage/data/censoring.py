"""Whether a time behaves with a 0/1 event as a follow-up time does: the end-of-follow-up test.

A follow-up time runs from a common origin (entry, diagnosis, transplant) to the event or to
the end of the patient's follow-up; the patients without the event are censored. Under the
usual design, censoring is mostly administrative: the study closes on one day, and each
patient's follow-up ends there, so censoring happens where follow-up ends, while the events
happen from the origin on (Kalbfleisch and Prentice, *The Statistical Analysis of Failure Time
Data*, 2nd ed. 2002, sec. 1.3 and 3.2: staggered entry and administrative censoring; Schemper
and Smith, "A note on quantifying follow-up in studies of failure time", *Controlled Clinical
Trials* 17, 1996: the reverse Kaplan-Meier estimate of follow-up, censoring as the "event").
Two consequences can be seen in the values, and a measurement taken at baseline shows them
only by the shape of its relation to the event. The test (:attr:`Censoring.follows`) asks both:

1. **Events from the origin**: the tenth of the events' times lies below :data:`ORIGIN` of all
   patients' median time. A duration's events begin soon after its zero; a measurement's
   values sit around their typical level (an albumin of 3.1 against a median of 3.5), whatever
   their relation to the event.
2. **Exits at the end are censorings**, beyond chance: one of two statistics of the exit type
   (censored or event) along the time reaches :data:`END_ERRORS` standard errors (a
   max-combination, as Lee, "On the versatility of the combination of the weighted log-rank
   statistics", *Comput. Stat. Data Anal.* 51, 2007, combines early- and late-weighted tests):

   - *censored later overall*: the chance that a censored patient's time is longer than one
     with the event (the Mann-Whitney AUC, in Hanley and McNeil's standard errors under no
     relation), at least :data:`CENSORED_LONGER`: a study's hundreds give a weak baseline
     relation many standard errors;
   - *censored at the end, beyond the trend*: in a logistic regression of "censored" on the
     time's percentile, an indicator of the longest tenth of times, its likelihood-ratio
     statistic signed and square-rooted (:func:`end_beyond_trend`). A baseline measurement
     related to the event shifts the censored share steadily along its values, and the
     percentile takes that; an administrative end adds censorings at the end that no steady
     shift explains. Where entry was staggered and the last to enter are censored early, the
     censored are followed *shorter* than the dead overall, yet the longest times still end
     censored (SEER prostate
     cancer: censored median 26 months against 37, 82 % of the longest tenth censored against
     72 % of all; 17.7 standard errors beyond the trend). A lab value whose highest tenth is
     all "censored" (ILPD's direct bilirubin beside the liver patient label, 5.1 standard errors
     above the censored share of all rows) follows its own trend there (3.9).

The end may also show at exactly the longest time (:attr:`Censoring.ends_at_cut_off`): many
censored patients end there and (almost) no event does, where :data:`MIN_EVENTS` or more would
were the event unrelated to the time (the chance of none is below e^-10): the day the records
closed. A time of few values (a month count, 13 values) passes only so; a scale of few values
beside death (a coma score) has deaths at its top.

An event column with only a handful of censored patients cannot show either beyond chance; it
has its own weaker rule (:attr:`Censoring.few_censored_follow`, :data:`FEW_CENSORED`), said so to
the user. :mod:`psl_triage.data.event_times` pairs times and events with the test.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

MIN_DISTINCT_TIMES = 20
"""A time has at least this many different values (or one per four rows in a small table)."""
MIN_EVENTS = 10
"""An event column has at least this many rows of each value."""
ORIGIN = 0.5
"""The tenth of the events' times lies below this share of all patients' median time."""
END_ERRORS = 5.0
"""Standard errors (under no relation) by which the censored sit later or fill the longest tenth:
a handful of events may sit low by chance, a study's hundreds do not."""
CENSORED_LONGER = 0.7
"""The chance that a censored patient's time is longer than one with the event, at least, where
"censored later overall" carries the test."""
LONGEST = 0.1
"""The share of the longest times where the end of follow-up is looked for."""
PERCENTILES = 100
"""The time's rank in this many steps, the trend's covariate (:func:`end_beyond_trend`)."""
AT_CUT_OFF = 0.1
"""At least this share of the censored patients end at exactly the longest time, and
:data:`MIN_EVENTS` or more events would sit there were the event unrelated to the time, yet at
most :data:`EVENTS_AT_CUT_OFF` of the events do: an administrative end of follow-up (Channing
House closed its records on one day; KMsurv's pneumon followed every child to 12 months). Such
a time may take fewer values (:data:`MIN_DISTINCT_AT_CUT_OFF`)."""
EVENTS_AT_CUT_OFF = 0.01
MIN_DISTINCT_AT_CUT_OFF = 10
FEW_CENSORED = 3
"""An event column with fewer than :data:`MIN_EVENTS` censored patients but this many or more
(veteran's lung cancer trial: 9 of 137) cannot show the follow-up pattern beyond chance, nor
teach a yes/no list (:data:`psl_triage.data.formats.MIN_ROWS_PER_CLASS`): its time is the one
column of the table whose events spread from early on while its few censored patients sit
later (censored-longer chance :data:`FEW_CENSORED_LONGER` or more, their median at least
:data:`FOLLOWED_LONGER` times the events'), none of them below the events' quarter, and no one
value holds more than :data:`FEW_CENSORED_MODE` of the events' times (a count mostly 0 is no
time) (:attr:`Censoring.few_censored_follow`); when two columns do, the values cannot tell
which, and none is proposed. Weak evidence, said so to the user: ``bench/follow_up_scan.py``
counts how often it proposes a column in random tables with no time at all."""
FEW_CENSORED_MODE = 0.1
FEW_CENSORED_LONGER = 0.6
FOLLOWED_LONGER = 1.5
EVENTS_FROM_ZERO = 0.25
"""With few censored, the tenth of the events' times lies below this share of the censored
patients' median time; with every censored patient at the longest time, below this share of
it (:attr:`Censoring.events_soon_after_origin`); a time closed on one date starts below this
share of its median (:data:`psl_triage.data.event_times.CLOSED_BY_DATE`)."""


@dataclass(frozen=True)
class Censoring:
    """How a time behaves with an event: censored longer (AUC and its standard error under no
    relation), the censored share among the longest tenth and in all rows, the end beyond the
    trend (:func:`end_beyond_trend`), the events' tenth, quarter and median, the censored
    patients' median and least time, all patients' median, and the longest time with who ends
    there."""

    auc: float
    chance_error: float
    n_events: int
    event_low: float
    event_median: float
    censored_median: float
    median: float
    censored_at_end: float
    censored_share: float
    end_errors: float
    censored_at_cut_off: float = 0.0
    events_at_cut_off: float = 1.0
    expected_at_cut_off: float = 0.0
    few_values: bool = False
    cut_off: float = 0.0
    censored_low: float = 0.0
    event_mode: float = 1.0
    event_quarter: float = 0.0

    @property
    def later_errors(self) -> float:
        """How many standard errors the censored-longer chance lies above one half."""
        return (self.auc - 0.5) / self.chance_error

    @property
    def ends_at_cut_off(self) -> bool:
        """Whether many censored patients end at the longest time and (almost) no event does."""
        return (self.censored_at_cut_off >= AT_CUT_OFF and self.events_at_cut_off <= EVENTS_AT_CUT_OFF
                and self.expected_at_cut_off >= MIN_EVENTS)

    @property
    def events_soon_after_origin(self) -> bool:
        """Whether the events begin soon after the time's zero, judged against the longest time
        where every patient without the event reached it. A trial that followed everyone for a
        fixed window has its events from the first weeks (Rossi's arrests within 52 weeks: the
        tenth at 16 % of the window; pharmacoSmoking's relapses from day 0), where a laboratory
        value with a ceiling for "none" begins well up its scale (a PCR cycle threshold: positives
        from 15 cycles, every negative test at 45, the tenth at 39 %) (:data:`EVENTS_FROM_ZERO`).
        Otherwise all patients' median, held down by those censored early, is (:data:`ORIGIN`)."""
        if self.censored_at_cut_off < 1.0:
            return self.event_low <= ORIGIN * self.median
        return self.event_low <= EVENTS_FROM_ZERO * self.cut_off

    @property
    def follows(self) -> bool:
        """Whether the time behaves as the event's follow-up time: the end-of-follow-up test (the module's)."""
        if self.few_values and not self.ends_at_cut_off:
            return False
        later = self.auc >= CENSORED_LONGER and self.later_errors >= END_ERRORS
        return self.events_soon_after_origin and (later or self.end_errors >= END_ERRORS or self.ends_at_cut_off)

    @property
    def few_censored_follow(self) -> bool:
        """Whether the few censored patients sit later than the events, as :data:`FEW_CENSORED` says."""
        return (not self.few_values and self.auc >= FEW_CENSORED_LONGER and self.censored_low >= self.event_quarter
                and self.event_mode <= FEW_CENSORED_MODE
                and self.event_low <= EVENTS_FROM_ZERO * self.censored_median
                and self.censored_median >= FOLLOWED_LONGER * self.event_median)


def censoring_of(time: np.ndarray, event: np.ndarray, fewest: int = MIN_EVENTS) -> Censoring | None:
    """How ``time`` (n,) behaves with the 0/1 ``event`` (n,) over the rows where both are known;
    None where either value of the event has fewer than ``fewest`` rows."""
    rows = ~np.isnan(time) & ~np.isnan(event)
    time, event = time[rows], event[rows]
    happened, censored = time[event == 1], time[event == 0]
    if min(len(happened), len(censored)) < fewest:
        return None
    n = len(time)
    ranks = pd.Series(time).rank().to_numpy()
    longest = time >= np.quantile(time, 1 - LONGEST)
    at_end = time == time.max()
    return Censoring(
        auc=float((ranks[event == 0].mean() - ranks[event == 1].mean()) / n + 0.5),
        chance_error=float(np.sqrt((n + 1) / (12 * len(happened) * len(censored)))),
        n_events=len(happened),
        event_low=float(np.quantile(happened, 0.1)),
        event_median=float(np.median(happened)),
        censored_median=float(np.median(censored)),
        median=float(np.median(time)),
        censored_at_end=float(np.mean(event[longest] == 0)),
        censored_share=float(np.mean(event == 0)),
        end_errors=end_beyond_trend(ranks / n, longest, event == 0),
        censored_at_cut_off=float(np.mean(censored == time.max())),
        events_at_cut_off=float(np.mean(happened == time.max())),
        expected_at_cut_off=float(at_end.sum() * np.mean(event)),
        few_values=len(np.unique(time)) < min(MIN_DISTINCT_TIMES, max(n // 4, 5)),
        cut_off=float(time.max()),
        censored_low=float(censored.min()),
        event_mode=float(np.unique(happened, return_counts=True)[1].max() / len(happened)),
        event_quarter=float(np.quantile(happened, 0.25)),
    )


def end_beyond_trend(rank: np.ndarray, longest: np.ndarray, censored: np.ndarray) -> float:
    """How far the censored share among the ``longest`` rows (n,) lies above the steady trend of
    "censored" along ``rank`` (n,, the time's rank over n, in (0, 1]), in standard errors: the
    signed square root of the likelihood-ratio statistic of the ``longest`` indicator added to a
    logistic regression of ``censored`` on the time's percentile (the rank in hundredths, so the
    fit runs on at most 200 groups of rows whatever the table's size); 0 where every row is among
    the longest or none is."""
    if longest.all() or not longest.any():
        return 0.0
    group = np.minimum((rank * PERCENTILES).astype(int), PERCENTILES - 1) * 2 + longest.astype(int)
    rows = np.bincount(group, minlength=2 * PERCENTILES)
    kept = np.flatnonzero(rows)
    successes = np.bincount(group, weights=censored.astype(float), minlength=2 * PERCENTILES)[kept]
    trend = np.column_stack([np.ones(len(kept)), (kept // 2 + 0.5) / PERCENTILES - 0.5])
    without, _ = _logistic_fit(trend, successes, rows[kept])
    with_end, coefficients = _logistic_fit(np.column_stack([trend, kept % 2]), successes, rows[kept])
    return float(np.sign(coefficients[-1]) * np.sqrt(max(2 * (with_end - without), 0.0)))


def _logistic_fit(design: np.ndarray, successes: np.ndarray, trials: np.ndarray,
                  steps: int = 30) -> tuple[float, np.ndarray]:
    """The maximised log-likelihood and the coefficients of a grouped logistic regression
    (``successes`` of ``trials`` per row of ``design``; Newton steps; where the groups separate,
    the likelihood approaches its supremum and the steps stop)."""
    coefficients = np.zeros(design.shape[1])
    for _ in range(steps):
        linear = np.clip(design @ coefficients, -30, 30)
        fitted = 1 / (1 + np.exp(-linear))
        weight = trials * fitted * (1 - fitted) + 1e-9
        step = np.linalg.solve(design.T @ (design * weight[:, None]) + 1e-6 * np.eye(design.shape[1]),
                               design.T @ (successes - trials * fitted))
        coefficients += step
        if np.max(np.abs(step)) < 1e-8:
            break
    linear = np.clip(design @ coefficients, -30, 30)
    return float(np.sum(successes * linear - trials * np.logaddexp(0, linear))), coefficients
