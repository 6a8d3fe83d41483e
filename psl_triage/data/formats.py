"""The shapes data takes between the steps: column kinds and handlings, per-column metadata
(:class:`ColumnSpec`, :class:`DatasetMeta`, :func:`relabel`) and the prepared training data
(:class:`PreparedData`, :class:`ColumnInfo`), with the limits they obey."""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from psl_core.binarization import BINARY, NUMERIC
from psl_core.survival import horizon_summary, survival_outcome
from psl_triage.words import data as words

CATEGORICAL, IGNORE = "categorical", "ignore"
"""The column kinds, spelled once: these two and psl_core's ``NUMERIC`` and ``BINARY``
(:mod:`psl_core.binarization`, imported here), which a numeric or binary column's literals share.
A model file's column metadata records the column kinds (``"kind": "categorical"``); its stages
record the literal kinds, where a categorical column gives ``CATEGORY`` ("category") literals."""

KIND_LABELS = {NUMERIC: words.NUMERIC_KIND, CATEGORICAL: words.CATEGORICAL_KIND, BINARY: words.BINARY_KIND,
               IGNORE: words.IGNORE_KIND}
"""How the Data page names each kind."""

ORDERED = "ordered"
"""What the constraints call a categorical column with its levels in order (as
``ProbabilisticScoringList.fit`` does): it may have a monotone direction. Its
:attr:`ColumnInfo.kind` stays :data:`CATEGORICAL`; :attr:`ColumnInfo.levels` holds the order."""

KINDS = (NUMERIC, CATEGORICAL, BINARY, IGNORE)
"""The column kinds a user can choose, in the order the page offers them."""

MISSING_HANDLINGS = ("learn", "drop", "impute")
"""Keep missing values for the learner, which learns where a missing answer goes
(``ProbabilisticScoringList(missing="learn")``); drop every row with a missing value; or
fill in the median (numbers) / the mode (others)."""

DEFAULT_MISSING_HANDLING = "learn"
"""The handling a table starts with, whatever its gaps: the learner keeps every row and learns
where a missing answer goes. A value is often missing for a reason (a lab not ordered because
the patient looked well), which dropping rows or filling in the median hides; both stay options."""

MOSTLY_EMPTY_SHARE = 0.40
"""A column with more than this share of its rows empty is never filled in, whatever the
handling of missing values: one value in most rows would be a made-up predictor. It reaches the
learner with its missing values (which learns where a missing answer goes), and
:func:`psl_triage.data.roles.propose_roles` checks whether its missingness carries the outcome."""

MIN_ROWS_PER_CLASS = 10
"""Fewer rows than this in either outcome class is too little to learn or calibrate from."""

MAX_CATEGORIES = 30
"""A categorical column with more categories than this cannot become a readable list."""

POOLED_CATEGORY = "other (pooled)"
"""The category that holds the rarest values of text with more than :data:`MAX_CATEGORIES` values
that repeat across rows (a clinic, a ward, a referring unit)."""

MAX_OUTCOME_CLASSES = 20
"""An outcome with more distinct values than this is a measurement, not a class label."""


@dataclass(frozen=True)
class ColumnSpec:
    """What is known about a column beyond its values (the bundled demo data carries these).

    Attributes
    ----------
    label : str
        Clinician-readable name, e.g. "Max heart rate"; empty means "use the column name".
    unit : str
        Unit of a numeric column, e.g. "bpm"; empty if none.
    kind : str or None
        One of :data:`KINDS`, overriding the inferred type; None keeps the inferred type.
    categories : Mapping
        Raw value -> readable label, e.g. ``{1: "typical angina"}`` or ``{1: "male", 0: "female"}``.
    binary_one : object
        For a binary column, the raw value that becomes 1 (e.g. 1 for sex: 1 = male).
    description : str
        One or two sentences for a tooltip.
    """

    label: str = ""
    unit: str = ""
    kind: str | None = None
    categories: Mapping[object, str] = field(default_factory=dict)
    binary_one: object = None
    description: str = ""


@dataclass(frozen=True)
class DatasetMeta:
    """A dataset's name, provenance and column specs, plus its known outcome if there is one."""

    name: str
    columns: Mapping[str, ColumnSpec] = field(default_factory=dict)
    outcome: str | None = None
    positive_class: object = None
    description: str = ""
    source: str = ""


@dataclass(frozen=True)
class ColumnInfo:
    """How a feature column of :attr:`PreparedData.X` is to be read and phrased.

    Attributes
    ----------
    name : str
        Column name in X and in the source table.
    label, unit : str
        Clinician-readable name and unit ("Max heart rate", "bpm"); unit may be empty.
    kind : str
        "numeric", "binary" or "categorical".
    category_labels : dict of str to str
        Categorical: category string in X -> readable label. Binary: ``{"1": ..., "0": ...}``,
        the readable meaning of 1 and 0 (e.g. ``{"1": "male", "0": "female"}``).
    one_value : object
        Binary only: the raw value that was mapped to 1.
    fill_value : object
        The value that filled in missing entries (median or most frequent), None if none did.
    levels : tuple of str or None
        An ordered categorical column's categories in their order (``category_labels`` follows
        it); None for every other column.
    """

    name: str
    label: str
    unit: str
    kind: str
    category_labels: dict[str, str] = field(default_factory=dict)
    levels: tuple[str, ...] | None = None
    one_value: object = None
    fill_value: object = None

    @property
    def display_name(self) -> str:
        """Label with its unit, e.g. "Max heart rate (bpm)"."""
        return f"{self.label} ({self.unit})" if self.unit else self.label


