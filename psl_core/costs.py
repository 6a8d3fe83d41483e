"""Question costs: what asking a feature costs (time, money, harm), stated once.

A list may carry a cost per input column, ``ProbabilisticScoringList(question_costs=...)``:
a mapping from column (name for a DataFrame, position for an array) to a number >= 0 in one
unit of the user's choice (minutes, euros, a harm scale); a column left out costs 0. A
column is asked once at the bedside, so a stage whose column an earlier stage already asked
(a second threshold of the same measurement, another category of the same column) costs 0
(:func:`stage_costs`). Columns measured together (one blood draw, one exercise test) can be
put in one group, ``cost_groups={column: group name}``: a group is paid once, by the first
of its columns asked, at the largest cost given to its columns; its other columns are then
free.

Costs act in two places, both off unless asked for:

- **The search** (``cost_weight`` > 0, :func:`search_penalties`): a candidate is ranked by
  its criterion plus ``cost_weight x cost / (largest cost) x |stage-0 criterion|``: at
  ``cost_weight = 0.1`` the most expensive question must improve the criterion by a tenth
  of the prior's criterion more than a free one to be chosen first. The list's criteria,
  its end and its probabilities are the plain ones; only the order of the questions (and
  so which are asked) changes. ``cost_weight = 0`` gives exactly the list without costs.
- **The bedside stop** (:func:`not_worth_asking`, used by :mod:`psl_core.decision`): with a
  *value of a changed outcome* V in the same unit, the list stops before a question whose
  cost exceeds V times the share of the training patients with these answers whose outcome
  still changes with more answers: the expected gain of asking on is smaller than what the
  next question costs. The bedside starts at :func:`default_change_value`: ten times the
  list's most expensive question.
"""

import numbers
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .errors import PSLError

__all__ = [
    "check_question_costs", "check_cost_groups", "check_column_key", "payer", "payer_costs", "check_cost_weight", "CHANGE_VALUE_FACTOR",
    "default_change_value", "check_change_value", "stage_costs", "SearchCosts", "search_penalties",
    "not_worth_asking"
]


def _check_cost(column, cost):
    if isinstance(cost, (bool, np.bool_)) or not isinstance(cost, numbers.Real) or not np.isfinite(cost) or cost < 0:
        raise PSLError(f"question_costs[{column!r}] must be a finite number >= 0, got {cost!r}")
    return float(cost)


def check_column_key(name, column, known):
    """A column named in parameter ``name`` (a name or a position), checked against the
    ``known`` columns of X when given (PSLError naming the parameter otherwise)."""
    if isinstance(column, (bool, np.bool_)) or not isinstance(column, (str, numbers.Integral)):
        raise PSLError(f"{name} keys must be column names or positions, got {column!r}")
    column = column if isinstance(column, str) else int(column)
    if known is not None and column not in known:
        shown = ", ".join(repr(c) for c in known[:10]) + (", ..." if len(known) > 10 else "")
        raise PSLError(f"{name} names {column!r}, which is not a column of X (columns: {shown})")
    return column


def check_question_costs(question_costs, columns=None):
    """Validate question costs; returns a plain ``{column: float}`` dict, or None for none.

    Parameters
    ----------
    question_costs : mapping of column to number >= 0, or None
        Column names (str) or positions (int) as keys.
    columns : sequence or None
        The input columns (names or positions). When given, every key must be one of them.

    Returns
    -------
    dict or None
        None when ``question_costs`` is None or empty.

    Raises
    ------
    PSLError
        Not a mapping, a key that is not a name or position (or not a column), a cost
        that is negative, infinite or not a number.
    """
    return _checked_mapping("question_costs", question_costs, columns, "cost", _check_cost)


def _checked_mapping(name, mapping, columns, values, check_value):
    """``{column: check_value(column, value)}`` of a parameter mapping columns to values, or None."""
    if mapping is None:
        return None
    if not isinstance(mapping, Mapping):
        raise PSLError(f"{name} must be a mapping from column to {values} (or None), got {type(mapping).__name__}")
    known = None if columns is None else list(columns)
    checked = {}
    for column, value in mapping.items():
        column = check_column_key(name, column, known)
        checked[column] = check_value(column, value)
    return checked or None


def _check_group(column, group):
    if not isinstance(group, str) or not 0 < len(group) <= 200:
        raise PSLError(f"cost_groups[{column!r}] must be a group name of 1 to 200 characters, got {group!r}")
    return group


def check_cost_groups(cost_groups, columns=None):
    """Validate which columns are measured together; returns ``{column: group}`` or None.

    Parameters
    ----------
    cost_groups : mapping of column to str, or None
        A group's name (1 to 200 characters) per column; columns left out are measured alone.
    columns : sequence or None
        The input columns; when given, every key must be one of them.

    Raises
    ------
    PSLError
        Not a mapping, a key that is not a column, a group that is not a short text.
    """
    return _checked_mapping("cost_groups", cost_groups, columns, "group name", _check_group)


