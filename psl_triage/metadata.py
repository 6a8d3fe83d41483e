"""The metadata of a model file, typed: :class:`ModelMetadata`.

A model file's ``"metadata"`` entry is free JSON (the schema only bounds its size and the
shape of a few entries), written by whichever version of the app saved the list. It is
parsed once, where a file is read (:func:`psl_triage.store.open_model`) or a list is made
(the Train page, :func:`psl_triage.validation.save_recalibrated`), into a frozen
:class:`ModelMetadata`, and written back once, where a list is saved or downloaded
(:meth:`ModelMetadata.to_dict`). Everything else reads typed attributes.

What an older file lacks is filled in here, by one rule each: the positive class's name
(:attr:`ModelMetadata.positive_label`), M (the paper's 10 before lists carried their M), the
name proposed when saving (:attr:`ModelMetadata.default_name`). A value of an unexpected
type (a null included) is not guessed at: its typed attribute is None and the value is kept
as it was in :attr:`ModelMetadata.extra`, so ``ModelMetadata.from_dict(d).to_dict() == d``
for the metadata of every file (a current file's and an old one's alike; only entries of
``"decision"`` other than M, and column descriptions that are not objects, are not kept).

Nothing here imports Streamlit.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from psl_core.cost_ratio import DEFAULT_COST_RATIO, saved_cost_ratio

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


def _parse(cls, raw, parsers, names=None):
    """An instance of ``cls`` from the JSON object ``raw``: each key of ``parsers`` parsed by
    its function into the field ``names.get(key, key)`` (None when the value does not fit,
    a null included), everything else kept as it is in ``extra``."""
    raw = raw if isinstance(raw, Mapping) else {}
    values, extra = {}, {}
    for key, value in raw.items():
        parse = parsers.get(key)
        parsed = parse(value) if parse is not None else None
        if parsed is None:
            extra[str(key)] = copy.deepcopy(value)
        else:
            values[(names or {}).get(key, key)] = parsed  # each parser returns a new object
    return cls(**values, extra=extra)


def _unparse(obj):
    """The JSON object of ``obj`` (see :func:`_parse`): its typed fields that are set, then ``extra``."""
    out = {}
    for item in fields(obj):
        value = getattr(obj, item.name)
        if item.name != "extra" and value is not None:
            # A column's or a dataset's typed values are text, numbers or flat maps of them.
            out[item.name] = list(value) if isinstance(value, tuple) else dict(value) if isinstance(value, dict) else value
    out.update(copy.deepcopy(dict(obj.extra)))
    return out


@dataclass(frozen=True)
class ColumnRecord:
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
    training_range : dict of str to float or None
        Quantiles of a numeric column's training values and ``"n"``
        (:data:`psl_triage.modelcard.RANGE_QUANTILES`); files saved before lists recorded it have none.
    extra : dict
        Every other entry, and entries of an unexpected type, as the file holds them.
    """

    label: str | None = None
    unit: str | None = None
    kind: str | None = None
    category_labels: dict | None = None
    one_value: Any = None
    training_range: dict | None = None
    extra: dict = field(default_factory=dict)

    _PARSERS = {"label": _text, "unit": _text, "kind": _text, "category_labels": _text_map,
                "one_value": _one_value, "training_range": _range}

    @classmethod
    def from_dict(cls, raw) -> ColumnRecord:
        return _parse(cls, raw, cls._PARSERS)

    def to_dict(self) -> dict:
        return _unparse(self)

    @property
    def readable(self) -> dict:
        """``{"label", "unit", "category_labels"}`` as :meth:`ProbabilisticScoringList.describe_stage`
        and the questions read them (an empty label counts as none)."""
        return {"label": self.label or None, "unit": self.unit, "category_labels": dict(self.category_labels or {})}


@dataclass(frozen=True)
class DatasetRecord:
    """What a model file records about the table the list was trained on (``"dataset"``)."""

    name: str | None = None
    n_rows: int | None = None
    n_rows_source: int | None = None
    n_positive: int | None = None
    n_negative: int | None = None
    n_censored: int | None = None
    outcome: str | None = None
    outcome_label: str | None = None
    positive_label: str | None = None
    negative_label: str | None = None
    positive_class: tuple | None = None
    notes: tuple | None = None
    extra: dict = field(default_factory=dict)

    _PARSERS = {"name": _text, "n_rows": _whole, "n_rows_source": _whole, "n_positive": _whole,
                "n_negative": _whole, "n_censored": _whole, "outcome": _text, "outcome_label": _text, "positive_label": _text,
                "negative_label": _text, "positive_class": _scalars, "notes": _texts}

    @classmethod
    def from_dict(cls, raw) -> DatasetRecord:
        return _parse(cls, raw, cls._PARSERS)

    def to_dict(self) -> dict:
        return _unparse(self)


