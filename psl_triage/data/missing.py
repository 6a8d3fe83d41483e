"""Missing values: what each handling (learn, drop, impute) does to the table, in words and to
the rows."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from psl_core.errors import DataError
from psl_triage.words import preparing as words
from psl_triage.words.common import share_of

from .formats import BINARY, IGNORE, KINDS, MISSING_HANDLINGS, MOSTLY_EMPTY_SHARE, NUMERIC
from .values import natural_key, normalized, plain_value, value_text

# ---------------------------------------------------------------------------------------------
# Preparing training data


def feature_columns(df: pd.DataFrame, types: Mapping[str, str], outcome: str | None) -> list:
    """Columns the user wants as features (type other than "ignore", not the outcome)."""
    for name, kind in types.items():
        if kind not in KINDS:
            raise DataError(words.BAD_COLUMN_TYPE.format(name=name, kind=kind, kinds=', '.join(KINDS)))
    return [name for name in df.columns if name != outcome and types.get(name, IGNORE) != IGNORE]


def _missing_mask(series: pd.Series, kind: str) -> pd.Series:
    """Entries that will count as missing for a column of type ``kind`` (text in numbers too)."""
    values = normalized(series)
    if kind == NUMERIC and not ptypes.is_float_dtype(values):
        return ~np.isfinite(pd.to_numeric(values, errors="coerce").astype("float64"))
    return values.isna()


def _without_outcome(df: pd.DataFrame, outcome: str | None) -> pd.Series:
    """Rows without a value for the outcome (dropped whatever the handling)."""
    if outcome is None or outcome not in df.columns:
        return pd.Series(False, index=df.index)
    return normalized(df[outcome]).isna()


def _incomplete_rows(df: pd.DataFrame, types: Mapping[str, str], outcome: str | None) -> pd.Series:
    """Rows with an outcome and a missing value in a usable feature (those "drop" drops besides
    the rows without an outcome, as :func:`rows_to_keep` counts them)."""
    incomplete = pd.Series(False, index=df.index)
    for name in feature_columns(df, types, outcome):
        missing = _missing_mask(df[name], types[name])
        if not missing.all():
            incomplete |= missing
    return incomplete & ~_without_outcome(df, outcome)


def describe_missing_handling(
    df: pd.DataFrame, types: Mapping[str, str], outcome: str | None, handling: str
) -> str:
    """One or two plain sentences on what ``handling`` will do to the rows of ``df``.

    E.g. "6 rows (2.0 %) have a missing value and will be dropped; 297 of 303 rows remain."
    """
    check_handling(handling)
    n_rows = len(df)
    no_outcome = int(_without_outcome(df, outcome).sum())
    if handling == "learn":
        gaps = [
            (name, int(_missing_mask(df[name], types[name]).sum())) for name in feature_columns(df, types, outcome)
        ]
        gaps = [(name, count) for name, count in gaps if 0 < count < n_rows]
        kept = n_rows - no_outcome
        if not gaps:
            sentence = words.LEARN_NO_MISSING.format(kept=kept, n_rows=n_rows)
        else:
            listed = words.and_more([words.missing_in_columns(count, str(name)) for name, count in _largest(gaps)], len(gaps))
            sentence = words.LEARN_KEEPS_MISSING.format(listed=listed, kept=kept, n_rows=n_rows)
        if no_outcome:
            sentence += words.rows_without_outcome(no_outcome)
        return sentence
    if handling == "drop":
        dropped = int(_incomplete_rows(df, types, outcome).sum())
        if dropped == 0 and not no_outcome:
            return words.DROP_NO_MISSING.format(n_rows=n_rows)
        kept = n_rows - dropped - no_outcome
        sentence = (words.drop_missing_rows(dropped, share_of(dropped, n_rows, 1), kept, n_rows) if dropped
                    else words.LEARN_NO_MISSING.format(kept=kept, n_rows=n_rows))
        return sentence + (words.rows_without_outcome(no_outcome) if no_outcome else "")
    gaps = [
        (name, int(_missing_mask(df[name], types[name]).sum())) for name in feature_columns(df, types, outcome)
    ]
    gaps = [(name, count) for name, count in gaps if 0 < count < n_rows]
    fills = [
        words.fill_in_columns(count, str(name), words.MEDIAN if types[name] == NUMERIC else words.MOST_FREQUENT_VALUE)
        for name, count in _largest(gaps)
    ]
    fills = [words.and_more(fills, len(gaps))] if fills else []
    kept = n_rows - no_outcome
    sentence = (
        words.IMPUTE_FILLS_IN.format(fills='; '.join(fills), kept=kept, n_rows=n_rows)
        if fills
        else words.IMPUTE_NO_MISSING.format(kept=kept, n_rows=n_rows)
    )
    if no_outcome:
        sentence += words.rows_without_outcome(no_outcome)
    return sentence


MAX_LISTED = 3
"""Most columns the sentence on missing values names, the emptiest first; the table above it
lists them all."""


def _largest(gaps: list[tuple[object, int]]) -> list[tuple[object, int]]:
    """``gaps`` (column, missing values) as they are when few, else the :data:`MAX_LISTED` largest."""
    return gaps if len(gaps) <= MAX_LISTED else sorted(gaps, key=lambda gap: -gap[1])[:MAX_LISTED]


def check_handling(handling: str) -> None:
    if handling not in MISSING_HANDLINGS:
        raise DataError(words.BAD_MISSING_HANDLING.format(handling=handling))


def rows_to_keep(
    df: pd.DataFrame,
    outcome: str,
    outcome_values: pd.Series,
    converted: Mapping[object, pd.Series],
    missing: str,
    notes: list[str],
) -> pd.Series:
    """Rows with an outcome and, when dropping, a value in every converted feature."""
    keep = outcome_values.notna()
    if not keep.all():
        notes.append(words.dropped_without_outcome(int((~keep).sum()), str(outcome)))
    if missing == "drop":
        incomplete = pd.Series(False, index=df.index)
        for series in converted.values():
            incomplete |= series.isna()
        incomplete &= keep
        if incomplete.any():
            n_dropped = int(incomplete.sum())
            notes.append(words.dropped_missing_rows(n_dropped, share_of(n_dropped, len(df), 1)))
        keep &= ~incomplete
    if not keep.any():
        raise DataError(words.NO_ROWS_LEFT)
    return keep


def fill_in(
    converted: dict[object, pd.Series],
    keep: pd.Series,
    types: Mapping[str, str],
    binary_values: Mapping[object, tuple],
    notes: list[str],
    fill: bool = True,
) -> dict[object, object]:
    """Restrict ``converted`` (in place) to the kept rows, fill in what is missing (unless
    ``fill`` is False: the learner learns where it goes), and leave out columns without a value
    or with a single one; returns the raw fill value per filled column."""
    fill_values: dict[object, object] = {}
    for name in list(converted):
        series = converted[name].loc[keep]
        if series.isna().all():
            notes.append(words.LEFT_OUT_EMPTY.format(name=str(name)))
            del converted[name]
            continue
        empty = float(series.isna().mean())
        if fill and empty > MOSTLY_EMPTY_SHARE:
            notes.append(words.NOT_FILLED_IN.format(name=str(name), empty=empty))
        elif fill and series.isna().any():
            value = _fill_value(series, types[name])
            fill_values[name] = _raw_fill(value, types[name], binary_values[name])
            notes.append(words.filled_in(int(series.isna().sum()), str(name), types[name], value_text(fill_values[name])))
            series = series.fillna(value)
        if series.nunique() < 2:
            notes.append(words.LEFT_OUT_CONSTANT.format(name=str(name)))
            del converted[name]
            continue
        converted[name] = series
    if not converted:
        raise DataError(words.NO_FEATURE_COLUMNS)
    return fill_values


def _fill_value(series: pd.Series, kind: str) -> object:
    if kind == NUMERIC:
        return float(series.median())
    counts = series.value_counts()
    top = counts[counts == counts.max()].index.tolist()
    return sorted(top, key=lambda value: natural_key(value_text(value)))[0]


def _raw_fill(fill: object, kind: str, binary_pair: tuple) -> object:
    """The fill value as the user knows it: the raw value for binary, a plain number otherwise."""
    if kind == BINARY:
        return binary_pair[0] if fill == 1.0 else binary_pair[1]
    return plain_value(fill)
