"""The header row: how many columns a table may have, and its names cleaned and checked
(blank, unreadable, look-alike or unstorable names are dropped, renamed or refused with a message)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from psl_core.errors import DataError
from psl_core.names import UNREADABLE, clean_name, describe_character, look_alike_pairs, unreadable_character
from psl_core.serialization import unstorable_name
from psl_triage.words import reading as words

from .values import MAX_NAME_CHARS, STORABLE_RULE, shortened, value_text

MAX_COLUMNS = 500
"""Most columns a table may have: each is read, typed, checked for leaks, summarised and
prepared, and that work grows faster than the number of columns (the README's "Hostile
input" gives the times measured). A list asks a handful of questions; a wider table is
refused with what to do."""


TITLE_ROWS_SEEN = 10
"""Rows at the top of a table looked at for a title above its header."""


def title_rows(rows: Sequence[Sequence[object]]) -> int:
    """How many rows above the header hold a title, not the table: 0 unless the first row has one
    filled cell ("Study X export 2024", as a sheet with a title in A1 saves as CSV) and, within
    :data:`TITLE_ROWS_SEEN` rows, after rows of at most one filled cell (a subtitle, a blank),
    a row of two or more names with no number among them: the header."""
    if not rows or len(_filled(rows[0])) != 1:
        return 0
    for position, row in enumerate(rows[1:TITLE_ROWS_SEEN], start=1):
        cells = _filled(row)
        if len(cells) >= 2:
            return 0 if any(_number_like(cell) for cell in cells) else position
    return 0


def _filled(row: Sequence[object]) -> list[object]:
    return [cell for cell in row if cell is not None and not (isinstance(cell, float) and math.isnan(cell))
            and str(cell).strip()]


def _number_like(cell: object) -> bool:
    if isinstance(cell, (int, float, np.number)):
        return True
    try:
        float(str(cell).strip().replace(",", "."))
    except ValueError:
        return False
    return True


def check_header(header: Sequence[object], filename: str) -> None:
    if len(header) > MAX_COLUMNS:
        raise DataError(words.TOO_MANY_COLUMNS.format(filename=filename, n_columns=len(header), max_columns=MAX_COLUMNS))
    names = [_header_name(cell) for cell in header]
    if not any(names):
        raise DataError(words.EMPTY_HEADER.format(filename=filename))
    seen: set[str] = set()
    duplicates = []
    for name in names:
        if name and name in seen and name not in duplicates:
            duplicates.append(name)
        seen.add(name)
    if duplicates:
        raise DataError(words.DUPLICATE_COLUMNS.format(filename=filename, names=', '.join(map(repr, duplicates))))
    look_alike = look_alike_pairs(name for name in names if name)
    if look_alike:
        first, second = look_alike[0]
        raise DataError(words.LOOKALIKE_COLUMNS.format(filename=filename, first=first, second=second))


def _header_name(cell: object) -> str:
    if cell is None or (isinstance(cell, float) and math.isnan(cell)):
        return ""
    return value_text(cell)


def tidy_table(frame: pd.DataFrame, filename: str, notes: list[str]) -> pd.DataFrame:
    frame = _drop_or_refuse_blank_names(frame, filename, notes)
    frame = frame.rename(columns=lambda name: str(name).strip())
    _check_readable(frame, filename)
    frame = _clean_names(frame, filename, notes)
    _check_storable_names(frame.columns, filename)
    unnamed_empty = [
        name for name in frame.columns if name.startswith("Unnamed: ") and frame[name].isna().all()
    ]
    if unnamed_empty:
        frame = frame.drop(columns=unnamed_empty)
        notes.append(words.dropped_empty(len(unnamed_empty), "unnamed"))
    empty_rows = frame.isna().all(axis=1)
    if len(frame.columns) and empty_rows.any():
        frame = frame.loc[~empty_rows]
        notes.append(words.dropped_empty(int(empty_rows.sum()), "rows"))
    if len(frame.columns) < 2:
        found = words.ONLY_THE_COLUMN.format(columns=frame.columns[0]) if len(frame.columns) else words.NO_COLUMNS
        raise DataError(words.NOT_LIKE_A_TABLE.format(filename=filename, found=found))
    if frame.empty:
        raise DataError(words.NO_DATA_ROWS.format(filename=filename))
    return frame.reset_index(drop=True)


def _drop_or_refuse_blank_names(frame: pd.DataFrame, filename: str, notes: list[str]) -> pd.DataFrame:
    """Drop an empty column whose name shows nothing (only spaces, invisible or direction-control
    characters), with a note; refuse one that holds data, naming it by its characters' codes:
    it would become a question without a name."""
    blank = [name for name in frame.columns if not clean_name(str(name))]
    empty = [name for name in blank if frame[name].isna().all()]
    if empty:
        frame = frame.drop(columns=empty)
        notes.append(words.dropped_empty(len(empty), "invisible"))
    named_data = [name for name in blank if name not in empty]
    if named_data:
        raise DataError(words.INVISIBLE_COLUMN_NAME.format(filename=filename, name=named_data[0]))
    return frame


def _clean_names(frame: pd.DataFrame, filename: str, notes: list[str]) -> pd.DataFrame:
    """Column names and text values in Unicode's composed form (NFC) without invisible or
    direction-control characters (:func:`psl_core.names.clean_name`), with a note per column
    when that changed any; spaces around a value ("No ") are trimmed with one note for the whole
    table. A text column with two values that still look alike is refused, naming both (two
    identical answers at the bedside)."""
    renamed = {name: clean_name(name) for name in frame.columns if clean_name(name) != name}
    if renamed:
        frame = frame.rename(columns=renamed)
        notes.append(words.removed_invisible_from_names(len(renamed), renamed))
    trimmed: dict[object, tuple[int, str]] = {}
    for name in frame.columns:
        column = frame[name]
        if not (ptypes.is_object_dtype(column) or ptypes.is_string_dtype(column)):
            continue
        texts = column.dropna()
        # Longer texts can be no name or category of a saved list (unstorable_name): only shown.
        texts = texts[texts.map(lambda value: isinstance(value, str) and len(value) <= MAX_NAME_CHARS)]
        distinct = pd.unique(texts)
        cleaned = {value: clean_name(value) for value in distinct}
        # A cell of invisible characters only is an empty cell: missing, as a blank cell is read.
        changed = {value: new or np.nan for value, new in cleaned.items() if new != value}
        if changed:
            frame[name] = column.map(lambda value, changed=changed: changed.get(value, value) if isinstance(value, str) else value)
            invisible = [value for value in changed if cleaned[value] != value.strip()]
            if invisible:
                notes.append(words.removed_invisible_from_values(len(invisible), name, invisible[0]))
            spaced = [value for value in changed if value not in invisible and value.strip()]
            if spaced:
                trimmed[name] = (len(spaced), spaced[0])
        pairs = look_alike_pairs(dict.fromkeys(value for value in cleaned.values() if value))
        if pairs:
            first, second = pairs[0]
            raise DataError(words.LOOKALIKE_VALUES.format(filename=filename, name=name, first=first, second=second))
    if trimmed:
        name, (_, example) = next(iter(trimmed.items()))
        notes.append(words.trimmed_spaces(sum(n for n, _ in trimmed.values()), len(trimmed), name, shortened(example, 40)))
    return frame


def _check_readable(frame: pd.DataFrame, filename: str) -> None:
    """Refuse a column name or text cell holding a character that cannot be shown (a control
    character or a lone surrogate: :func:`psl_core.names.unreadable_character`)."""
    for name in frame.columns:
        character = unreadable_character(name)
        if character is not None:
            raise DataError(words.UNSHOWABLE_NAME.format(filename=filename, name=name, character=describe_character(character)))
    for name in frame.columns:
        if not (ptypes.is_object_dtype(frame[name]) or ptypes.is_string_dtype(frame[name])):
            continue
        found = frame[name].astype(object).map(lambda v: isinstance(v, str) and bool(UNREADABLE.search(v)))
        if found.any():
            row = int(found.to_numpy().argmax())
            character = unreadable_character(frame[name].iloc[row])
            raise DataError(words.unshowable_value(filename, name, describe_character(character), row))


def _check_storable_names(names: Sequence[str], filename: str) -> None:
    """Refuse column names a saved list could not hold (:func:`unstorable_name`)."""
    bad = [name for name in names if unstorable_name(name)]
    if bad:
        shown = ", ".join(repr(shortened(name)) for name in bad[:5]) + (", ..." if len(bad) > 5 else "")
        raise DataError(words.unstorable_names(filename, len(bad), shown, STORABLE_RULE))
