"""Binary features and their candidate thresholds (paper, Sec. 4.3).

A scoring list adds points for *literals*: binary conditions on one input column.

- A 0/1 column (or a boolean one) is used as it is: the literal is ``x == 1``.
- A numeric column becomes ``x > t``; the candidate thresholds t are the mid-points
  between consecutive distinct training values, plus one cut below the minimum and one
  above the maximum (half a median gap beyond them). The two outer cuts make the literal
  constant, which lets the search effectively ignore a feature.
- A text or categorical column becomes one readable binary feature per category,
  ``x == "asymptomatic"`` (one-hot), and, with more than two levels, one family of
  groupings ``x in {a, b}``: its levels in order (an ordered categorical's own order;
  otherwise by the training rows' event rate, which makes the best grouping a cut, as for
  a numeric column) cut like a numeric column's values, so a 6-level column can be one
  readable question.

When the score set cannot express a negative contribution of a literal (a score s whose
negative -s is not in the set, e.g. the positive-only set {1, 2, 3}), the search also
tries the complement ``x <= t`` / ``x == 0`` / ``x != category``. With a symmetric score
set the complement with score s is the literal with score -s shifted by a constant, which
gives the same calibrated probabilities, so it is not tried twice.

Missing values are learned, not guessed (``read_columns(..., allow_missing=True)``, the
estimator's ``missing="learn"``): a column with missing training values gives each of its
families twice, once with a missing answer on the true side of ``x > t`` / ``x == 1`` /
``x == category`` and once on the false side, so the search chooses where a missing answer
goes together with the threshold and the points, like a decision tree's default direction.
A numeric column's missing rows then sit at one end of its sorted order, and its outer cut
on their side becomes the literal "x is missing" (or "x is measured"): a missing answer can
carry points of its own. The direction is the literal's ``missing`` (whether a missing
answer satisfies it). Within one list a missing answer is one position on its column's line:
a question asked again on the same column may only send it where the earlier ones leave room
for (:func:`blocked_cuts`; "x > 4.5, missing: yes" and then "x > 3.5, missing: no" would
make "not measured" more than 4.5 but not more than 3.5). Why a direction and not points of
its own for every literal: a literal stays one yes/no question worth one score, the totals and the calibration stay
the paper's, and on complete rows nothing changes (a column without missing training
values gives its families once, as before). With ``allow_missing=False`` missing values
are refused with a :class:`~psl_core.errors.DataError` that names the column; at the
bedside an unknown answer is handled explicitly by :mod:`psl_core.decision`.
"""

import numbers
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from .errors import DataError

NUMERIC = "numeric"
BINARY = "binary"
CATEGORY = "category"


def _group_levels(levels):
    """A grouping's level names as :meth:`Literal.describe` joins them: quoted when one holds
    the joiner itself (" or ", ", "), so "Sleep = '5 hours' or '4 or less hours'" reads as two
    levels, not three; as they are otherwise."""
    if any(" or " in level or ", " in level for level in levels):
        return [f"'{level}'" for level in levels]
    return levels


