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

from psl_triage.data.values import value_text
from psl_triage.words import roles as words

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


def held_out_separation(
    values: np.ndarray, y: np.ndarray, halves: np.ndarray, numeric: bool
) -> tuple[float, str]:
    """How well one column alone tells the classes apart on rows it was not learned from.

    A rule (one cut of a number; for categories, each category voted to the class it is more
    typical of) is learned on each half of the rows and scored on the other half by balanced
    accuracy (the mean of sensitivity and specificity).

    Parameters
    ----------
    values : numpy.ndarray of shape (n,)
        Floats (``numeric``) or category texts, none missing.
    y : numpy.ndarray of shape (n,)
        1 positive, 0 negative.
    halves : numpy.ndarray of shape (n,)
        0 or 1: the half each row is in.
    numeric : bool

    Returns
    -------
    accuracy : float
        The lower of the two held-out balanced accuracies; 0.0 when a half has fewer than
        :data:`MIN_PER_CLASS` rows of a class.
    rule : str
        The rule learned on the first half, e.g. "above 44.5 negative, below positive".
    """
    results = []
    for learn in (0, 1):
        train, test = halves == learn, halves != learn
        if min(_class_counts(y[train]) + _class_counts(y[test])) < MIN_PER_CLASS:
            return 0.0, ""
        fit = _fit_cut if numeric else _fit_categories
        predict, rule = fit(values[train], y[train])
        results.append((_balanced_accuracy(predict(values[test]), y[test]), rule))
    return min(accuracy for accuracy, _ in results), results[0][1]


def _fit_cut(values: np.ndarray, y: np.ndarray):
    order = np.argsort(values, kind="stable")
    ordered, labels = values[order], y[order]
    ends = np.flatnonzero(np.diff(ordered) > 0)
    n_positive = labels.sum()
    n_negative = len(labels) - n_positive
    if ends.size == 0:
        return (lambda new: np.zeros(len(new), dtype=bool)), words.NO_CUT
    positives_below = np.cumsum(labels)[ends]
    negatives_below = ends + 1 - positives_below
    high_positive = ((n_positive - positives_below) / n_positive + negatives_below / n_negative) / 2
    best = int(np.argmax(np.maximum(high_positive, 1 - high_positive)))
    cut = float((ordered[ends[best]] + ordered[ends[best] + 1]) / 2)
    high = bool(high_positive[best] >= 0.5)
    text = value_text(float(f"{cut:.4g}"))
    rule = words.cut_at(text, high)
    return (lambda new: (new > cut) == high), rule


def _fit_categories(values: np.ndarray, y: np.ndarray):
    frame = pd.crosstab(values, y).reindex(columns=[0, 1], fill_value=0)
    share = frame / frame.sum(axis=0).replace(0, 1)
    positive = np.array(share.index[share[1] > share[0]], dtype=object)
    return (lambda new: pd.Series(new).isin(positive).to_numpy()), words.ITS_CATEGORIES


def _balanced_accuracy(predicted: np.ndarray, y: np.ndarray) -> float:
    positive = y == 1
    return float((predicted[positive].mean() + (~predicted[~positive]).mean()) / 2)


def _class_counts(y: np.ndarray) -> list[int]:
    return [int(y.sum()), int(len(y) - y.sum())]


def phi_of(x: np.ndarray, y: np.ndarray) -> float:
    if x.std() == 0 or y.std() == 0:
        return 0.0
    return float(np.corrcoef(x, y)[0, 1])
