"""Ordered categories: a categorical column whose levels have an order ("4 or less hours" <
"5 hours" < ... < "10 or more hours"; "Grade 1" < "Grade 2" < "Grade 3").

The user declares a column ordered on the Data page and edits its order; the order reaches the
learner as a pandas ordered categorical (``psl_core`` then groups its levels by cuts in the
order and may keep its points monotone), and every page lists the levels in it.
:func:`propose_level_order` proposes an order from evidence in the column itself; the user
accepts it or not, nothing is ordered silently.
"""

from __future__ import annotations

import re

import pandas as pd

from .formats import MAX_CATEGORIES
from .values import natural_key, normalized, value_text

_FIRST_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
"""The first number written in a level: "4 or less hours" -> 4, "1 or 2 days" -> 1, "1,500 to
3,000" -> 1500 (a comma before groups of three digits separates thousands). No sign: in a band
such as "20-50" the hyphen joins two numbers, it does not make the second negative."""


def column_levels(series: pd.Series) -> list[str]:
    """The distinct values of a column as the prepared categories name them (canonical text),
    in the order of the column's ordered dtype if it has one, else by name (numbers first, as
    an unordered column's categories are listed)."""
    if isinstance(series.dtype, pd.CategoricalDtype) and series.dtype.ordered:
        present = set(normalized(series).dropna())
        return [text for text in map(value_text, series.cat.categories) if text in present]
    return sorted(set(normalized(series).dropna().map(value_text)), key=natural_key)


def propose_level_order(series: pd.Series) -> tuple[str, ...] | None:
    """The order the column's own values show, or None when they show none.

    Two kinds of evidence count:

    - the column is a pandas ordered categorical (an Excel, parquet or R export that kept its
      factor's order): that order;
    - every level carries a number in words ("4 or less hours", "5 hours", "10 or more hours";
      "0 days", "1 or 2 days"; "Grade 1" .. "Grade 3"): the levels sorted by the first number
      in each, when those numbers are all different.

    A level that is a number and nothing else is a code, not evidence (the demo's chest pain
    types 1 to 4 have no order). A level without a number, two levels with the same first number ("<=20" and "20-50"), fewer
    than two levels or more than :data:`MAX_CATEGORIES` give no proposal. Neither do ordinal
    words without numbers ("never" / "sometimes" / "always", "mild" / "severe"): their order is
    in the language, not in the data, and a list of such words would be a guess about every
    language and every coding a table might use; the user declares those orders by hand.

    Parameters
    ----------
    series : pandas.Series
        A column as loaded.

    Returns
    -------
    tuple of str or None
        The levels in the proposed order, as canonical text (the prepared categories' names).
    """
    levels = column_levels(series)
    if not 2 <= len(levels) <= MAX_CATEGORIES:
        return None
    if isinstance(series.dtype, pd.CategoricalDtype) and series.dtype.ordered:
        return tuple(levels)
    numbers = {}
    for level in levels:
        found = _FIRST_NUMBER.search(level)
        if found is None or _FIRST_NUMBER.fullmatch(level):
            return None
        numbers[level] = float(found.group().replace(",", ""))
    if len(set(numbers.values())) < len(numbers):
        return None
    return tuple(sorted(levels, key=numbers.get))


def checked_order(levels, order) -> tuple[str, ...] | None:
    """``order`` when it names exactly the column's ``levels`` (:func:`column_levels`), else None
    (the table changed since the order was set)."""
    if order is None:
        return None
    order = tuple(str(level) for level in order)
    if len(set(order)) != len(order) or set(order) != set(levels):
        return None
    return order


def order_by_places(order, places) -> tuple[str, ...]:
    """``order`` sorted by the place numbers the user gave its levels (``places``, one per
    level; a blank place keeps the level's old place), ties in the old order: moving level 5
    to place 2 puts it before the level that had place 2."""
    keyed = []
    for index, (level, place) in enumerate(zip(order, places)):
        number = index + 1 if place is None or pd.isna(place) else float(place)
        keyed.append((number, 0 if number != index + 1 else 1, index, str(level)))
    return tuple(level for *_, level in sorted(keyed))
