"""After-the-fact columns found from how they are filled in, whatever their names.

Two patterns of a study export that :mod:`psl_triage.data.roles` takes out beside the times and
events :mod:`psl_triage.data.event_times` finds, each with its evidence:

- filled in along the follow-up: missing exactly for the patients whose follow-up ended before some
  point (employment in week 43 after release, known only for those not re-arrested by then), and
  the rest of a numbered series most of whose members are (``emp1`` ... ``emp52``);
- the other values of the outcome's own status written one column each (``ft``, ``pt``, ``oth``,
  ``still``: how an unemployment spell ended), never 1 with the outcome or with one another.

And one that keeps a column in: a 0/1 finding that behaves with the outcome's own follow-up time as an
event would (ascites at entry, its patients dying sooner) but is 1 together with the outcome in many
rows is a risk factor, not another event ending the same follow-up (:func:`shares_outcome_time`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from psl_triage.words import roles as words
from psl_triage.words.common import share

MIN_MISSING_ALONG = 5
"""Rows a column must miss, all followed shorter than every row that has it, to be read as recorded
along the follow-up (:func:`along_follow_up`)."""

MIN_SERIES = 3
"""Members of a numbered series (``emp6``, ``emp7``, ...) found along the follow-up before the rest of
the series goes out with them, when they are half of it or more."""

MIN_LEVEL_ROWS = 10
"""Rows of 1 each other value of the outcome's status needs (:func:`status_levels`)."""

COVERED = 0.95
"""Share of the rows in which the outcome and its status's other values are 1 exactly once."""

TRACKS_FOLLOW_UP = 0.6
"""Rank correlation with a follow-up time from which a column never above it in any row, though never
equal to it, is a time within the follow-up (:func:`never_above`; survival/pbcseq's day of the last
visit: 0.74). A baseline finding ranks the patients' follow-up weakly (a strong lab: 0.3)."""

MIN_WITHIN_ROWS = 20
"""Rows with both a column and the follow-up time known that :func:`never_above` needs."""

MIN_WITHIN_VALUES = 10
"""Different values a time within the follow-up has at least (fewer: a code, a count of categories)."""

ROUNDING = 0.01
"""Share of the follow-up's median a time within it may exceed the follow-up by (both rounded on export)."""

MIN_TOGETHER = 5
"""Rows with both the outcome and a finding at 1 that make the finding a risk factor rather than
another event ending the same follow-up (:func:`shares_outcome_time`)."""



def _present(series: pd.Series) -> np.ndarray:
    return series.notna().to_numpy()


def along_follow_up(df: pd.DataFrame, time: object, candidates: Iterable[object]) -> dict[object, str]:
    """The ``candidates`` filled in only for the patients followed long enough: missing in
    :data:`MIN_MISSING_ALONG` rows or more, each followed (``time``) shorter than every row that has
    it; then the rest of each numbered series of which :data:`MIN_SERIES` members, half of it or more,
    are. Each -> its evidence."""
    follow_up = pd.to_numeric(df[time], errors="coerce").to_numpy(dtype=float)
    known = np.isfinite(follow_up)
    found = {}
    for name in candidates:
        present = _present(df[name]) & known
        missing = ~_present(df[name]) & known
        if missing.sum() >= MIN_MISSING_ALONG and present.any() and follow_up[missing].max() < follow_up[present].min():
            found[name] = words.FILLED_ALONG_FOLLOW_UP.format(
                time=str(time), cut=f"{follow_up[present].min():.4g}", n_missing=int(missing.sum()))
    return {**found, **_rest_of_series(found, candidates, time)}


def _series_stem(name: object) -> str | None:
    match = re.fullmatch(r"(.*?[A-Za-z][^\d]*?)[_.]?(\d+)", str(name))
    return match.group(1).lower() if match else None


