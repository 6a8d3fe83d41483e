"""Question costs as the pages ask for them and show them (the concept: :mod:`psl_core.costs`).

The Train page collects a cost per feature column in a table (:func:`cost_rows`,
:func:`costs_from_rows`), with the test each is measured with (columns of one test are paid
once) and one unit for all of them, saved in the model's metadata
(:attr:`~psl_triage.model_file.metadata.ModelMetadata.cost_unit`); the costs themselves travel in the list's parameters. The Triage page
shows each question's cost and what the patient's questions have cost so far, and starts
the value of a changed outcome at :func:`psl_core.costs.default_change_value`.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

from psl_core.errors import PSLError
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.words import editors as words
from psl_triage.words.editors import COLUMN, COST, GROUP

MAX_UNIT_CHARS = 40
"""Longest unit text accepted."""

COST_WEIGHTS = (0.0, 0.02, 0.05, 0.1, 0.25)
"""The search's cost weights the Train page offers (``bench/costs.py`` measures each)."""


def cost_rows(columns, costs=None, groups=None) -> pd.DataFrame:
    """The table the Train page edits: one row per feature column, its readable name, its
    cost and the test it is measured with.

    Parameters
    ----------
    columns : dict of str to ColumnInfo-like
        Objects with ``display_name``; the keys are the column names.
    costs, groups : dict or None
        Known costs and tests by column name (missing ones start at 0 and empty).

    Returns
    -------
    DataFrame indexed by column name, with columns :data:`COLUMN`, :data:`COST` and :data:`GROUP`.
    """
    costs, groups = costs or {}, groups or {}
    names = list(columns)
    return pd.DataFrame(
        {
            COLUMN: [columns[n].display_name for n in names],
            COST: [0.0 if costs.get(n) is None else float(costs[n]) for n in names],
            GROUP: [str(groups.get(n) or "") for n in names],
        },
        index=pd.Index(names, name="column"),
    )


def costs_from_rows(rows: pd.DataFrame) -> tuple[dict | None, dict | None]:
    """The costs and tests a user entered in :func:`cost_rows`'s table, checked.

    An empty cost means 0, an empty test "measured alone".

    Returns
    -------
    costs : dict or None
        ``{column: cost}`` of the columns with a cost above 0; None when every cost is 0.
    groups : dict or None
        ``{column: test}`` of the columns with a test named (trimmed); None when none is.

    Raises
    ------
    PSLError
        A cost that is negative, not a number or infinite, or a test name longer than
        :data:`MAX_UNIT_CHARS` characters, naming the feature.
    """
    costs, groups = {}, {}
    for name, row in rows.iterrows():
        group = row.get(GROUP)
        group = "" if group is None or (isinstance(group, float) and math.isnan(group)) else str(group).strip()
        if len(group) > MAX_UNIT_CHARS:
            raise PSLError(words.TEST_NAME_TOO_LONG.format(column=row[COLUMN], length=len(group), most=MAX_UNIT_CHARS))
        if group:
            groups[str(name)] = group
        value = row[COST]
        if value is None or (isinstance(value, float) and math.isnan(value)):
            continue
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            raise PSLError(words.COST_NOT_A_NUMBER.format(column=row[COLUMN], value=value))
        if not math.isfinite(value) or value < 0:
            raise PSLError(words.COST_OUT_OF_RANGE.format(column=row[COLUMN], value=value))
        if value > 0:
            costs[str(name)] = float(value)
    return costs or None, groups or None


def check_unit(text) -> str:
    """The cost unit typed by the user, trimmed; at most :data:`MAX_UNIT_CHARS` characters."""
    unit = str(text or "").strip()
    if len(unit) > MAX_UNIT_CHARS:
        raise PSLError(words.UNIT_TOO_LONG.format(length=len(unit), most=MAX_UNIT_CHARS))
    return unit


def cost_unit(metadata) -> str:
    """The unit saved with a list ("" when none, or when the entry is not text)."""
    return ModelMetadata.coerce(metadata).cost_unit or ""
