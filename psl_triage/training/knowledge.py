"""What clinicians already know, as the Train page asks for it (the concept:
:mod:`psl_core.constraints`).

One table row per feature column: the direction its points must take with its value (a list
that gives an older patient fewer points than a younger one is one a clinician will not use)
and whether the list must ask it first or never (:func:`knowledge_rows`,
:func:`knowledge_from_rows`). Nothing is proposed: every row starts free.
"""

from __future__ import annotations

import pandas as pd

from psl_core.errors import PSLError
from psl_triage.data import CATEGORICAL
from psl_triage.words import editors as words
from psl_triage.words.editors import ASKED, ASKS, COLUMN, DIRECTION, DIRECTIONS


def knowledge_rows(columns, directions=None, asks=None) -> pd.DataFrame:
    """The table the Train page edits: one row per feature column, its readable name, its
    direction and when it is asked, in words.

    Parameters
    ----------
    columns : dict of str to ColumnInfo-like
        Objects with ``display_name``; the keys are the column names.
    directions, asks : dict or None
        Known choices by column name (keys of :data:`DIRECTIONS` / :data:`ASKS`).

    Returns
    -------
    DataFrame indexed by column name, with columns :data:`COLUMN`, :data:`DIRECTION`, :data:`ASKED`.
    """
    directions, asks = directions or {}, asks or {}
    names = list(columns)
    return pd.DataFrame(
        {
            COLUMN: [columns[n].display_name for n in names],
            DIRECTION: [DIRECTIONS[directions.get(n) or ""] for n in names],
            ASKED: [ASKS[asks.get(n) or ""] for n in names],
        },
        index=pd.Index(names, name="column"),
    )


def knowledge_from_rows(rows: pd.DataFrame, kinds) -> tuple[dict | None, list | None, list | None]:
    """The constraints a user chose in :func:`knowledge_rows`'s table.

    Parameters
    ----------
    rows : DataFrame
    kinds : dict of str to str
        Each column's type ("numeric", "binary", "categorical", or :data:`psl_triage.data.ORDERED` for a
        categorical column with its levels in order, which may have a direction).

    Returns
    -------
    monotone : dict or None
        ``{column: "increasing" | "decreasing"}``; None when no direction is set.
    required, forbidden : list or None
        Columns asked first (in the table's order) and never; None when none is.

    Raises
    ------
    PSLError
        A direction for an unordered categorical column, or a choice
        that is not one of the table's words, naming the column.
    """
    by_words = {words: key for key, words in DIRECTIONS.items()}
    ask_words = {words: key for key, words in ASKS.items()}
    monotone, required, forbidden = {}, [], []
    for name, row in rows.iterrows():
        direction = by_words.get(row[DIRECTION] or DIRECTIONS[""])
        asked = ask_words.get(row[ASKED] or ASKS[""])
        if direction is None or asked is None:
            raise PSLError(words.CHOICE_NOT_OFFERED.format(column=row[COLUMN]))
        if direction and kinds.get(name) == CATEGORICAL:
            raise PSLError(words.CATEGORICAL_DIRECTION.format(column=row[COLUMN]))
        if direction:
            monotone[str(name)] = direction
        if asked == "first":
            required.append(str(name))
        elif asked == "never":
            forbidden.append(str(name))
    return monotone or None, required or None, forbidden or None
