"""What a table's values say about its columns, worked out once per table: :class:`TableProfile`.

The kind proposed for each column (:func:`psl_triage.data.columns.infer_kind`), the follow-up
times its values show (:func:`psl_triage.data.event_times.follow_up_evidence`) and the
(time, event) pair proposed from them (:func:`psl_triage.data.follow_up.guess_follow_up`) depend
on the table alone, not on the user's choices. The dataset session keeps one profile per loaded
table and passes its parts down to the column kinds, the follow-up proposal and the roles, so
choosing an outcome or putting a column back does not work them out again.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import pandas as pd

from psl_triage.data.columns import infer_kind
from psl_triage.data.event_times import follow_up_evidence
from psl_triage.data.follow_up import guess_follow_up, numeric_columns, time_columns


@dataclass(frozen=True, eq=False)
class TableProfile:
    """The table-only findings about ``df``, each worked out on first use and kept.

    Attributes
    ----------
    kinds : dict of column name to (kind, reason)
        :func:`~psl_triage.data.columns.infer_kind` of every column.
    found_times : list of FoundTime
        The follow-up times the values show, with their events.
    time_columns, numeric_columns : list
        The follow-up time columns (:func:`~psl_triage.data.follow_up.time_columns`) and every
        column the user may declare one (:func:`~psl_triage.data.follow_up.numeric_columns`).
    follow_up_pair : tuple or None
        The proposed (time, event) pair (:func:`~psl_triage.data.follow_up.guess_follow_up`).
    """

    df: pd.DataFrame

    @cached_property
    def kinds(self) -> dict:
        return {name: infer_kind(name, self.df[name]) for name in self.df.columns}

    @cached_property
    def found_times(self) -> list:
        return follow_up_evidence(self.df)

    @cached_property
    def time_columns(self) -> list:
        return time_columns(self.df, self.found_times)

    @cached_property
    def numeric_columns(self) -> list:
        return numeric_columns(self.df, self.time_columns)

    @cached_property
    def follow_up_pair(self) -> tuple | None:
        return guess_follow_up(self.df, self.found_times, self.time_columns)