def _columns(value):
    # An entry that is not an object (the schema refuses it in a file) is left out.
    if isinstance(value, Mapping):
        return {str(name): ColumnRecord.from_dict(info) for name, info in value.items() if isinstance(info, Mapping)}
    return None


def _decision(value):
    # ModelFileError for a bad M, as loading the file gives; other entries of "decision" are
    # not kept (no version of the app wrote any).
    return None if value is None else saved_cost_ratio({"decision": value})


_TOP = {
    "name": _text, "version": _whole, "created": _text, "source": _text,
    "dataset": lambda value: DatasetRecord.from_dict(value) if isinstance(value, Mapping) else None,
    "columns": _columns, "decision": _decision, "cost_unit": _text,
    "training_options": _record, "performance": _record, "origin": _record,
    "column_roles": _record, "too_good_warning": _record, "follow_up": _record, "competing_events": _text,
}


@dataclass(frozen=True)
class ModelMetadata:
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
    training_options, performance, origin, column_roles, too_good, follow_up : dict
        The records of how the list was trained (options and train/test rows), its stagewise
        measures, where it was recalibrated, the column roles proposed, the too-good-to-be-true
        warning (``"too_good_warning"``) and the follow-up (time column, horizon, unit).
    competing_events : str
        What a horizon list's file says about competing events.
    extra : dict
        Every other entry, and entries of an unexpected type, exactly as the file holds them.
    """

    name: str | None = None
    version: int | None = None
    created: str | None = None
    source: str | None = None
    dataset: DatasetRecord | None = None
    columns: dict | None = None
    saved_cost_ratio: float | None = field(default=None, metadata={"key": "decision"})
    cost_unit: str | None = None
    training_options: dict | None = None
    performance: dict | None = None
    origin: dict | None = None
    column_roles: dict | None = None
    too_good: dict | None = field(default=None, metadata={"key": "too_good_warning"})
    follow_up: dict | None = None
    competing_events: str | None = None
    extra: dict = field(default_factory=dict)

    @classmethod
    def from_dict(cls, raw) -> ModelMetadata:
        """Parse a model file's metadata (a dict; None or anything else counts as empty).

        Raises
        ------
        psl_core.errors.ModelFileError
            ``"decision"`` holds no positive number for M (as loading the file does).
        """
        return _parse(cls, raw, _TOP, _FIELD_OF_KEY)

    @classmethod
    def coerce(cls, metadata) -> ModelMetadata:
        """``metadata`` itself when it is a ModelMetadata, else :meth:`from_dict` of it."""
        return metadata if isinstance(metadata, ModelMetadata) else cls.from_dict(metadata)

    @classmethod
    def of(cls, model) -> ModelMetadata:
        """The metadata a loaded list came with (``model.metadata_``)."""
        return cls.from_dict(getattr(model, "metadata_", None))

    def to_dict(self) -> dict:
        """The JSON-ready ``"metadata"`` entry of the model file."""
        out = {}
        for key in _TOP:
            value = getattr(self, _FIELD_OF_KEY.get(key, key))
            if value is None:
                continue
            if key == "decision":
                value = {"cost_ratio": value}
            elif key == "dataset":
                value = value.to_dict()
            elif key == "columns":
                value = {name: info.to_dict() for name, info in value.items()}
            else:
                value = copy.deepcopy(value)
            out[key] = value
        out.update(copy.deepcopy(dict(self.extra)))
        return out

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
        horizon = (self.follow_up or {}).get("horizon")
        if not isinstance(horizon, (int, float)) or isinstance(horizon, bool):
            return names
        from psl_triage.words.lists import horizon_class_names

        unit = (self.follow_up or {}).get("unit")
        return horizon_class_names(names[0], horizon, unit if isinstance(unit, str) else "", names[1])

    @property
    def default_name(self) -> str:
        """The name proposed when saving: the list's own, else its dataset's, else "PSL"."""
        for name in (self.name, self.trained_on.name):
            if name and name.strip():
                return name.strip()
        return DEFAULT_NAME

    @property
    def is_saved(self) -> bool:
        """Whether the list has a version in the store."""
        return self.version is not None

    def readable_columns(self) -> dict:
        """Readable names per column, as the questions and :meth:`describe_stage` read them."""
        return {name: info.readable for name, info in (self.columns or {}).items()}

    def column(self, name) -> ColumnRecord:
        """What the file records about the column ``name`` (an empty ColumnRecord if nothing)."""
        return (self.columns or {}).get(str(name)) or ColumnRecord()

    def saved_as(self, stored) -> ModelMetadata:
        """This metadata with the store's name, version and time of ``stored`` (a StoredModel)."""
        return replace(self, name=stored.name, version=stored.version, created=stored.created)


_FIELD_OF_KEY = {item.metadata["key"]: item.name for item in fields(ModelMetadata) if "key" in item.metadata}
"""The fields named otherwise than their entry of the file (``"decision"`` holds M)."""
