"""One column that alone separates the outcome far better than any other: asked, not assumed.

A clinical finding known at triage seldom ranks patients with a held-out AUC of 0.9, and when
one does the others are seldom far behind. A column far ahead of every other is more often the
outcome in another form (recorded after it, another event's time under a name that says
nothing). :func:`lone_separator` finds it from held-out AUCs (:func:`held_out_auc`: learned
on one half of the rows, measured on the other); the Data page proposes it out with its name
and AUC and the user puts it back when it is known at triage.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

LONE_AUC = 0.9
"""A column separating the outcome alone with at least this held-out AUC ..."""
FAR_BELOW = 0.15
"""... while the next best column's is at least this much lower is asked about."""
MIN_PER_CLASS = 10
"""Each half needs this many rows of either class for a held-out AUC."""


@dataclass(frozen=True)
class LoneSeparator:
    """The column far ahead, its held-out AUC, and the next best column with its AUC."""

    column: object
    auc: float
    next_column: object | None
    next_auc: float


def _auc(score: np.ndarray, y: np.ndarray) -> float:
    ranks = pd.Series(score).rank().to_numpy()
    positives = int(y.sum())
    negatives = len(y) - positives
    return float((ranks[y == 1].sum() - positives * (positives + 1) / 2) / (positives * negatives))


def held_out_auc(values: np.ndarray, y: np.ndarray, halves: np.ndarray, numeric: bool) -> float:
    """The AUC of one column on rows it was not learned from, the lower of both halves.

    A number's direction, or each category's rate of the positive class, is learned on one
    half of the rows and ranks the other half. ``values``: floats (``numeric``) or category
    texts, none missing; ``y``: 1 or 0; ``halves``: 0 or 1 per row. 0.5 when a half has fewer
    than :data:`MIN_PER_CLASS` rows of a class.
    """
    result = 1.0
    for learn in (0, 1):
        train, test = halves == learn, halves != learn
        counts = [y[train].sum(), (1 - y[train]).sum(), y[test].sum(), (1 - y[test]).sum()]
        if min(counts) < MIN_PER_CLASS:
            return 0.5
        if numeric:
            sign = 1.0 if _auc(values[train], y[train]) >= 0.5 else -1.0
            score = sign * values[test].astype(float)
        else:
            rates = pd.Series(y[train]).groupby(values[train]).mean()
            score = pd.Series(values[test]).map(rates).fillna(y[train].mean()).to_numpy(dtype=float)
        result = min(result, _auc(score, y[test]))
    return result


def lone_separator(aucs: Mapping[object, float]) -> LoneSeparator | None:
    """The column whose held-out AUC is at least :data:`LONE_AUC` while every other column's is
    at least :data:`FAR_BELOW` lower; None when there is none."""
    if not aucs:
        return None
    ranked = sorted(aucs.items(), key=lambda item: -item[1])
    column, auc = ranked[0]
    next_column, next_auc = ranked[1] if len(ranked) > 1 else (None, 0.5)
    if auc >= LONE_AUC and auc - next_auc >= FAR_BELOW:
        return LoneSeparator(column, auc, next_column, next_auc)
    return None


RELATED_AUC = 0.65
"""A two-valued column is related to the rest of the table when another column alone ranks
its values with at least this held-out AUC: an outcome is; a randomised treatment, a sampling
flag or a design column usually is not (:func:`related_to_others`)."""
MAX_COLUMNS_ASKED = 200
"""Columns :func:`related_to_others` looks at, at most, in the table's order."""


def related_to_others(df: pd.DataFrame, name: object) -> bool:
    """Whether some other column of ``df`` tells the two values of column ``name`` apart on
    held-out rows (:data:`RELATED_AUC`, :func:`held_out_auc`); True when too few rows of a
    value (fewer than twice :data:`MIN_PER_CLASS`) leave it untold."""
    target = df[name]
    values = target.dropna().unique()
    if len(values) != 2:
        return False
    y_all = (target == values[0]).to_numpy(dtype=int)
    known = target.notna().to_numpy()
    if min(y_all[known].sum(), (1 - y_all[known]).sum()) < 2 * MIN_PER_CLASS:
        return True
    halves = np.random.default_rng(0).permutation(len(df)) % 2
    for other in [column for column in df.columns if column != name][:MAX_COLUMNS_ASKED]:
        series = df[other]
        numbers = pd.to_numeric(series, errors="coerce")
        numeric = numbers.notna().sum() == series.notna().sum() and series.nunique() > 2
        feature = numbers.to_numpy(dtype=float) if numeric else series.astype(str).to_numpy(dtype=object)
        rows = known & series.notna().to_numpy()
        if held_out_auc(feature[rows], y_all[rows], halves[rows], numeric) >= RELATED_AUC:
            return True
    return False