@dataclass(frozen=True)
class Literal:
    """A binary condition on one input column.

    Attributes
    ----------
    column : str or int
        Column name (DataFrame input) or position (array input).
    kind : {"numeric", "binary", "category"}
    threshold : float or None
        For a numeric column the literal is ``x > threshold`` (``x <= threshold`` when
        negated); None otherwise.
    category : str or None
        For a categorical column the literal is ``x == category`` (``!=`` when negated).
    categories : tuple of str or None
        For a grouping of a categorical column's levels, the literal is ``x in categories``
        (``category`` is then None).
    negated : bool
        Whether the condition is the complement.
    missing : bool or None
        Whether a missing answer satisfies the literal (the learned direction, see the
        module docstring); None for a literal that cannot answer for one (a list fitted
        with ``missing="error"`` or saved before missing values were learned).
    missing_learned : bool
        False when the column had no missing training values: the direction is then the
        more common answer of the training rows (scikit-learn's HistGradientBoosting
        does the same), so that a list can score such a row, but nothing was learned.
    """

    column: object
    kind: str
    threshold: float = None
    category: str = None
    negated: bool = False
    missing: bool = None
    missing_learned: bool = True
    categories: tuple = None

    def evaluate(self, values, missing=None):
        """Indicator of the literal for one column's values, shape (n,) of 0/1 ints.

        ``missing`` (bool, shape (n,)) marks the missing answers; by default NaN and None.
        A missing answer takes the literal's learned direction; without one it raises a
        DataError naming the column.
        """
        values = np.asarray(values, dtype=object if self.kind == CATEGORY else float)
        if missing is None:
            missing = pd.isna(values) if self.kind == CATEGORY else np.isnan(values)
        if self.kind == CATEGORY and self.categories is not None:
            hit = np.isin(values.astype(str), list(self.categories))
        elif self.kind == CATEGORY:
            hit = values.astype(str) == self.category
        elif self.kind == BINARY:
            hit = values > 0.5
        else:
            hit = values > self.threshold
        hit = hit != self.negated
        if missing.any():
            if self.missing is None:
                raise DataError(
                    f"column {self.column!r} has missing values, and this list has no direction for a "
                    "missing answer to its question on it (it was fitted with missing='error', or saved "
                    "before missing values were learned): fill them in, or leave those rows out"
                )
            hit = np.where(missing, self.missing, hit)
        return hit.astype(np.int64)

    def describe(self, label=None, unit=None, category_labels=None, precision=4):
        """Plain-words condition, e.g. ``"Max heart rate > 147.5 bpm"``.

        ``label`` replaces the column name, ``unit`` follows a threshold, and
        ``category_labels`` (dict) gives readable names of categories, or of the values
        "1" and "0" of a binary column ("Sex = male").
        """
        name = str(self.column) if label is None else label
        names = category_labels or {}
        if self.kind == CATEGORY and self.categories is not None:
            levels = _group_levels([names.get(c, c) for c in self.categories])
            if self.negated:
                return f"{name} is none of {', '.join(levels)}"
            return f"{name} = {' or '.join(levels)}"
        if self.kind == CATEGORY:
            return f"{name} {'≠' if self.negated else '='} {names.get(self.category, self.category)}"
        if self.kind == BINARY:
            value = "0" if self.negated else "1"
            if value in names:
                return f"{name} = {names[value]}"
            return f"{name} = {'no' if self.negated else 'yes'}"
        if self.asks_missing:
            return f"{name} {'not measured' if self.missing else 'measured'}"
        value = plain_number(self.threshold, precision) + (f" {unit}" if unit else "")
        return f"{name} {'≤' if self.negated else '>'} {value}"

    @property
    def not_measured(self):
        """Where a "not measured" answer goes: the learned direction (``missing``), or None
        when nothing was learned (no missing training values, or none allowed). The bedside
        (:func:`psl_core.decision.answer_for`) and the validation at another site
        (:func:`psl_core.validation.stage_totals`) follow it; predict methods also send a
        missing value of a column without missing training values to its common answer."""
        return self.missing if self.missing_learned else None

    @property
    def asks_missing(self):
        """Whether the literal only asks whether the value is missing: a numeric literal
        whose threshold is infinite, beyond every value on the side its missing answers
        sort to (see the module docstring); it holds for a missing answer when ``missing``."""
        return self.kind == NUMERIC and self.threshold is not None and not np.isfinite(self.threshold)


def plain_number(value, precision=4):
    """``value`` to ``precision`` significant digits, never in scientific notation: 152500
    for 1.525e+05, 0.000012 for 1.2e-05 (a threshold a reader compares a lab value with)."""
    rounded = float(f"{value:.{precision}g}")
    return np.format_float_positional(rounded, trim="-") if np.isfinite(rounded) else f"{rounded:g}"


