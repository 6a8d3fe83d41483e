"""Preparing training data: the user's choices applied to the table, giving X, y and the notes
of what was dropped, filled in or pooled (:class:`~psl_triage.data.formats.PreparedData`)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from psl_core.errors import DataError
from psl_triage.data.follow_up import event_time, horizon_labels
from psl_triage.words import preparing as words

from .columns import column_label, repeated_names
from .formats import (
    BINARY,
    CATEGORICAL,
    IGNORE,
    MAX_CATEGORIES,
    MIN_ROWS_PER_CLASS,
    NUMERIC,
    POOLED_CATEGORY,
    ColumnInfo,
    ColumnSpec,
    PreparedData,
)
from .missing import check_handling, feature_columns, fill_in, rows_to_keep
from .outcome import class_names_of, default_class_names, is_coded, leak_reason, pick_one, positive_class_values
from .values import STORABLE_RULE, natural_key, normalized, plain_value, shortened, unstorable_value, value_text


def prepare_training_data(
    df: pd.DataFrame, types: Mapping[str, str], outcome: str, positive_class: object, missing: str = "drop",
    specs: Mapping[str, ColumnSpec] | None = None, class_names: tuple[str, str] | None = None,
    follow_up: object = None, orders: Mapping[str, tuple[str, ...]] | None = None,
) -> PreparedData:
    """Apply the user's choices and return data a PSL can learn from.

    Parameters
    ----------
    df : pandas.DataFrame
        The table as loaded.
    types : mapping of column name to str
        One of :data:`KINDS` per column (the outcome's own is not used); others are left out.
    outcome : str
        The outcome column.
    positive_class : object or list of objects
        The outcome value counted as positive, or a list of values (all others are negative).
        May be None only for a two-valued outcome (:func:`guess_positive_class`, said in the
        notes). Values match by canonical text, so 1, 1.0 and "1" are the same class.
    missing : {"learn", "drop", "impute"}
        Keep missing feature values for the learner (NaN in ``X``; the list learns where a
        missing answer goes), drop every row with one, or fill in the median (numeric) or the
        most frequent value (binary, categorical); never in a column more than
        :data:`MOSTLY_EMPTY_SHARE` empty. Rows without an outcome are always dropped.
    specs : mapping of column name to ColumnSpec, optional
        Labels, units and category labels for the metadata.
    class_names : (str, str), optional
        The user's names of the positive and negative class; blank or None: :func:`default_class_names`.
    follow_up : psl_triage.data.follow_up.FollowUp, optional
        A time-to-event list: the outcome is the 0/1 event column, this the time column (never a question; rows
        without a time are dropped) and the horizon, which the class names say (:func:`.follow_up.horizon_labels`).
    orders : mapping of column name to tuple of str, optional
        Categorical columns declared ordered -> their levels in order (in X: ordered categoricals).

    Returns
    -------
    PreparedData

    Raises
    ------
    DataError
        Duplicate or unknown columns, an unusable outcome (all missing, one class, too many values, positive class
        not given or not present), a column that cannot have its type, no feature left, no row left, fewer than
        :data:`MIN_ROWS_PER_CLASS` rows in a class, an order short of a level, a horizon that leaves a class empty.
    """
    check_handling(missing)
    _check_columns(df, outcome)
    specs, notes, n_rows_source = specs or {}, [], len(df)
    if follow_up is not None:
        df, types = _follow_up_rows(df, types, outcome, follow_up, notes)
    outcome_values, (positive_texts, positive_values) = normalized(df[outcome]), positive_class_values(
        df[outcome], outcome, positive_class, notes, "negative" if follow_up is None else "censored")
    converted, binary_values = _convert_features(df, types, outcome, specs, notes)
    keep = rows_to_keep(df, outcome, outcome_values, converted, missing, notes)
    fill_values = fill_in(converted, keep, types, binary_values, notes, fill=missing == "impute")
    y = outcome_values.loc[keep].map(value_text).isin(positive_texts).to_numpy(dtype=np.int64)
    labels = _checked_class_names(y, df[outcome], outcome, positive_values, specs.get(outcome), class_names, follow_up)
    X, columns = _final_features(converted, types, orders or {}, df.index[keep.to_numpy()], binary_values, fill_values, specs)
    notes += _leak_notes(X, y, *labels)
    return _checked_prepared(df, X, y, columns, (outcome, positive_values, labels), specs, notes, follow_up, n_rows_source)


def _checked_prepared(df, X, y, columns, classes, specs, notes, follow_up, n_rows_source):
    """The PreparedData of the final X and y (``classes``: the outcome, its positive values and
    the two class names), checked that a horizon leaves both classes."""
    outcome, positive_values, (positive_label, negative_label) = classes
    prepared = PreparedData(
        X=X, y=y, outcome=outcome, positive_class=tuple(positive_values), outcome_label=column_label(outcome, specs),
        positive_label=positive_label, negative_label=negative_label, n_rows_before=n_rows_source,
        n_rows_after=len(X), notes=notes, columns=columns, follow_up=follow_up,
        time=None if follow_up is None else df.loc[X.index, follow_up.time].astype(float).to_numpy(),
    )
    _check_horizon_classes(prepared)
    return prepared


def _check_horizon_classes(prepared: PreparedData) -> None:
    """Refuse a horizon that leaves a class too small to learn from: fewer than
    :data:`MIN_ROWS_PER_CLASS` patients with the event by it, or followed beyond it (as a yes/no
    outcome needs of each class). The Data page then says so with the times that would work,
    instead of "Ready" and a refusal on the Train page (one patient followed beyond the horizon
    lands in the held-out rows or the training ones, and the list cannot learn from it)."""
    counts = prepared.horizon_counts
    if counts is None or min(counts["events"], counts["beyond"]) >= MIN_ROWS_PER_CLASS:
        return
    events, times = np.sort(prepared.time[prepared.y == 1]), np.sort(prepared.time)
    raise DataError(words.horizon_class_too_small(
        prepared.follow_up.horizon, prepared.follow_up.unit, counts["events"], counts["beyond"], MIN_ROWS_PER_CLASS,
        float(events[MIN_ROWS_PER_CLASS - 1]) if len(events) >= MIN_ROWS_PER_CLASS else None,
        float(times[-MIN_ROWS_PER_CLASS]) if len(times) >= MIN_ROWS_PER_CLASS else None))


def _final_features(converted, types, orders, index, binary_values, fill_values, specs):
    """X as the learner reads it (:func:`_final_column`) and each of its columns' :class:`ColumnInfo`."""
    X = pd.DataFrame({name: _final_column(series, types[name], orders.get(name)) for name, series in converted.items()},
                     index=index)
    return X, {name: _column_info(name, types[name], X[name], binary_values[name], fill_values.get(name),
                                  specs.get(name)) for name in X.columns}


def _checked_class_names(
    y: np.ndarray,
    outcome_values: pd.Series,
    outcome: str,
    positive_values: list,
    spec: ColumnSpec | None,
    class_names: tuple[str, str] | None,
    follow_up: object,
) -> tuple[str, str]:
    """The (positive, negative) class names, once each class has enough rows; for follow-up
    data, names that say "within" the horizon, the user's own names too (a list of the risk
    within a horizon is said with it wherever its classes are named). A negative class the
    user left unnamed, or at its yes/no default, is "no" + the positive one."""
    positive_label, negative_label = class_names_of(outcome_values, outcome, positive_values, spec, class_names)
    if follow_up is None:  # a follow-up's classes are counted at its horizon (_check_horizon_classes)
        _check_class_sizes(y, positive_label, negative_label)
        return positive_label, negative_label

    # A name left at the yes/no default the Data page shows ("status = 0") names no class at
    # the horizon: the negative one is "no event by it", not the censored code.
    defaults = default_class_names(outcome_values, outcome, positive_values, spec)
    named = [bool(name and str(name).strip()) and str(name).strip() != default
             for name, default in zip(class_names or ("", ""), defaults)]
    coded = not named[0] and is_coded(positive_values, spec)
    return horizon_labels(positive_label, follow_up.horizon, follow_up.unit,
                          negative_label if named[1] else None, coded, outcome)


def _leak_notes(X: pd.DataFrame, y: np.ndarray, positive_label: str, negative_label: str) -> list[str]:
    """A note for every column that copies the outcome (:func:`leak_reason`)."""
    notes = []
    for name in X.columns:
        known = X[name].notna().to_numpy()
        reason = leak_reason(X[name][known], y[known], positive_label, negative_label)
        if reason:
            notes.append(words.POSSIBLE_LEAK.format(name=str(name), reason=reason))
    return notes


def _follow_up_rows(df, types, outcome, follow_up, notes):
    """The rows with a follow-up time, and the types without the time column (never a question)."""

    if follow_up.time not in df.columns or follow_up.time == outcome:
        raise DataError(words.TIME_IS_EVENT_COLUMN.format(outcome=str(outcome)))
    event_time(df, follow_up.time, outcome, [])  # names a time column that cannot serve
    times = pd.to_numeric(df[follow_up.time], errors="coerce")
    if times.isna().any():
        notes.append(words.dropped_without_time(int(times.isna().sum()), str(follow_up.time)))
    df = df.loc[times.notna()].copy()
    df[follow_up.time] = times[times.notna()]
    return df, {**types, follow_up.time: IGNORE}


def _check_columns(df: pd.DataFrame, outcome: str) -> None:
    if df.columns.has_duplicates:
        duplicates = sorted({str(name) for name in df.columns[df.columns.duplicated()]})
        raise DataError(words.duplicate_column_names(duplicates))
    if outcome not in df.columns:
        raise DataError(words.OUTCOME_NOT_IN_TABLE.format(outcome=outcome))


def _convert_features(
    df: pd.DataFrame, types: Mapping[str, str], outcome: str, specs: Mapping[str, ColumnSpec], notes: list[str]
) -> tuple[dict[object, pd.Series], dict[object, tuple]]:
    """Every feature column in use converted (:func:`_convert_feature`), and its binary values."""
    converted: dict[object, pd.Series] = {}
    binary_values: dict[object, tuple] = {}
    for name in feature_columns(df, types, outcome):
        column = _convert_feature(df[name], name, types[name], specs.get(name), notes)
        if column is not None:
            converted[name], binary_values[name] = column
    return converted, binary_values


def _check_class_sizes(y: np.ndarray, positive_label: str, negative_label: str) -> None:
    n_positive, n_negative = int(y.sum()), int(len(y) - y.sum())
    if min(n_positive, n_negative) < MIN_ROWS_PER_CLASS:
        raise DataError(words.TOO_FEW_ROWS.format(n_positive=n_positive, positive_label=positive_label, n_negative=n_negative, negative_label=negative_label, min_rows_per_class=MIN_ROWS_PER_CLASS))


def _convert_feature(
    series: pd.Series, name: object, kind: str, spec: ColumnSpec | None, notes: list[str]
) -> tuple[pd.Series, tuple] | None:
    """The column as floats (numeric, binary 0/1) or canonical text (categorical), missing as NaN.

    Returns None (with a note) for a column without any value. The second item is, for a
    binary column, the raw values mapped to 1 and to 0 (None if the column has one value);
    an empty tuple otherwise.
    """
    label = repr(str(name))
    values = normalized(series)
    if values.isna().all():
        notes.append(words.LEFT_OUT_ALL_MISSING.format(label=label))
        return None
    if kind == NUMERIC:
        if ptypes.is_datetime64_any_dtype(series) or ptypes.is_timedelta64_dtype(series):
            raise DataError(words.DATES_NOT_NUMERIC.format(label=label))
        infinite = int((np.isinf(series) & series.notna()).sum()) if ptypes.is_float_dtype(series) else 0
        if infinite:
            notes.append(words.counted_as_missing(infinite, label))
        if ptypes.is_float_dtype(values):
            return values, ()
        numbers = pd.to_numeric(values, errors="coerce").astype("float64")
        numbers = numbers.where(np.isfinite(numbers))
        not_numbers = values.notna() & numbers.isna()
        if not_numbers.all() or numbers.isna().all():
            raise DataError(words.NO_NUMBERS.format(label=label, example=values.dropna().iloc[0]))
        if not_numbers.any():
            examples = ", ".join(repr(text) for text in values[not_numbers].unique()[:3])
            notes.append(words.not_numbers_counted_missing(int(not_numbers.sum()), label, not_numbers.sum(), examples))
        return numbers, ()
    present = values.dropna()
    texts = present.map(value_text)
    distinct = sorted(texts.unique().tolist(), key=natural_key)
    unstorable = unstorable_value(distinct[: MAX_CATEGORIES + 1])
    if unstorable is not None:
        raise DataError(words.UNSTORABLE_VALUE.format(label=label, unstorable=shortened(unstorable), storable_rule=STORABLE_RULE))
    if kind == BINARY:
        if len(distinct) > 2:
            raise DataError(words.not_binary(label, len(distinct), distinct[:5]))
        raw = {value_text(value): plain_value(value) for value in present.unique().tolist()}
        ordered = [raw[text] for text in distinct]
        one = _binary_one(series, ordered, spec)
        one_text = value_text(one)
        zero = next((value for value in ordered if value_text(value) != one_text), None)
        mapped = values.map(lambda value: float(value_text(value) == one_text), na_action="ignore")
        return mapped.astype("float64"), (one, zero)
    if len(distinct) > MAX_CATEGORIES and repeated_names(present):
        return _pooled(values, texts, label, notes), ()
    if len(distinct) > MAX_CATEGORIES:
        raise DataError(words.TOO_MANY_CATEGORIES.format(label=label, n_distinct=len(distinct), max_categories=MAX_CATEGORIES))
    return values.map(value_text, na_action="ignore").astype(object), ()


def _pooled(values: pd.Series, texts: pd.Series, label: str, notes: list[str]) -> pd.Series:
    """Canonical text with all but the :data:`MAX_CATEGORIES` - 1 most frequent values pooled."""
    counts = texts.value_counts()
    ranked = sorted(counts.index, key=lambda text: (-counts[text], natural_key(text)))
    kept = set(ranked[: MAX_CATEGORIES - 1])
    pooled = len(ranked) - len(kept)
    notes.append(words.RARE_CATEGORIES_POOLED.format(label=label, n_values=len(ranked), n_kept=len(kept), pooled=pooled, n_pooled_rows=int(counts[ranked[len(kept):]].sum()), pooled_category=POOLED_CATEGORY))
    return values.map(
        lambda value: value_text(value) if value_text(value) in kept else POOLED_CATEGORY, na_action="ignore"
    ).astype(object)


def _binary_one(series: pd.Series, ordered: list, spec: ColumnSpec | None) -> object:
    texts = [value_text(value) for value in ordered]
    if spec is not None and spec.binary_one is not None and value_text(spec.binary_one) in texts:
        return ordered[texts.index(value_text(spec.binary_one))]
    if len(ordered) == 1:
        return ordered[0]
    return pick_one(series, ordered)


def _final_column(series: pd.Series, kind: str, order: tuple[str, ...] | None = None) -> pd.Series | pd.Categorical:
    if kind != CATEGORICAL:
        return series.astype("float64")
    present = set(series.dropna().unique().tolist())
    if order is None:
        categories = sorted(present, key=natural_key)
    else:
        unplaced = sorted(present - set(order), key=natural_key)
        if unplaced:
            raise DataError(words.order_leaves_out(repr(str(series.name)), unplaced))
        categories = [level for level in order if level in present]
    return pd.Categorical(series.astype(str).where(series.notna()), categories=pd.Index(categories, dtype="str"),
                          ordered=order is not None)


def _column_info(
    name: object, kind: str, column: pd.Series, binary_pair: tuple, fill: object, spec: ColumnSpec | None
) -> ColumnInfo:
    spec = spec or ColumnSpec()
    spec_labels = {value_text(value): label for value, label in spec.categories.items()}
    one = None
    if kind == CATEGORICAL:
        labels = {str(cat): spec_labels.get(str(cat), str(cat)) for cat in column.cat.categories}
    elif kind == BINARY:
        one, zero = binary_pair
        labels = {"1": spec_labels.get(value_text(one), value_text(one))}
        labels["0"] = (
            spec_labels.get(value_text(zero), value_text(zero)) if zero is not None else words.NOT_ONE.format(one=labels["1"])
        )
    else:
        labels = {}
    return ColumnInfo(
        name=name,
        label=spec.label or str(name),
        unit=spec.unit,
        kind=kind,
        category_labels=labels,
        levels=tuple(map(str, column.cat.categories)) if kind == CATEGORICAL and column.cat.ordered else None,
        one_value=one,
        fill_value=fill,
    )
