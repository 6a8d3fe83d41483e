"""How one cell or one column's values read: a value's text, natural sort order, the outcome's
classes and their counts, value labels, and the counting words of notes."""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from psl_core.serialization import schema, unstorable_name
from psl_triage.words import preparing as words

from .formats import ColumnSpec

MAX_NAME_CHARS = schema()["$defs"]["name"]["maxLength"]
"""Longest name or category a saved list holds (the model file's schema)."""

STORABLE_RULE = (
    words.STORABLE_RULE
)
"""The rule of :func:`psl_core.serialization.unstorable_name`, in words."""


def unstorable_value(texts: Iterable[str]) -> str | None:
    """The first of ``texts`` a saved list could not hold as a category, or None."""
    return next((text for text in texts if unstorable_name(text)), None)


SEQUENCE_CORRELATION = 0.99
"""Whole numbers, different in every row, whose rank correlation with the row order is at least
this are a running number (an identifier), not a measurement."""


def running_number(values: pd.Series) -> float | None:
    """The rank correlation with the row order of a column of whole numbers different in every
    row (20 rows or more) when it is :data:`SEQUENCE_CORRELATION` or more: a running number, an
    identifier (a row counter, an observation number); None for any other column."""
    present = values.dropna()
    if len(present) < 20 or ptypes.is_bool_dtype(present):
        return None
    numbers = pd.to_numeric(present, errors="coerce")
    if numbers.isna().any() or (numbers != np.round(numbers)).any() or numbers.nunique() < len(numbers):
        return None
    order = pd.Series(np.arange(len(values)), index=values.index)[present.index]
    correlation = abs(pd.Series(numbers.to_numpy(dtype=float)).corr(pd.Series(order.to_numpy()), method="spearman"))
    return float(correlation) if correlation >= SEQUENCE_CORRELATION else None


def shortened(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---------------------------------------------------------------------------------------------
# Values


def value_text(value: object) -> str:
    """Canonical text of a raw value, so that 1, 1.0, True and "1" name the same class."""
    if isinstance(value, (bool, np.bool_)):
        return "1" if value else "0"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        number = float(value)
        if number.is_integer() and abs(number) < 1e15:
            return str(int(number))
        return repr(number)
    return str(value).strip()


def natural_key(text: str) -> tuple:
    """Sort numbers numerically before text, text case-insensitively."""
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if math.isnan(number):
        return (1, 0.0, text.casefold(), text)
    return (0, number, "", text)


def normalized(series: pd.Series) -> pd.Series:
    """Numbers as float64 with ±inf missing; anything else as stripped text with blanks missing."""
    if ptypes.is_numeric_dtype(series) and not isinstance(series.dtype, pd.CategoricalDtype):
        numbers = series.astype("float64")
        return numbers.where(np.isfinite(numbers))
    text = series.astype(object).map(value_text, na_action="ignore").astype(object)
    return text.where(text.notna() & (text != ""))


def outcome_classes(series: pd.Series) -> list:
    """Distinct non-missing values of a column, as plain Python values, in natural order.

    Values with the same canonical text (1, 1.0, "1") count once, as their first occurrence;
    text is stripped, integer-valued floats become ints.
    """
    present = series[normalized(series).notna()]
    firsts: dict[str, object] = {}
    for value in present.unique().tolist():
        firsts.setdefault(value_text(value), value)
    return [plain_value(firsts[text]) for text in sorted(firsts, key=natural_key)]


def count_classes(series: pd.Series) -> list[tuple[object, int]]:
    """Each value of :func:`outcome_classes` with its number of rows."""
    counts = normalized(series).dropna().map(value_text).value_counts()
    return [(value, int(counts[value_text(value)])) for value in outcome_classes(series)]


def value_label(value: object, spec: ColumnSpec | None = None) -> str:
    """The readable label of a raw value from the column's spec, else its canonical text."""
    text = value_text(value)
    for raw, label in (spec.categories if spec else {}).items():
        if value_text(raw) == text:
            return label
    return text


def value_labels(series: pd.Series, spec: ColumnSpec | None = None) -> pd.Series:
    """:func:`value_label` of every value of a column, missing ones left missing: each distinct
    value labelled once (a column of 100,000 rows has a handful), the same labels as a map."""
    codes, uniques = pd.factorize(series, use_na_sentinel=True)
    labels = np.array([value_label(value, spec) for value in uniques] + [np.nan], dtype=object)
    return pd.Series(labels[codes], index=series.index, dtype=object)


def plain_value(value: object) -> object:
    """A value as the page shows it: 1 rather than 1.0, text without surrounding spaces."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return int(value)
    if isinstance(value, str):
        return value.strip()
    return value