@dataclass
class Column:
    """One input column as the learner sees it."""

    name: object
    kind: str
    values: np.ndarray  # float for numeric/binary (NaN missing), str objects for categorical
    missing: np.ndarray = None  # bool per row: a missing value; None when none is
    levels: tuple = None  # an ordered categorical's levels, in order; None otherwise


@dataclass
class CandidateFeature:
    """A binary feature family with its candidate cuts, precomputed once per fit.

    ``values`` is the float column (0/1 indicator for a category), ``order`` the stable
    argsort of ``values``, ``cuts`` the candidate thresholds (shape (C,)) and
    ``positions`` the number of rows with ``value <= cut`` for each cut (shape (C,)).
    With missing values (NaN in ``values``), ``missing_high`` says on which side of every
    cut they sort: True after the largest value (a missing answer satisfies ``x > t``),
    False before the smallest; None without missing values.
    """

    column: object
    kind: str
    category: object
    values: np.ndarray
    order: np.ndarray
    cuts: np.ndarray
    positions: np.ndarray
    missing_high: bool = None
    levels: tuple = None  # a grouping family: the levels in order, ``values`` their ranks

    def literal(self, cut_index, negated=False):
        """The literal this family gives at one cut."""
        threshold = float(self.cuts[cut_index]) if self.kind == NUMERIC else None
        missing = None if self.missing_high is None else bool(self.missing_high != bool(negated))
        categories = None if self.levels is None else tuple(
            level for rank, level in enumerate(self.levels) if rank > self.cuts[cut_index]
        )
        return Literal(self.column, self.kind, threshold, self.category, bool(negated), missing, True, categories)

    def indicator(self, cut_index, negated=False):
        """0/1 values of the literal (cut, polarity) on the training rows."""
        hit = self.values > self.cuts[cut_index]
        if self.missing_high is not None:
            hit = np.where(np.isnan(self.values), self.missing_high, hit)
        return (hit != negated).astype(np.int64)


def _is_binary(values):
    """0/1 values apart from missing ones (at least one present)."""
    present = values[~np.isnan(values)]
    return len(present) > 0 and np.isin(present, (0.0, 1.0)).all()


def _column_kind(series):
    if isinstance(series.dtype, pd.CategoricalDtype) or not (
        pd.api.types.is_numeric_dtype(series.dtype) or pd.api.types.is_bool_dtype(series.dtype)
    ):
        return CATEGORY
    return BINARY if _is_binary(series.to_numpy(dtype=float, na_value=np.nan)) else NUMERIC


def _check_finite(values, name, allow_missing=False, fitting=False):
    if allow_missing and fitting and np.isnan(values).all():
        raise DataError(
            f"column {name!r} holds only missing values: there is nothing to learn from it; leave it out"
        )
    if not allow_missing and np.isnan(values).any():
        raise DataError(
            f"column {name!r} has missing values (NaN): let the list learn where they go "
            "(missing='learn'), or impute them or drop those rows first; a scoring list does not "
            "guess them"
        )
    if np.isinf(values).any():
        raise DataError(f"column {name!r} has infinite values (inf): replace them with finite numbers")


def read_columns(X, fitting=True, allow_missing=False):
    """Split X into typed columns, validating as it goes.

    Parameters
    ----------
    X : pandas.DataFrame or array-like of shape (n_samples, n_features)
        A DataFrame may mix numeric, boolean, text and categorical columns; an array
        must be numeric.
    fitting : bool, default=True
        Whether X is training data: only then is a text column that mostly holds numbers
        refused (at prediction a few rows of a fitted text column may all look numeric).
    allow_missing : bool, default=False
        Keep missing values (NaN, None), marked in each column's ``missing``; by default
        they are refused.

    Returns
    -------
    list of Column
        Column names for a DataFrame, positions for an array.

    Raises
    ------
    DataError
        Empty data, column names of which some are strings and some not, a text column that holds
        numbers, missing or infinite values, non-numeric array data.
    """
    if isinstance(X, pd.DataFrame):
        _check_not_empty(X.shape)
        _check_column_names(X.columns)
        return [_frame_column(X.iloc[:, position], name, fitting, allow_missing) for position, name in enumerate(X.columns)]
    array = _numeric_array(X)
    columns = []
    for position in range(array.shape[1]):
        values = array[:, position]
        _check_finite(values, position, allow_missing, fitting)
        missing = np.isnan(values)
        columns.append(Column(
            position, BINARY if _is_binary(values) else NUMERIC, values, missing if missing.any() else None,
        ))
    return columns


