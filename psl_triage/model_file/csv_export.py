"""Every CSV file the app writes, through one function: :func:`csv_bytes`.

A cell whose text begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is read
as a formula by Excel, LibreOffice and Google Sheets: a column name or a category from an
uploaded table (``=HYPERLINK("http://...", "click")``) would run in whoever opens the
download. So may one that begins with white space (a space, a no-break space) before such a
character, or with its full-width form (``＝``, ``＋``, ``－``, ``＠``), which a spreadsheet's import
may trim or fold. Such a text is written with a leading apostrophe, as OWASP's guidance on CSV
injection advises: a spreadsheet shows it as text, the apostrophe hidden. Numbers stay
numbers (``-0.25`` is a number, not a formula), so the figures can be computed with.
"""

import csv
import unicodedata

import pandas as pd

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell's text as a formula (OWASP, CSV injection)."""


def neutralised(value):
    """``value``, or a text that a spreadsheet would read as a formula with a leading ``'``."""
    if isinstance(value, str) and (value.startswith(FORMULA_STARTS)
                                   or unicodedata.normalize("NFKC", value).lstrip().startswith(FORMULA_STARTS)):
        return "'" + value
    return value


def csv_bytes(table: pd.DataFrame) -> bytes:
    """``table`` (its index left out) as UTF-8 CSV whose text cells and column names cannot
    run as formulas in a spreadsheet (:func:`neutralised`); texts quoted, numbers as numbers."""
    safe = table.rename(columns=lambda name: neutralised(str(name)))
    for position in range(safe.shape[1]):
        column = safe.iloc[:, position]
        if not (pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column)):
            safe.isetitem(position, column.astype(object).map(neutralised))
    # Every text quoted: a carriage return inside an unquoted cell would start a row of its own
    # (pandas quotes only cells holding a comma, a quote or a line feed).
    return safe.to_csv(index=False, quoting=csv.QUOTE_NONNUMERIC).encode("utf-8")
