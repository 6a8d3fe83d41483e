"""Missing values: what each handling (learn, drop, impute) does to the table, in words and to
the rows."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from psl_core.errors import DataError
from psl_triage.words.common import plural

from .formats import BINARY, IGNORE, KINDS, MISSING_HANDLINGS, MOSTLY_EMPTY_SHARE, NUMERIC
from .values import _natural_key, _normalized, _percent, _plain, _value_text

# ---------------------------------------------------------------------------------------------
# Preparing training data


def _feature_columns(df: pd.DataFrame, types: Mapping[str, str], outcome: str | None) -> list:
    """Columns the user wants as features (type other than "ignore", not the outcome)."""
    for name, kind in types.items():
        if kind not in KINDS:
            raise DataError(f"Column {name!r} has type {kind!r}; choose one of {', '.join(KINDS)}.")
    return [name for name in df.columns if name != outcome and types.get(name, IGNORE) != IGNORE]


def _missing_mask(series: pd.Series, kind: str) -> pd.Series:
    """Entries that will count as missing for a column of type ``kind`` (text in numbers too)."""
    values = _normalized(series)
    if kind == NUMERIC and not ptypes.is_float_dtype(values):
        return ~np.isfinite(pd.to_numeric(values, errors="coerce").astype("float64"))
    return values.isna()


def _incomplete_rows(df: pd.DataFrame, types: Mapping[str, str], outcome: str | None) -> pd.Series:
    """Rows with a missing value in a usable feature or in the outcome."""
    incomplete = pd.Series(False, index=df.index)
    if outcome is not None and outcome in df.columns:
        incomplete |= _normalized(df[outcome]).isna()
    for name in _feature_columns(df, types, outcome):
        missing = _missing_mask(df[name], types[name])
        if not missing.all():
            incomplete |= missing
    return incomplete


def describe_missing_handling(
    df: pd.DataFrame, types: Mapping[str, str], outcome: str | None, handling: str
) -> str:
    """One or two plain sentences on what ``handling`` will do to the rows of ``df``.

    E.g. "6 rows (2.0 %) have a missing value and will be dropped; 297 of 303 rows remain."
    """
    _check_handling(handling)
    n_rows = len(df)
    no_outcome = (
        int(_normalized(df[outcome]).isna().sum()) if outcome is not None and outcome in df.columns else 0
    )
    if handling == "learn":
        gaps = [
            (name, int(_missing_mask(df[name], types[name]).sum())) for name in _feature_columns(df, types, outcome)
        ]
        gaps = [(name, count) for name, count in gaps if 0 < count < n_rows]
        kept = n_rows - no_outcome
        if not gaps:
            sentence = f"No missing values in the columns in use; {kept} of {n_rows} rows are kept."
        else:
            listed = "; ".join(f"{plural(count, 'missing value')} in {str(name)!r}" for name, count in gaps)
            sentence = (
                f"Keeps {listed}: the list learns whether a missing answer counts as yes or no for each "
                f"question; {kept} of {n_rows} rows are kept."
            )
        if no_outcome:
            sentence += f" {plural(no_outcome, 'row')} without an outcome will be dropped."
        return sentence
    if handling == "drop":
        dropped = int(_incomplete_rows(df, types, outcome).sum())
        if dropped == 0:
            return f"No missing values in the columns in use; all {n_rows} rows are kept."
        return (
            f"{plural(dropped, 'row')} ({_percent(dropped, n_rows)}) "
            f"{'has' if dropped == 1 else 'have'} a missing value and will be dropped; "
            f"{n_rows - dropped} of {n_rows} rows remain."
        )
    fills = []
    for name in _feature_columns(df, types, outcome):
        missing = int(_missing_mask(df[name], types[name]).sum())
        if 0 < missing < n_rows:
            how = "the median" if types[name] == NUMERIC else "the most frequent value"
            fills.append(f"{plural(missing, 'missing value')} in {str(name)!r} with {how}")
    kept = n_rows - no_outcome
    sentence = (
        f"Will fill in {'; '.join(fills)}; {kept} of {n_rows} rows are kept."
        if fills
        else f"No missing values to fill in; {kept} of {n_rows} rows are kept."
    )
    if no_outcome:
        sentence += f" {plural(no_outcome, 'row')} without an outcome will be dropped."
    return sentence


def _check_handling(handling: str) -> None:
    if handling not in MISSING_HANDLINGS:
        raise DataError(f"Missing-value handling must be 'learn', 'drop' or 'impute', got {handling!r}.")


def _rows_to_keep(
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
        notes.append(
            f"Dropped {plural(int((~keep).sum()), 'row')} without a value for the outcome {str(outcome)!r}."
        )
    if missing == "drop":
        incomplete = pd.Series(False, index=df.index)
        for series in converted.values():
            incomplete |= series.isna()
        incomplete &= keep
        if incomplete.any():
            n_dropped = int(incomplete.sum())
            notes.append(
                f"Dropped {plural(n_dropped, 'row')} ({_percent(n_dropped, len(df))}) "
                "with a missing value."
            )
        keep &= ~incomplete
    if not keep.any():
        raise DataError(
            "No rows are left after dropping rows with missing values. "
            "Choose to fill in missing values instead, or set sparse columns to 'ignore'."
        )
    return keep


def _fill_in(
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
            notes.append(f"Left out {str(name)!r}: no value in the rows used.")
            del converted[name]
            continue
        empty = float(series.isna().mean())
        if fill and empty > MOSTLY_EMPTY_SHARE:
            notes.append(
                f"Did not fill in {str(name)!r}: {empty:.0%} of its values are missing, too many to "
                "fill in with one value; the list learns where a missing answer goes."
            )
        elif fill and series.isna().any():
            value = _fill_value(series, types[name])
            fill_values[name] = _raw_fill(value, types[name], binary_values[name])
            notes.append(
                f"Filled in {plural(int(series.isna().sum()), 'missing value')} of {str(name)!r} "
                f"with the {'median' if types[name] == 'numeric' else 'most frequent value'}, "
                f"{_value_text(fill_values[name])}."
            )
            series = series.fillna(value)
        if series.nunique() < 2:
            notes.append(f"Left out {str(name)!r}: it has the same value in every row used.")
            del converted[name]
            continue
        converted[name] = series
    if not converted:
        raise DataError(
            "No feature columns to learn from: mark at least one column (other than the outcome) "
            "as numeric, binary or categorical."
        )
    return fill_values


def _fill_value(series: pd.Series, kind: str) -> object:
    if kind == NUMERIC:
        return float(series.median())
    counts = series.value_counts()
    top = counts[counts == counts.max()].index.tolist()
    return sorted(top, key=lambda value: _natural_key(_value_text(value)))[0]


def _raw_fill(fill: object, kind: str, binary_pair: tuple) -> object:
    """The fill value as the user knows it: the raw value for binary, a plain number otherwise."""
    if kind == BINARY:
        return binary_pair[0] if fill == 1.0 else binary_pair[1]
    return _plain(fill)