def _frame_column(series, name, fitting, allow_missing):
    """The Column of one DataFrame column, checked (see :func:`read_columns`)."""
    _check_column_type(series, name)
    kind = _column_kind(series)
    missing = series.isna().to_numpy()
    if kind == CATEGORY:
        if missing.any():
            _check_finite(np.where(missing, np.nan, 0.0), name, allow_missing, fitting)
        if fitting:
            _check_not_numbers_as_text(series, name)
        values = series.astype(str).to_numpy(dtype=object)
        values[missing] = ""  # text, so the values sort; the mask says they are missing
    else:
        values = series.to_numpy(dtype=float, na_value=np.nan)
        _check_finite(values, name, allow_missing, fitting)
    ordered = isinstance(series.dtype, pd.CategoricalDtype) and series.dtype.ordered
    levels = tuple(str(level) for level in series.cat.categories) if ordered else None
    return Column(name, kind, values, missing if missing.any() else None, levels)


def _numeric_array(X):
    """X (not a DataFrame) as a 2-D float array, or a DataError saying why it cannot be one."""
    try:
        array = np.asarray(X)
    except (ValueError, TypeError) as exc:  # ragged nested lists and the like
        raise DataError(f"X cannot be read as a 2-D table: {exc}") from None
    if array.ndim != 2:
        raise DataError(
            f"X must be 2-D (n_samples, n_features), got an array of shape {array.shape}. "
            "Reshape your data with X.reshape(-1, 1) if it has a single feature"
        )
    _check_not_empty(array.shape)
    if np.iscomplexobj(array):
        raise DataError("Complex data not supported: a scoring list needs real numbers")
    try:
        return np.asarray(array, dtype=float)  # the caller's float array itself: no copy of a large X
    except ValueError:
        raise DataError(
            "X has non-numeric values: pass a pandas DataFrame to use text or categorical columns"
        ) from None


MOSTLY_NUMBERS = 0.5
"""A text column in which more than this share of the distinct values read as numbers is
refused: it is almost surely a numeric column stored as text (a stray word, a decimal comma),
and as categories its numbers would each become a question of their own."""


def _check_column_type(series, name):
    """Refuse column types a list cannot ask about: complex numbers (their imaginary part would
    be dropped) and dates, times and durations (they would become one category per date)."""
    if pd.api.types.is_complex_dtype(series.dtype):
        raise DataError(
            f"column {name!r} of X holds complex numbers; a scoring list needs real numbers: "
            f"pass X[{name!r}].real (or .abs()) if that is what it measures"
        )
    if pd.api.types.is_datetime64_any_dtype(series.dtype) or pd.api.types.is_timedelta64_dtype(series.dtype) or (
        isinstance(series.dtype, pd.PeriodDtype)
    ):
        raise DataError(
            f"column {name!r} of X holds dates or times ({series.dtype}), which a scoring list cannot ask "
            f"about; pass a number computed from it (e.g. age in years, days since admission) or drop it"
        )


