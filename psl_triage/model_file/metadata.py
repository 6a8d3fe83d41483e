"""The metadata of a model file, typed: :class:`ModelMetadata`.

A model file's ``"metadata"`` entry is free JSON (the schema only bounds its size and the
shape of a few entries), written by whichever version of the app saved the list. It is
parsed once, where a file is read (:func:`psl_triage.model_file.store.open_model`) or a list is made
(the Train page, :func:`psl_triage.judging.validation.save_recalibrated`), into a frozen
:class:`ModelMetadata`, and written back once, where a list is saved or downloaded
(:meth:`ModelMetadata.to_dict`). Everything else reads typed attributes.

What an older file lacks is filled in here, by one rule each: the positive class's name
(:attr:`ModelMetadata.positive_label`), M (the paper's 10 before lists carried their M), the
name proposed when saving (:attr:`ModelMetadata.default_name`). A value of an unexpected
type (a null included) is not guessed at: its typed attribute is None and the value is kept
as it was in :attr:`ModelMetadata.extra`, so ``ModelMetadata.from_dict(d).to_dict() == d``
for the metadata of every file (a current file's and an old one's alike; only entries of
``"decision"`` other than M, and column descriptions that are not objects, are not kept).
"""

from __future__ import annotations

import base64
import binascii
import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import PurePath
from typing import Any

import numpy as np

from psl_core.cost_ratio import DEFAULT_COST_RATIO, saved_cost_ratio
from psl_core.survival import is_horizon_list
from psl_triage.words.lists import horizon_class_names

POSITIVE_FALLBACK = "the positive class"
NEGATIVE_FALLBACK = "the negative class"
"""Names of the classes of a list whose file does not name them (one rule for every page)."""
DEFAULT_NAME = "PSL"
"""The name proposed when saving a list that has neither a name nor a dataset name."""


def _text(value):
    return value if isinstance(value, str) else None


def _whole(value):
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _record(value):
    return copy.deepcopy(dict(value)) if isinstance(value, Mapping) else None


def _one_value(value):
    return value if isinstance(value, (bool, int, float, str)) else None


def _text_map(value):
    if isinstance(value, Mapping) and all(isinstance(v, str) for v in value.values()):
        return {str(k): v for k, v in value.items()}
    return None


def _range(value):
    if isinstance(value, Mapping) and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                          for v in value.values()):
        return dict(value)
    return None


def _texts(value):
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def _scalars(value):
    if isinstance(value, list) and all(isinstance(v, (bool, int, float, str)) for v in value):
        return tuple(value)
    return None


def _entry(parse, key: str | None = None, write=None):
    """A typed entry of a model file's JSON object, declared with its field: None when the
    file lacks it or holds a value of another type. ``parse`` reads the file's value (a new
    object, or None when it does not fit), ``write`` writes it back (by default a copy, a tuple
    as a list); ``key``: its name in the file, when not the field's."""
    return field(default=None, metadata={"parse": parse, "key": key, "write": write})


def _plain(value):
    return list(value) if isinstance(value, tuple) else copy.deepcopy(value)


class _Record:
    """A frozen record of a JSON object of the model file: each typed entry a field declared
    with :func:`_entry`, everything else (and an entry of an unexpected type) kept as it is
    in ``extra``, so ``cls.from_dict(d).to_dict() == d``."""

    @classmethod
    def _entries(cls) -> dict:
        return {item.metadata["key"] or item.name: item for item in fields(cls) if "parse" in item.metadata}

    @classmethod
    def from_dict(cls, raw):
        """Parse the file's JSON object (None or anything else counts as empty)."""
        raw = raw if isinstance(raw, Mapping) else {}
        entries, values, extra = cls._entries(), {}, {}
        for key, value in raw.items():
            item = entries.get(key)
            parsed = None if item is None else item.metadata["parse"](value)
            if parsed is None:
                extra[str(key)] = copy.deepcopy(value)
            else:
                values[item.name] = parsed  # each parser returns a new object
        return cls(**values, extra=extra)

    def to_dict(self) -> dict:
        """The JSON-ready object: the typed entries that are set, in their order, then ``extra``."""
        out = {}
        for key, item in self._entries().items():
            value = getattr(self, item.name)
            if value is not None:
                out[key] = (item.metadata["write"] or _plain)(value)
        out.update(copy.deepcopy(dict(self.extra)))
        return out