def rows_digest(X: pd.DataFrame, *parts) -> str:
    """A digest of rows: ``X``'s column names and values (its index left out) and ``parts``,
    numeric arrays aligned with its rows (an outcome, follow-up times; None is left out). Two
    tables with the same digest hold the same data; the one rule of a prepared table's
    fingerprint, which lists record, and of a site's table."""
    digest = hashlib.sha256()
    digest.update("\x1f".join(map(str, X.columns)).encode())
    digest.update(pd.util.hash_pandas_object(X, index=False).to_numpy().tobytes())
    for part in parts:
        if part is not None:
            digest.update(np.ascontiguousarray(part, dtype=float).tobytes())
    return digest.hexdigest()[:16]


_FINGERPRINTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
"""PreparedData.fingerprint of each prepared object alive (compared by identity: eq=False)."""


@dataclass(frozen=True, eq=False)
class PreparedData:
    """Training data for a PSL, ready for the learner.

    Attributes
    ----------
    X : pandas.DataFrame of shape (n_rows_after, n_features)
        Numeric columns as float64, binary columns as float64 0/1, categorical columns as
        pandas Categorical with string categories. Column names and the source row index are kept.
    y : numpy.ndarray of shape (n_rows_after,), dtype int64
        1 for the positive class, 0 otherwise.
    outcome : str
        Name of the outcome column.
    positive_class : tuple
        The raw outcome value(s) counted as positive.
    outcome_label, positive_label, negative_label : str
        Readable names: "Heart disease", "heart disease", "no heart disease".
    n_rows_before, n_rows_after : int
        Rows in the source table and rows kept.
    notes : list of str
        Plain sentences on everything that was dropped, filled in, mapped or left out.
    columns : dict of str to ColumnInfo
        Metadata of every column of X, in the order of X.
    follow_up : psl_triage.data.follow_up.FollowUp or None
        For a time-to-event list: the time column, the horizon and its unit; ``y`` is then
        the event indicator (at any time) and the labels say "within" the horizon.
    time : numpy.ndarray of shape (n_rows_after,) or None
        The follow-up times of the rows of X (with ``follow_up``).
    """

    X: pd.DataFrame
    y: np.ndarray
    outcome: str
    positive_class: tuple
    outcome_label: str
    positive_label: str
    negative_label: str
    n_rows_before: int
    n_rows_after: int
    notes: list[str]
    columns: dict[str, ColumnInfo]
    follow_up: object = None
    time: np.ndarray | None = None

    @property
    def horizon_counts(self) -> dict | None:
        """Follow-up data's counts at the horizon (:func:`psl_core.survival.horizon_summary`):
        events by it, censored before it, followed beyond it; None for a yes/no outcome."""
        if self.follow_up is None or self.time is None:
            return None
        return horizon_summary(survival_outcome(self.time, self.y), self.follow_up.horizon)

    @property
    def n_positive(self) -> int:
        """Rows with the outcome; for follow-up data, the events by the horizon."""
        counts = self.horizon_counts
        return int(self.y.sum()) if counts is None else counts["events"]

    @property
    def fingerprint(self) -> str:
        """A digest of the rows as the learner sees them (columns, values, outcome, follow-up
        times): two prepared tables with the same fingerprint hold the same data. A list records
        its data's (``"dataset"."fingerprint"``), so a page tells the table a list was trained on
        from another with the same columns (:func:`psl_triage.data.list_data.list_table_mismatch`).
        Computed once per object (the page asks on every rerun), kept beside it, not in it."""
        if self not in _FINGERPRINTS:
            _FINGERPRINTS[self] = self._digest()
        return _FINGERPRINTS[self]

    def _digest(self) -> str:
        return rows_digest(self.X, self.y, self.time)

    @property
    def n_negative(self) -> int:
        """Rows without it; for follow-up data, those followed beyond the horizon."""
        counts = self.horizon_counts
        return int(len(self.y) - self.y.sum()) if counts is None else counts["beyond"]

    @property
    def n_censored(self) -> int:
        """Follow-up rows censored before the horizon (their outcome at it unknown); 0 otherwise."""
        counts = self.horizon_counts
        return 0 if counts is None else counts["censored"]


def relabel(meta: DatasetMeta, labels: Mapping[object, tuple[str, str]]) -> DatasetMeta:
    """``meta`` with the user's clinical label and unit for some columns.

    Parameters
    ----------
    meta : DatasetMeta
    labels : mapping of column name to (label, unit)
        Text is stripped; a blank label (or the column's own name) means "use the column name".
        Other parts of a column's spec (kind, category labels) are kept.
    """
    columns = dict(meta.columns)
    for name, (label, unit) in labels.items():
        label, unit = " ".join(str(label).split()), " ".join(str(unit).split())
        label = "" if label == str(name) else label
        spec = columns.get(name)
        if spec is None and not label and not unit:
            continue
        columns[name] = replace(spec or ColumnSpec(), label=label, unit=unit)
    return replace(meta, columns=columns)