def _check_column_names(names):
    """Column names are all strings, or all are the default positions 0, 1, ... (integers).

    A list phrases its questions with the names and saves them: a model file holds a column
    as text or a position, never a tuple (a MultiIndex) or another object. scikit-learn
    refuses a mix with a bare TypeError.
    """
    odd = [name for name in names if not isinstance(name, (str, numbers.Integral)) or isinstance(name, bool)]
    if odd:
        examples = ", ".join(f"{name!r} ({type(name).__name__})" for name in odd[:3])
        raise DataError(
            f"X's column names must be strings; {len(odd)} of {len(names)} are not, e.g. {examples}. "
            "Rename them, e.g. X.columns = ['_'.join(map(str, c)) for c in X.columns] for a MultiIndex"
        )
    other = [name for name in names if not isinstance(name, str)]
    if other and len(other) < len(names):
        examples = ", ".join(f"{name!r} ({type(name).__name__})" for name in other[:3])
        raise DataError(
            f"X's column names must be strings; {len(other)} of {len(names)} are not, e.g. {examples}. "
            "Rename them, e.g. X.columns = X.columns.astype(str)"
        )


def _check_not_numbers_as_text(series, name):
    """Refuse a text (object or string) column that mostly holds numbers."""
    if isinstance(series.dtype, pd.CategoricalDtype) or pd.api.types.is_bool_dtype(series.dtype):
        return
    distinct = pd.Series(series.unique())
    numbers = pd.to_numeric(distinct.astype(str).str.strip(), errors="coerce")
    if numbers.notna().mean() <= MOSTLY_NUMBERS:
        return
    strays = distinct[numbers.isna()].astype(str).tolist()
    examples = ", ".join(repr(value) for value in distinct[numbers.notna()].astype(str).tolist()[:3])
    stray_text = (
        f" apart from {', '.join(map(repr, strays[:3]))}" if strays else ""
    )
    raise DataError(
        f"column {name!r} holds numbers stored as text (e.g. {examples}){stray_text}. Convert it, "
        f"e.g. X[{name!r}] = pd.to_numeric(X[{name!r}], errors='coerce') and then fill in or drop "
        "the values that were not numbers; or make it categorical on purpose with "
        f"X[{name!r}].astype('category')"
    )


def _check_not_empty(shape):
    if shape[0] == 0:
        raise DataError(f"X is empty: 0 sample(s) (shape={shape}) while a minimum of 1 is required.")
    if shape[1] == 0:
        raise DataError(f"X is empty: 0 feature(s) (shape={shape}) while a minimum of 1 is required.")


def numeric_cuts(values, order=None):
    """Candidate thresholds of a numeric column and the rows at or below each.

    Parameters
    ----------
    values : ndarray of shape (n,)
    order : ndarray of int, shape (n,), optional
        ``argsort(values)`` if already known.

    Returns
    -------
    cuts : ndarray of shape (C,)
        One cut below the minimum, the mid-points between consecutive distinct values,
        one cut above the maximum (C = number of distinct values + 1).
    positions : ndarray of int, shape (C,)
        Number of rows with ``value <= cut``.
    """
    if order is None:
        order = np.argsort(values, kind="stable")
    ordered = values[order]
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    distinct = ordered[starts]
    with np.errstate(over="ignore"):  # values near the float limits: halve before adding
        middles = (distinct[:-1] + distinct[1:]) / 2
        overflow = ~np.isfinite(middles)
        middles[overflow] = distinct[:-1][overflow] / 2 + distinct[1:][overflow] / 2
        margin = np.median(distinct[1:] / 2 - distinct[:-1] / 2) if len(distinct) > 1 else 0.5
        outer = np.array([distinct[0] - margin, distinct[-1] + margin])
    outer = np.where(np.isfinite(outer), outer, np.nextafter(distinct[[0, -1]], [-np.inf, np.inf]))
    cuts = np.concatenate(([outer[0]], middles, [outer[1]]))
    positions = np.concatenate(([0], starts[1:], [len(values)]))
    return cuts, positions


def row_index_dtype(n_rows):
    """The integer type of row indices and counts kept per candidate feature: int32 below
    2**31 rows (half the memory of int64 on a large table), else int64."""
    return np.int32 if n_rows < 2**31 else np.int64