def payer(column, cost_groups):
    """Who pays for asking ``column``: its group, or the column itself when it has none."""
    return ("group", cost_groups[column]) if cost_groups and column in cost_groups else ("column", column)


def payer_costs(question_costs, cost_groups):
    """What each payer (:func:`payer`) costs: a column its own cost, a group the largest of
    its columns' costs. Returns ``{payer: cost}`` (payers without a cost are left out)."""
    costs = {}
    for column, cost in (question_costs or {}).items():
        key = payer(column, cost_groups)
        costs[key] = max(costs.get(key, 0.0), cost)
    return costs


def check_cost_weight(cost_weight):
    """Validate the search's cost weight: a finite number >= 0 (0 = costs do not steer the search)."""
    if (
        isinstance(cost_weight, (bool, np.bool_))
        or not isinstance(cost_weight, numbers.Real)
        or not np.isfinite(cost_weight)
        or cost_weight < 0
    ):
        raise PSLError(f"cost_weight must be a finite number >= 0, got {cost_weight!r}")
    return float(cost_weight)


CHANGE_VALUE_FACTOR = 10
"""The default value of a changed outcome, in multiples of the list's most expensive
question: it stops before that question only when fewer than 1 in 10 training patients
like this one still change outcome (before a question a twentieth as dear, 1 in 200). On
the demo (``bench/costs.py``) it kept 97-98 % agreement with the whole list."""


def default_change_value(costs):
    """:data:`CHANGE_VALUE_FACTOR` times the largest of ``costs`` (shape (K,)); None when all are 0."""
    costs = np.asarray(costs, dtype=float)
    return float(CHANGE_VALUE_FACTOR * costs.max()) if costs.size and costs.max() > 0 else None


def check_change_value(change_value):
    """Validate V, the value of a changed outcome in the costs' unit: a number > 0, or None (no cost stop)."""
    if change_value is None:
        return None
    if (
        isinstance(change_value, (bool, np.bool_))
        or not isinstance(change_value, numbers.Real)
        or not np.isfinite(change_value)
        or change_value <= 0
    ):
        raise PSLError(f"change_value must be a finite number > 0 (or None), got {change_value!r}")
    return float(change_value)


def stage_costs(question_costs, columns, cost_groups=None):
    """The cost of asking each stage's question after the stages before it.

    Parameters
    ----------
    question_costs : dict or None
        As returned by :func:`check_question_costs`.
    columns : sequence of length K
        The column of stages 1..K.
    cost_groups : dict or None
        As returned by :func:`check_cost_groups`.

    Returns
    -------
    ndarray of float, shape (K,)
        Its payer's cost (:func:`payer_costs`), or 0 when an earlier stage asked the same
        column or a column of the same group (or nothing was given a cost).
    """
    costs = payer_costs(question_costs, cost_groups)
    paid, out = set(), np.zeros(len(columns))
    for k, column in enumerate(columns):
        key = payer(column, cost_groups)
        out[k] = 0.0 if key in paid else costs.get(key, 0.0)
        paid.add(key)
    return out


@dataclass(frozen=True)
class SearchCosts:
    """What each candidate feature adds to its criterion in the search (``penalty``, shape
    (n_candidates,), criterion units) and who pays it (``payers``: a candidate whose payer
    the partial list already asked costs nothing)."""

    penalty: np.ndarray
    payers: list


def search_penalties(columns, question_costs, cost_weight, scale, cost_groups=None):
    """What each candidate adds to its criterion in the search for its cost.

    Parameters
    ----------
    columns : sequence of length n_candidates
        The column of each candidate feature.
    question_costs : dict or None
    cost_weight : float >= 0
    scale : float
        The stage-0 criterion: the penalty is ``cost_weight x cost / max cost x |scale|``.
    cost_groups : dict or None

    Returns
    -------
    SearchCosts, or None when no cost steers the search (no costs, all 0, or
    ``cost_weight = 0``).
    """
    by_payer = payer_costs(question_costs, cost_groups)
    payers = [payer(column, cost_groups) for column in columns]
    costs = np.array([by_payer.get(key, 0.0) for key in payers], dtype=float)
    if cost_weight == 0 or not len(costs) or costs.max() == 0:
        return None
    return SearchCosts(cost_weight * costs / costs.max() * abs(float(scale)), payers)


def not_worth_asking(change_share, next_cost, change_value):
    """Whether the next question costs more than the outcome change it may bring is worth.

    ``change_share`` (the share of training patients like this one whose outcome changes
    with more answers) times ``change_value`` (V) is the expected gain of asking on; stop
    when it is below ``next_cost``. False whenever a value is missing (no statistics, no V)
    or the next question is free.
    """
    if change_share is None or change_value is None or not next_cost > 0:
        return False
    return change_share * change_value < next_cost