@dataclass(frozen=True)
class ColumnRecord(_Record):
    """What a model file records about one column of the training table.

    Attributes
    ----------
    label, unit : str or None
        Its readable name and unit.
    kind : str or None
        "binary", "categorical" or "numeric".
    category_labels : dict of str to str or None
        Readable names of its categories (of a binary column's two values).
    one_value : bool, int, float, str or None
        The raw value a binary column maps to 1.
    levels : tuple of str or None
        An ordered categorical column's categories in their order (files saved before the
        app could order categories, and unordered columns, have none).
    training_range : dict of str to float or None
        Quantiles of a numeric column's training values and ``"n"``
        (:data:`psl_triage.model_file.writer.RANGE_QUANTILES`); files saved before lists recorded it have none.
    extra : dict
        Every other entry, and entries of an unexpected type, as the file holds them.
    """

    label: str | None = _entry(_text)
    unit: str | None = _entry(_text)
    kind: str | None = _entry(_text)
    category_labels: dict | None = _entry(_text_map)
    one_value: Any = _entry(_one_value)
    levels: tuple | None = _entry(_texts)
    training_range: dict | None = _entry(_range)
    extra: dict = field(default_factory=dict)

    @property
    def readable(self) -> dict:
        """``{"label", "unit", "category_labels"[, "levels"]}`` as
        :meth:`psl_core.model.ProbabilisticScoringList.describe_stage` and the questions read them (an empty
        label counts as none; ``"levels"`` only for an ordered column)."""
        readable = {"label": self.label or None, "unit": self.unit, "category_labels": dict(self.category_labels or {})}
        if self.levels:
            readable["levels"] = list(self.levels)
        return readable


@dataclass(frozen=True)
class DatasetRecord(_Record):
    """What a model file records about the table the list was trained on (``"dataset"``,
    written by :func:`psl_triage.model_file.writer.model_metadata` from the prepared data); each
    entry None when the file does not hold it, ``extra`` every other entry."""

    name: str | None = _entry(_text)
    n_rows: int | None = _entry(_whole)  # rows kept for training
    n_rows_source: int | None = _entry(_whole)  # rows of the table as loaded
    n_positive: int | None = _entry(_whole)
    n_negative: int | None = _entry(_whole)  # a horizon list's: followed beyond the horizon
    n_censored: int | None = _entry(_whole)  # a horizon list's: censored before the horizon
    outcome: str | None = _entry(_text)  # the outcome column
    outcome_label: str | None = _entry(_text)  # readable: "Heart disease"
    positive_label: str | None = _entry(_text)  # "heart disease"
    negative_label: str | None = _entry(_text)  # "no heart disease"
    positive_class: tuple | None = _entry(_scalars)  # the raw outcome values counted as positive
    notes: tuple | None = _entry(_texts)  # sentences on what preparing the table dropped or filled in
    fingerprint: str | None = _entry(_text)  # PreparedData.fingerprint of the rows it learned from
    extra: dict = field(default_factory=dict)


def _number(value):
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


@dataclass(frozen=True)
class FollowUpRecord(_Record):
    """What a horizon list's file records about its follow-up (``"follow_up"``): the time column,
    the horizon's unit and the training rows' chance of staying uncensored to the horizon.

    The horizon itself is the list's own parameter (``model.horizon``), its one home: read it
    with :func:`list_horizon`. ``saved_horizon`` is the copy files saved before this record
    dropped it still hold; only :attr:`ModelMetadata.class_names` reads it, for the names of
    such a file's classes (written before they said the horizon)."""

    time: str | None = _entry(_text)
    saved_horizon: float | None = _entry(_number, "horizon")
    unit: str | None = _entry(_text)
    uncensored_at_horizon: float | None = _entry(_number)
    extra: dict = field(default_factory=dict)


def _follow_up(value):
    return FollowUpRecord.from_dict(value) if isinstance(value, Mapping) else None