def candidate_feature(column, kind, category, values, missing_high=None, levels=None):
    """The candidate feature of one 0/1 indicator (binary, category) or numeric column, or
    of a grouping of a categorical column's ``levels`` (``values``: each row's level rank).

    With ``missing_high`` (True or False) ``values`` may hold NaN: the missing rows sort
    after (True) or before (False) every value, see :class:`CandidateFeature`.
    """
    if missing_high is None:
        present = np.arange(len(values))
    else:
        missing = np.isnan(values)
        n_missing = int(missing.sum())
        present = np.flatnonzero(~missing)
    if kind == NUMERIC or levels is not None:
        order = present[np.argsort(values[present], kind="stable")]
        cuts, positions = numeric_cuts(values[order], np.arange(len(order)))
    else:
        zeros, ones = present[values[present] < 0.5], present[values[present] >= 0.5]
        order = np.concatenate((zeros, ones))
        cuts, positions = np.array([0.5]), np.array([len(zeros)])
    if missing_high is not None:
        # The missing rows at the end of the order (above every cut) or at its start.
        absent = np.flatnonzero(missing)
        order = np.concatenate((order, absent)) if missing_high else np.concatenate((absent, order))
        if not missing_high:
            positions = positions + n_missing
        if kind == NUMERIC:
            # The outer cut on the missing rows' side is beyond every value: the literal
            # asks only whether the value is missing.
            cuts = cuts.copy()
            cuts[-1 if missing_high else 0] = np.inf if missing_high else -np.inf
    index = row_index_dtype(len(values))
    return CandidateFeature(
        column, kind, category, values, order.astype(index, copy=False), cuts, positions.astype(index, copy=False),
        missing_high, levels,
    )


def candidate_features(columns, y=None, groups=True, grouped=()):
    """The binary feature families of typed columns (one per category of a categorical,
    and one grouping of its levels when it has more than two).

    A column with missing values gives each of its families twice, missing answers on
    either side (see the module docstring); an all-missing column gives none.

    Parameters
    ----------
    columns : list of Column
    y : ndarray of 0/1, shape (n,), or None
        Orders an unordered categorical's levels by their event rate for its grouping;
        without it only ordered categoricals are grouped.
    groups : bool, default=True
        Whether categoricals with more than two levels get a grouping family at all.
    grouped : collection of column names, default=()
        Columns that get their grouping family whatever ``groups`` says: the monotone ones. A
        monotone ordered categorical is asked only by cuts in its order (one-vs-rest questions
        cannot keep a direction), so without them it could not be asked at all.

    Returns
    -------
    list of CandidateFeature
    """
    features = []
    for column in columns:
        missing = column.missing
        directions = (None,) if missing is None or not missing.any() else (True, False)
        if missing is not None and missing.all():
            continue
        if column.kind == CATEGORY:
            for category in np.unique(column.values[~missing] if missing is not None else column.values):
                indicator = (column.values == category).astype(float)
                if missing is not None:
                    indicator[missing] = np.nan
                for high in directions:
                    features.append(candidate_feature(column.name, CATEGORY, str(category), indicator, high))
            levels = _grouping_order(column, y) if groups or column.name in grouped else None
            if levels is not None:
                rank = {level: float(r) for r, level in enumerate(levels)}
                ranks = np.array([rank.get(value, np.nan) for value in column.values])
                if missing is not None:
                    ranks[missing] = np.nan
                for high in directions:
                    features.append(candidate_feature(column.name, CATEGORY, None, ranks, high, levels))
        else:
            for high in directions:
                features.append(candidate_feature(column.name, column.kind, None, column.values, high))
    return features


def _grouping_order(column, y):
    """The levels of a categorical column in the order its groupings cut them: an ordered
    categorical's own order, else by event rate (one pseudo-case at the overall rate, ties
    by name); None with two levels or fewer, or without ``y`` for an unordered one."""
    present = column.values if column.missing is None else column.values[~column.missing]
    observed = np.unique(present)
    if len(observed) <= 2:
        return None
    if column.levels is not None:
        return tuple(level for level in column.levels if level in set(observed))
    if y is None:
        return None
    y = np.asarray(y, dtype=float)
    known = ~np.isnan(y) if column.missing is None else ~np.isnan(y) & ~column.missing
    values, labels = column.values[known], y[known]
    base = labels.mean()
    rates = {level: (labels[values == level].sum() + base) / ((values == level).sum() + 1.0) for level in observed}
    return tuple(sorted(observed.tolist(), key=lambda level: (rates[level], level)))


