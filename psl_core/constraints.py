"""What clinicians already know, as constraints on the search: monotone columns, required
and forbidden questions.

- ``monotone={column: "increasing" | "decreasing"}``: the list never gives a higher value
  of the column fewer points ("increasing") or more points ("decreasing"), at any stage.
  Each literal on the column must then point the same way on its own (a literal
  ``x > t`` worth s adds s above t and 0 below: increasing needs s > 0, the complement
  ``x <= t`` needs s < 0), so the sum of a column's literals is monotone at every stage;
  the search only tries the (score, polarity) tracks that point the constraint's way
  (:func:`allowed_tracks`), thresholds and scores searched together as without it. A
  binary column counts 1 above 0; an unordered categorical column has no order and is
  refused. A missing answer has no value, so the constraint says nothing about where it
  goes.
- ``required=[column, ...]``: the list starts with these columns' questions, in this
  order (the presenting complaint first), each the best question on its column given the
  ones before it; the search continues after them.
- ``forbidden=[column, ...]``: columns the list never asks (not available at triage).

Columns are names for a DataFrame and positions for an array, as for question costs.
"""

from collections.abc import Mapping

from .costs import check_column_key
from .errors import DataError, PSLError

__all__ = ["DIRECTIONS", "check_monotone", "check_column_list", "check_constraints", "allowed_tracks"]

DIRECTIONS = {"increasing": 1, "decreasing": -1}
"""A monotone direction and the sign of the points a literal ``x > t`` may get under it."""


def check_monotone(monotone, columns=None):
    """Validate monotone constraints; returns ``{column: +1 | -1}`` or None for none.

    Raises
    ------
    PSLError
        Not a mapping, a key that is not a column, a direction other than
        ``"increasing"`` / ``"decreasing"``.
    """
    if monotone is None:
        return None
    if not isinstance(monotone, Mapping):
        raise PSLError(
            f"monotone must be a mapping from column to 'increasing' or 'decreasing' (or None), "
            f"got {type(monotone).__name__}"
        )
    known = None if columns is None else list(columns)
    checked = {}
    for column, direction in monotone.items():
        column = check_column_key("monotone", column, known)
        if direction not in DIRECTIONS:
            raise PSLError(f"monotone[{column!r}] must be one of {list(DIRECTIONS)}, got {direction!r}")
        checked[column] = DIRECTIONS[direction]
    return checked or None


def check_column_list(name, value, columns=None):
    """Validate ``required`` or ``forbidden``: a sequence of distinct columns; returns a
    tuple (empty for None)."""
    if value is None:
        return ()
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
        raise PSLError(f"{name} must be a list of columns (or None), got {value!r}")
    known = None if columns is None else list(columns)
    checked = tuple(check_column_key(name, column, known) for column in value)
    if len(set(checked)) != len(checked):
        raise PSLError(f"{name} lists a column twice: {list(checked)}")
    return checked


def check_constraints(monotone, required, forbidden, columns=None, kinds=None):
    """Validate the three constraints together; returns (monotone, required, forbidden).

    ``kinds`` ({column: kind}) lets the check refuse monotone on an unordered categorical
    column.

    Raises
    ------
    PSLError
        As the single checks, or a column both required and forbidden.
    DataError
        A monotone categorical column.
    """
    monotone = check_monotone(monotone, columns)
    required = check_column_list("required", required, columns)
    forbidden = check_column_list("forbidden", forbidden, columns)
    both = [column for column in required if column in forbidden]
    if both:
        raise PSLError(f"columns {both} are both required and forbidden; choose one")
    for column in monotone or {}:
        if kinds is not None and kinds.get(column) == "category":
            raise DataError(
                f"monotone names the categorical column {column!r}, whose categories have no order: "
                "leave it out of monotone, or code it as numbers"
            )
    return monotone, required, forbidden


def allowed_tracks(tracks, direction):
    """The (score, negated) tracks of a feature whose column has monotone ``direction``
    (+1, -1, or 0 for none): those whose points rise (+1) or fall (-1) with the value."""
    if not direction:
        return tracks
    return [(s, n) for s, n in tracks if ((s > 0) != n) == (direction > 0)]