@dataclass(frozen=True)
class HeldOutRecord(_Record):
    """The rows the fit held out (``"held_out"``), recorded once by the fit so that every page
    judges the list on the very rows it never saw: ``n_rows``, the rows of the prepared table,
    and ``test_rows``, which of them were held out (a bitmask in row order, base64 of
    :func:`numpy.packbits`: one character for six rows). Build it with :meth:`of_rows`, read it
    with :meth:`test_positions`."""

    n_rows: int | None = _entry(_whole)
    test_rows: str | None = _entry(_text)
    extra: dict = field(default_factory=dict)

    @classmethod
    def of_rows(cls, test, n_rows: int) -> HeldOutRecord:
        """The record of the held-out positions ``test`` among ``n_rows`` rows."""
        mask = np.zeros(int(n_rows), dtype=bool)
        mask[np.asarray(test, dtype=int)] = True
        return cls(n_rows=int(n_rows), test_rows=base64.b64encode(np.packbits(mask).tobytes()).decode("ascii"))

    def test_positions(self) -> np.ndarray | None:
        """The held-out rows' positions, ascending; None when the record is not one this app
        writes (a missing or negative count, a mask of another length or not base64)."""
        if self.n_rows is None or self.n_rows < 0 or self.test_rows is None:
            return None
        try:
            packed = np.frombuffer(base64.b64decode(self.test_rows, validate=True), dtype=np.uint8)
        except (binascii.Error, ValueError):
            return None
        if len(packed) != -(-self.n_rows // 8):
            return None
        return np.flatnonzero(np.unpackbits(packed)[:self.n_rows])


def _held_out(value):
    return HeldOutRecord.from_dict(value) if isinstance(value, Mapping) else None


def _columns(value):
    # An entry that is not an object (the schema refuses it in a file) is left out.
    if isinstance(value, Mapping):
        return {str(name): ColumnRecord.from_dict(info) for name, info in value.items() if isinstance(info, Mapping)}
    return None


def _decision(value):
    # ModelFileError for a bad M, as loading the file gives; other entries of "decision" are
    # not kept (no version of the app wrote any).
    return None if value is None else saved_cost_ratio({"decision": value})


def _dataset(value):
    return DatasetRecord.from_dict(value) if isinstance(value, Mapping) else None


@dataclass(frozen=True)
class ModelMetadata(_Record):
    """The typed metadata of a list: where it comes from and how to read and use it.

    Attributes (each None when the file does not hold it)
    ----------
    name, version, created : str, int, str
        Set by the store when the list is saved.
    source : str
        "trained" (Train page) or "recalibrated" (Validate page).
    dataset : DatasetRecord
        The training table: name, rows, outcome and the classes' names.
    columns : dict of str to ColumnRecord
        Every column the list could ask about, with its training range.
    saved_cost_ratio : float
        M the list was saved with (``"decision": {"cost_ratio": M}``); see :attr:`cost_ratio`.
    cost_unit : str
        The unit of the questions' costs.
    training_options, performance, origin, column_roles, too_good : dict
        The records of how the list was trained (options and train/test rows), its stagewise
        measures, where it was recalibrated, the column roles proposed and the too-good-to-be-true
        warning (``"too_good_warning"``).
    follow_up : FollowUpRecord
        A horizon list's time column, unit and censoring at the horizon; the horizon with
        them: :func:`list_horizon`.
    competing_events : str
        What a horizon list's file says about competing events.
    known_at_triage : dict of str to str
        The researcher's answer, per question the list asks, whether it is known at triage
        (``"known"``) or recorded after the outcome (``"later"``): :mod:`psl_triage.training.known_at_triage`;
        files saved before lists carried it have none (not confirmed).
    held_out : HeldOutRecord
        The rows the fit held out; lists saved before carry only the seed and fraction of their
        split (``training_options``): :func:`psl_triage.training.held_out.recorded_split`.
    extra : dict
        Every other entry, and entries of an unexpected type, exactly as the file holds them.
    """

    name: str | None = _entry(_text)
    version: int | None = _entry(_whole)
    created: str | None = _entry(_text)
    source: str | None = _entry(_text)
    dataset: DatasetRecord | None = _entry(_dataset, write=DatasetRecord.to_dict)
    columns: dict | None = _entry(_columns, write=lambda columns: {name: info.to_dict() for name, info in columns.items()})
    saved_cost_ratio: float | None = _entry(_decision, "decision", write=lambda m: {"cost_ratio": m})
    cost_unit: str | None = _entry(_text)
    training_options: dict | None = _entry(_record)
    performance: dict | None = _entry(_record)
    origin: dict | None = _entry(_record)
    column_roles: dict | None = _entry(_record)
    too_good: dict | None = _entry(_record, "too_good_warning")
    follow_up: FollowUpRecord | None = _entry(_follow_up, write=FollowUpRecord.to_dict)
    competing_events: str | None = _entry(_text)
    known_at_triage: dict | None = _entry(_text_map)
    held_out: HeldOutRecord | None = _entry(_held_out, write=HeldOutRecord.to_dict)
    extra: dict = field(default_factory=dict)

    @classmethod
    def from_dict(cls, raw) -> ModelMetadata:
        """Parse a model file's metadata (a dict; None or anything else counts as empty).

        Raises
        ------
        psl_core.errors.ModelFileError
            ``"decision"`` holds no positive number for M (as loading the file does).
        """
        return super().from_dict(raw)

    @classmethod
    def coerce(cls, metadata) -> ModelMetadata:
        """``metadata`` itself when it is a ModelMetadata, else :meth:`from_dict` of it."""
        return metadata if isinstance(metadata, ModelMetadata) else cls.from_dict(metadata)

    @classmethod
    def of(cls, model) -> ModelMetadata:
        """The metadata a loaded list came with (``model.metadata_``)."""
        return cls.from_dict(getattr(model, "metadata_", None))

    @property
    def trained_on(self) -> DatasetRecord:
        """:attr:`dataset`, or an empty DatasetRecord when the file does not describe its table."""
        return self.dataset or DatasetRecord()

    @property
    def cost_ratio(self) -> float:
        """M to use the list with: the saved one, else the paper's 10 (lists saved before they
        carried their M)."""
        return DEFAULT_COST_RATIO if self.saved_cost_ratio is None else self.saved_cost_ratio

    @property
    def positive_label(self) -> str:
        """The positive class's name (the Data page's), else :data:`POSITIVE_FALLBACK`."""
        return self.class_names[0]

    @property
    def negative_label(self) -> str:
        """The negative class's name (the Data page's), else :data:`NEGATIVE_FALLBACK`."""
        return self.class_names[1]

    @property
    def class_names(self) -> tuple[str, str]:
        """(positive, negative) names; a list of the risk within a horizon says the horizon
        in both, as one saved before its names carried it does too
        (:func:`psl_triage.words.lists.horizon_class_names`)."""
        names = (self.trained_on.positive_label or POSITIVE_FALLBACK,
                 self.trained_on.negative_label or NEGATIVE_FALLBACK)
        follow_up = self.follow_up or FollowUpRecord()
        if follow_up.saved_horizon is None:  # a yes/no list, or names that say the horizon already
            return names
        return horizon_class_names(names[0], follow_up.saved_horizon, follow_up.unit or "", names[1])

    @property
    def default_name(self) -> str:
        """The name proposed when saving: the list's own, else its dataset's, else "PSL"."""
        for name in (self.name, self.trained_on.name):
            if name and name.strip():
                return name.strip()
        return DEFAULT_NAME

    def named_after(self, filename: str) -> ModelMetadata:
        """This metadata, named after the file it was read from (its stem) when it names no list
        (a download of a list never saved): the pages call the list what the user loaded."""
        if self.name and self.name.strip():
            return self
        return replace(self, name=PurePath(filename).stem)

    @property
    def is_saved(self) -> bool:
        """Whether the list has a version in the store."""
        return self.version is not None

    def readable_columns(self) -> dict:
        """Readable names per column, as the questions and
        :meth:`psl_core.model.ProbabilisticScoringList.describe_stage` read them."""
        return {name: info.readable for name, info in (self.columns or {}).items()}

    def column(self, name) -> ColumnRecord:
        """What the file records about the column ``name`` (an empty ColumnRecord if nothing)."""
        return (self.columns or {}).get(str(name)) or ColumnRecord()

    def saved_as(self, stored) -> ModelMetadata:
        """This metadata with the store's name, version and time of ``stored`` (a StoredModel)."""
        return replace(self, name=stored.name, version=stored.version, created=stored.created)



@dataclass(frozen=True)
class ListHorizon:
    """A horizon list's follow-up as the pages use it (:func:`list_horizon`).

    Attributes
    ----------
    horizon : float
        tau, the list's own parameter: the risk is of the event within tau.
    unit : str
        Its unit ("days"; "" when the file does not say).
    time : str or None
        The training table's time column.
    uncensored_at_horizon : float or None
        The training rows' chance of staying uncensored to tau (Validate compares a site's).
    """

    horizon: float
    unit: str = ""
    time: str | None = None
    uncensored_at_horizon: float | None = None

    def record(self) -> dict:
        """``{"horizon", "unit", "time"}`` for an export (the unit and time when known)."""
        return {"horizon": self.horizon, **({"unit": self.unit} if self.unit else {}),
                **({"time": self.time} if self.time is not None else {})}


def list_horizon(model, metadata=None) -> ListHorizon | None:
    """The horizon of a list of the risk within a horizon, with its unit and time column; None for
    a yes/no list. The one accessor: the horizon from the list (``model.horizon``), the rest from
    its metadata (``metadata``, else the list's own ``metadata_``)."""
    if not is_horizon_list(model):
        return None
    metadata = ModelMetadata.of(model) if metadata is None else ModelMetadata.coerce(metadata)
    follow_up = metadata.follow_up or FollowUpRecord()
    return ListHorizon(float(model.horizon), follow_up.unit or "", follow_up.time, follow_up.uncensored_at_horizon)
