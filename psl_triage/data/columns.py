"""Column typing: the kind proposed for each column (numeric, categorical, binary, ignore) and
why, a summary of each column, and what is missing where."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from psl_triage.words import preparing as words

from .formats import (
    BINARY,
    CATEGORICAL,
    IGNORE,
    MAX_CATEGORIES,
    MOSTLY_EMPTY_SHARE,
    NUMERIC,
    POOLED_CATEGORY,
    ColumnSpec,
)
from .values import STORABLE_RULE, natural_key, normalized, shortened, unstorable_value, value_text

_IDENTIFIER_NAME = re.compile(
    r"(^|[^a-z])(id|ids|identifier|uuid|mrn|record|index|unnamed|row|rownames?|seqn|nr|"
    r"(patients?|patienten|case|fall|subject|proband|probanden|sample|study|record|row|serial)"
    r"[ _.\-]*(number|no|nr|num|n|id)|#)([^a-z]|$)"
)

IDENTIFIER_DISTINCT_SHARE = 0.5
"""A column named like an identifier is one when its different values are at least this share of
its rows (samples measured twice share an ID; a code with few values is a category)."""

MIN_FILLED_ROWS = 10
"""A mostly empty column (:data:`~.formats.MOSTLY_EMPTY_SHARE`) filled in for fewer rows than this
has too little to learn from: a training fold may hold none of its values (survival's cgd0, the
day of a fifth infection, filled for 2 of 128 patients, stopped the training)."""


# ---------------------------------------------------------------------------------------------
# Column types and default choices


def infer_column_types(
    df: pd.DataFrame, specs: Mapping[str, ColumnSpec] | None = None, kinds: Mapping | None = None
) -> dict[str, str]:
    """Propose a type for every column: "numeric", "categorical", "binary" or "ignore".

    All-missing and constant columns, row identifiers and text with too many distinct values
    are "ignore"; two distinct values make "binary"; numbers (also integer codes with more
    than two values) are "numeric"; other text is "categorical". A spec's ``kind`` wins.
    ``kinds``: :func:`infer_kind` of the columns when already worked out (column -> (kind,
    reason): :attr:`psl_triage.data.profile.TableProfile.kinds`).
    """
    kinds = kinds or {}
    types = {name: (kinds.get(name) or infer_kind(name, df[name]))[0] for name in df.columns}
    for name, spec in (specs or {}).items():
        if name in types and spec.kind is not None:
            types[name] = spec.kind
    return types


def infer_kind(name: object, series: pd.Series) -> tuple[str, str]:
    """The proposed type of a column and the reason for it, as the page shows it."""
    if ptypes.is_datetime64_any_dtype(series) or ptypes.is_timedelta64_dtype(series):
        return IGNORE, words.DATES_NOT_USED
    values = normalized(series).dropna()
    if values.empty:
        return IGNORE, words.ALL_MISSING
    distinct = values.nunique()
    if distinct == 1:
        return IGNORE, words.ONE_VALUE
    if len(values) < MIN_FILLED_ROWS and len(values) < (1 - MOSTLY_EMPTY_SHARE) * len(series):
        return IGNORE, words.FEW_FILLED.format(n=len(values), rows=len(series))
    identifier = _identifier_reason(name, values, distinct)
    if identifier:
        return IGNORE, identifier
    if distinct <= MAX_CATEGORIES and not ptypes.is_numeric_dtype(values):
        unstorable = unstorable_value(values.map(value_text).unique().tolist())
        if unstorable is not None:
            return IGNORE, words.UNSTORABLE_VALUE_REASON.format(unstorable=shortened(unstorable), storable_rule=STORABLE_RULE)
    if distinct == 2:
        first, second = sorted({value_text(value) for value in values.unique().tolist()}, key=natural_key)
        return BINARY, words.TWO_VALUES.format(first=first, second=second)
    numbers = values if ptypes.is_float_dtype(values) else pd.to_numeric(values, errors="coerce")
    if numbers.notna().all():
        return NUMERIC, words.numbers_from_to(numbers.min(), numbers.max())
    if distinct > MAX_CATEGORIES and repeated_names(values):
        return CATEGORICAL, words.TEXT_AS_CATEGORY.format(distinct=distinct, pooled_category=POOLED_CATEGORY)
    if distinct > MAX_CATEGORIES:
        return IGNORE, words.TEXT_ALL_DIFFERENT.format(distinct=distinct)
    return CATEGORICAL, words.TEXT_CATEGORIES.format(distinct=distinct)


def repeated_names(values: pd.Series) -> bool:
    """Whether most rows share their value with another row (a clinic, not a name or a note)."""
    counts = values.value_counts()
    counts = counts.groupby([value_text(value) for value in counts.index]).sum()
    return bool(counts[counts == 1].sum() < 0.5 * len(values))


def _identifier_reason(name: object, values: pd.Series, distinct: int) -> str:
    """Why a column looks like a row identifier, or "" if it does not.

    A running number (1, 2, 3, ... in any order) is one whatever its name; a column named like
    an identifier ("id", "patient_no", "rownames", "Unnamed: 0") is one when it holds whole
    numbers or codes, at least :data:`IDENTIFIER_DISTINCT_SHARE` of them different (a "shock
    index" with decimals stays a measurement); so is text that differs in every row.
    """
    numbers = values if ptypes.is_float_dtype(values) else pd.to_numeric(values, errors="coerce")
    if numbers.notna().all() and _is_row_counter(numbers):
        return words.RUNNING_NUMBER
    if distinct <= 2 or distinct < IDENTIFIER_DISTINCT_SHARE * len(values):
        return ""
    whole_or_codes = numbers.isna().any() or bool((numbers == np.round(numbers)).all())
    if whole_or_codes and _has_identifier_name(name):
        return words.NAMED_LIKE_IDENTIFIER.format(distinct=distinct, n_values=len(values))
    if distinct == len(values) and numbers.isna().all():
        return words.DIFFERENT_TEXT_EVERY_ROW
    return ""


def _has_identifier_name(name: object) -> bool:
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", str(name))
    return bool(_IDENTIFIER_NAME.search(spaced.lower()))


def _is_row_counter(numbers: pd.Series) -> bool:
    if len(numbers) < 10:
        return False
    ordered = np.sort(numbers.to_numpy(dtype=float))
    return bool(np.isfinite(ordered).all() and np.all(np.diff(ordered) == 1.0))


def column_summary(
    df: pd.DataFrame,
    types: Mapping[str, str],
    specs: Mapping[str, ColumnSpec] | None = None,
    flagged: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """One row per column: label, chosen type, its reason, distinct values, missing count, examples.

    The reason is the column's spec description, else why the column looks like it encodes
    the outcome (``flagged``, from :func:`psl_triage.data.roles.propose_roles`), else why its type was proposed, or
    that the user chose another type.
    """
    specs = specs or {}
    flagged = flagged or {}
    rows = []
    for name in df.columns:
        values = normalized(df[name])
        present = values.dropna()
        kind = types.get(name, IGNORE)
        inferred, reason = infer_kind(name, df[name])
        if name in specs and specs[name].description:
            reason = specs[name].description
        elif name in flagged:
            reason = flagged[name] + ("" if kind == IGNORE else words.KEPT_AS_CHOSEN)
        elif kind != inferred:
            reason = words.TYPED_AS_CHOSEN.format(kind=kind, inferred=inferred, reason=reason)
        examples = [value_text(value) for value in present.unique()[:3].tolist()]
        rows.append(
            {
                "column": str(name),
                "label": column_label(name, specs),
                "type": kind,
                "distinct": int(present.nunique()),
                "missing": int(values.isna().sum()),
                "examples": ", ".join(examples),
                "reason": reason,
            }
        )
    return pd.DataFrame(rows, columns=["column", "label", "type", "reason", "distinct", "missing", "examples"])


def missing_report(df: pd.DataFrame, columns: Sequence[str] | None = None) -> pd.DataFrame:
    """Missing values per column: "column", "missing" (count) and "percent" (of all rows).

    Missing means empty, a missing marker, blank text or an infinite number.
    """
    names = list(df.columns if columns is None else columns)
    counts = [int(normalized(df[name]).isna().sum()) for name in names]
    percents = [100 * count / len(df) if len(df) else 0.0 for count in counts]
    return pd.DataFrame({"column": [str(name) for name in names], "missing": counts, "percent": percents})


def column_label(name: object, specs: Mapping[str, ColumnSpec] | None) -> str:
    spec = (specs or {}).get(name)
    return spec.label if spec is not None and spec.label else str(name)