def subset_feature(feature, rows):
    """A candidate feature restricted to some rows (for a held-out calibration set)."""
    if len(rows) == len(feature.values):
        return feature
    return candidate_feature(
        feature.column, feature.kind, feature.category, feature.values[rows], feature.missing_high, feature.levels,
    )


def may_ask(feature, monotone):
    """A one-vs-rest category of an ordered categorical with a monotone direction is not
    monotone in the levels: only its groupings (cuts in the order) may be asked."""
    return not (monotone and feature.column in monotone and feature.kind == "category" and feature.levels is None)


def with_missing_direction(feature, option, learn):
    """The literal of a chosen option; with ``learn``, one on a column without missing
    training values sends a missing answer to its more common answer (ties: no), as
    scikit-learn's HistGradientBoosting does, marked as not learned."""
    literal = feature.literal(option.cut, option.negated)
    if not learn or literal.missing is not None:
        return literal
    share = feature.indicator(option.cut, option.negated).mean()
    return replace(literal, missing=bool(share > 0.5), missing_learned=False)


def blocked_cuts(feature, asked):
    """The cuts of ``feature`` whose missing direction contradicts the literals a list
    already asks on the same column (``asked``: (CandidateFeature, cut index) pairs).

    Within one list a missing answer is ONE position on its column's line: above a
    threshold t of ``x > t`` where the literal sends it to the condition's side
    (``missing_high``, whatever the literal's negation or score), at or below t where it
    does not. A new threshold must leave a position that satisfies every earlier one: with
    a missing answer above t1 and at or below t2 (t1 < t2), a new one must put it above t
    for t >= t2 and at or below t for t <= t1. "Is the value missing?" (an infinite cut)
    puts it beyond every value and constrains nothing. For a categorical column a missing
    answer is at most one level, or a level of its own anywhere in the groupings' order:
    once it counts as ``x == a``, it counts as no other level, and a grouping puts it on
    a's side; once groupings put it on one side of their cuts, ``x == b`` may count it only
    for a level b on that side. A column without missing training values has no directions.

    Returns
    -------
    ndarray of bool, shape (C,)
        True for the cuts that may not be chosen.
    """
    blocked = np.zeros(len(feature.cuts), dtype=np.bool_)
    if feature.missing_high is None:
        return blocked
    above, below, level = -np.inf, np.inf, None  # missing is above ``above``, at most ``below``
    for other, cut in asked:
        if other.column != feature.column or other.missing_high is None:
            continue
        if other.kind == CATEGORY and other.levels is None:
            level = other.category if other.missing_high else level
            continue
        threshold = float(other.cuts[cut])
        if np.isfinite(threshold):
            above, below = (max(above, threshold), below) if other.missing_high else (above, min(below, threshold))
    if feature.kind == CATEGORY and feature.levels is None:
        # One level: missing counts as it only if no other level was chosen and the groupings allow it.
        if feature.missing_high:
            levels = next((o.levels for o, _ in asked if o.column == feature.column and o.levels), None)
            rank = None if levels is None else _rank(levels, feature.category)
            blocked[:] = level is not None or (rank is not None and not above < rank <= below)
        return blocked
    if level is not None and feature.levels is not None:
        rank = _rank(feature.levels, level)
        above, below = max(above, rank - 0.5), min(below, rank + 0.5)
    cuts = np.asarray(feature.cuts, dtype=float)
    return np.isfinite(cuts) & ((cuts >= below) if feature.missing_high else (cuts <= above))


def _rank(levels, category):
    """A one-vs-rest category's place in a grouping's order of levels."""
    return [str(level) for level in levels].index(str(category))
