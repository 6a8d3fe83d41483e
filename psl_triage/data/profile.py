"""What a table's values say about its columns, worked out once per table: :class:`TableProfile`.

The kind proposed for each column (:func:`psl_triage.data.columns.infer_kind`), the follow-up
times its values show (:func:`psl_triage.data.event_times.follow_up_evidence`), the
(time, event) pair proposed from them (:func:`psl_triage.data.follow_up.guess_follow_up`), a
column's levels (:func:`psl_triage.data.levels.column_levels`), the order they show
(:func:`psl_triage.data.levels.propose_level_order`) and its number of classes as an outcome
(:func:`psl_triage.data.values.outcome_classes`) depend on the table alone, not on the user's
choices. The dataset session keeps one profile per loaded table and passes its parts down to the
column kinds, the follow-up proposal and the roles, and asks it for levels and orders, so
choosing an outcome, putting a column back or declaring an order does not work them out again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property
from types import MappingProxyType
from typing import TypeVar

import pandas as pd

from psl_triage.data.columns import infer_kind
from psl_triage.data.event_times import follow_up_evidence
from psl_triage.data.follow_up import guess_follow_up, numeric_columns, time_columns
from psl_triage.data.levels import column_levels, propose_level_order
from psl_triage.data.values import outcome_classes

T = TypeVar("T")


class TableProfile:
    """The table-only findings about ``df``, each worked out on first use and kept.

    A memo, not a value: it fills as it is asked (so it is no frozen dataclass), and two
    profiles are the same only when they are one object. Keeping the findings is safe because
    each depends on the table alone and

    - the table does not change after the profile is made: the dataset session reads a frame
      and never edits it in place (another table is another profile);
    - the findings are handed out read-only (tuples, a read-only mapping), so no caller can
      change what the next one is told;
    - a session's reruns run one at a time; a finding worked out twice would be the same.

    Attributes
    ----------
    kinds : read-only mapping of column name to (kind, reason)
        :func:`~psl_triage.data.columns.infer_kind` of every column.
    found_times : tuple of FoundTime
        The follow-up times the values show, with their events.
    time_columns, numeric_columns : tuple
        The follow-up time columns (:func:`~psl_triage.data.follow_up.time_columns`) and every
        column the user may declare one (:func:`~psl_triage.data.follow_up.numeric_columns`).
    follow_up_pair : tuple or None
        The proposed (time, event) pair (:func:`~psl_triage.data.follow_up.guess_follow_up`).

    The findings about one column, asked for by name (:meth:`levels`, :meth:`proposed_order`,
    :meth:`n_classes`), are kept per column.
    """

    def __init__(self, df: pd.DataFrame):
        self.df = df
        self._per_column: dict = {}

    @cached_property
    def kinds(self) -> Mapping:
        return MappingProxyType({name: infer_kind(name, self.df[name]) for name in self.df.columns})

    @cached_property
    def found_times(self) -> tuple:
        return tuple(follow_up_evidence(self.df))

    @cached_property
    def time_columns(self) -> tuple:
        return tuple(time_columns(self.df, self.found_times))

    @cached_property
    def numeric_columns(self) -> tuple:
        return tuple(numeric_columns(self.df, self.time_columns))

    @cached_property
    def follow_up_pair(self) -> tuple | None:
        return guess_follow_up(self.df, self.found_times, self.time_columns)

    def levels(self, name) -> tuple[str, ...]:
        """The column's levels (:func:`~psl_triage.data.levels.column_levels`)."""
        return self._column("levels", name, lambda: tuple(column_levels(self.df[name])))

    def proposed_order(self, name) -> tuple[str, ...] | None:
        """The order the column's values show, None for none
        (:func:`~psl_triage.data.levels.propose_level_order`)."""
        return self._column("proposed_order", name, lambda: propose_level_order(self.df[name]))

    def n_classes(self, name) -> int:
        """How many classes the column has as an outcome (:func:`~psl_triage.data.values.outcome_classes`)."""
        return self._column("n_classes", name, lambda: len(outcome_classes(self.df[name])))

    def _column(self, finding: str, name, compute: Callable[[], T]) -> T:
        if (finding, name) not in self._per_column:
            self._per_column[finding, name] = compute()
        return self._per_column[finding, name]