def _rest_of_series(found: Mapping[object, str], candidates: Iterable[object], time: object) -> dict[object, str]:
    members: dict[str, list] = {}
    for name in candidates:
        stem = _series_stem(name)
        if stem is not None:
            members.setdefault(stem, []).append(name)
    rest = {}
    for names in members.values():
        along = [name for name in names if name in found]
        if len(along) >= MIN_SERIES and 2 * len(along) >= len(names):
            for name in names:
                if name not in found:
                    rest[name] = words.SERIES_ALONG_FOLLOW_UP.format(
                        first=str(along[0]), last=str(along[-1]), n_along=len(along), n=len(names), time=str(time))
    return rest


def never_above(values: np.ndarray, follow_up: np.ndarray, same_clock: float) -> bool:
    """Whether ``values`` can be a time within the ``follow_up`` (the day of the last visit): never negative,
    never above it (within :data:`ROUNDING`) in any of :data:`MIN_WITHIN_ROWS` rows or more where both are
    known, with :data:`MIN_WITHIN_VALUES` different values or more, its median there at least ``same_clock``
    times the follow-up's (a time on the same clock, not a share or a lab in small units). Whether it rises
    with the follow-up (:data:`TRACKS_FOLLOW_UP`) is the caller's to check."""
    both = np.isfinite(values) & np.isfinite(follow_up)
    if both.sum() < MIN_WITHIN_ROWS or len(np.unique(values[both])) < MIN_WITHIN_VALUES:
        return False
    middle = float(np.median(follow_up[both]))
    if values[both].min() < 0 or np.median(values[both]) < same_clock * middle:
        return False
    return bool((values[both] <= follow_up[both] + ROUNDING * abs(middle)).all())


def _zero_one(series: pd.Series, missing_allowed: bool = False) -> np.ndarray | None:
    """The 0/1 values as ints (missing ones as 0 when ``missing_allowed``), None for any other column."""
    values = pd.to_numeric(series, errors="coerce")
    if series.notna().sum() == 0 or (values.isna().any() and not missing_allowed) or not values.dropna().isin((0, 1)).all():
        return None
    return values.fillna(0).to_numpy(dtype=int)


def status_levels(df: pd.DataFrame, y: np.ndarray, candidates: Iterable[object], outcome: object) -> dict[object, str]:
    """The 0/1 ``candidates`` that are the other values of the outcome's own status written one column
    each: each 1 in :data:`MIN_LEVEL_ROWS` rows or more, never where the outcome or another of them is,
    and together with the outcome 1 in :data:`COVERED` of the rows or more; two such columns at least.
    Each -> its evidence."""
    known = y >= 0
    outcome_rows = (y == 1) & known
    levels = {}
    for name in candidates:
        codes = _zero_one(df[name])
        if codes is not None and codes[known].sum() >= MIN_LEVEL_ROWS and not (codes.astype(bool) & outcome_rows).any():
            levels[name] = codes.astype(bool)
    if len(levels) < 2:
        return {}
    count = outcome_rows.astype(int) + sum(rows.astype(int) for rows in levels.values())
    if (count[known] > 1).any() or np.mean(count[known] == 1) < COVERED:
        return {}
    names = ", ".join(repr(str(name)) for name in levels)
    covered = share(float(np.mean(count[known] == 1)))
    return {name: words.OTHER_STATUS_VALUE.format(outcome=str(outcome), names=names, covered=covered) for name in levels}


def shares_outcome_time(df: pd.DataFrame, event: object, y: np.ndarray) -> bool:
    """Whether a 0/1 ``event`` found with the outcome's own follow-up time is a finding rather than another
    event ending that follow-up: 1 together with the outcome in :data:`MIN_TOGETHER` rows or more, and
    neither inside the other (each 1 in a row where the other is 0). Competing events are never 1
    together; a cause of death is inside death (ascites at entry: 23 of its 24 patients died, one not)."""
    codes = _zero_one(df[event], missing_allowed=True)
    if codes is None:
        return False
    known = y >= 0
    other, outcome = codes.astype(bool) & known, (y == 1) & known
    together = int((other & outcome).sum())
    if together < MIN_TOGETHER:
        return False
    return together < other.sum() and together < outcome.sum()
