"""External validation as the Validate page offers it: a saved list on another site's table.

The steps, each a function the page calls:

1. :func:`needed_columns` and :func:`match_columns`: the columns the list asks about, matched
   by name to the new table's columns (exactly, else ignoring case and spaces); the page
   asks the user to map the rest.
2. :func:`outcome_defaults`: which column holds the outcome and which of its values count as
   positive (the saved outcome's name and positive values when the table has them).
3. :func:`coding_mismatches`: columns coded otherwise than at training (a yes/no column with
   other values, categories the list never saw, text bands where it learned numbers), each
   named with both codings; the user maps each value here to the list's coding, or to
   missing (``value_maps``).
4. :func:`site_table`: the new table coded like the training table (numbers, 0/1, category
   text; a missing answer stays missing: "not measured", judged where the list learned a
   missing answer goes, :func:`psl_core.validation.stage_totals`), with notes on everything
   that was decided.
5. :func:`unit_checks`: a numeric column whose values at the new site look like another unit
   (its median outside the training range, or a factor of :data:`UNIT_FACTOR` from the
   training median with its spread scaled alike). The training range is in the model file
   since lists recorded it (:func:`psl_triage.model_file.writer.columns_metadata`); older files skip
   the check with a note.
6. :func:`psl_core.validation.validation_report`, read in sentences and a table by
   :mod:`psl_triage.words.validate`.
7. :func:`save_recalibrated`: :func:`psl_core.validation.recalibrate` saved as a new version
   in the store, its origin in ``metadata["origin"]``.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

import numpy as np
import pandas as pd

from psl_core.binarization import BINARY, CATEGORY, NUMERIC
from psl_core.errors import DataError
from psl_core.validation import recalibrate
from psl_triage.data import POOLED_CATEGORY, count_classes, guess_positive_class, value_label
from psl_triage.data.formats import rows_digest
from psl_triage.data.values import value_labels
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.model_file.store import save_model
from psl_triage.words import md
from psl_triage.words import site as said

UNIT_FACTOR = 3.0
"""A numeric column whose median at the new site differs from the training median by this
factor or more (either way) is flagged as a possible change of unit (mg/dl vs mmol/l is 38.7,
lb vs kg 2.2, °F vs °C about 2 near body temperature, so 3 catches the large ones without
flagging ordinary case-mix shifts)."""
NOT_AVAILABLE = None


@dataclass(frozen=True)
class NeededColumn:
    """A column the list asks about: its name in the model file, label and kind."""

    name: str
    label: str
    kind: str  # "numeric", "binary" or "category" (the list's literal kind)
    first_stage: int


def _columns_meta(metadata):
    """Column name -> :class:`~psl_triage.model_file.metadata.ColumnRecord` of a list's metadata."""
    return ModelMetadata.coerce(metadata).columns or {}


def needed_columns(model, metadata):
    """The columns the list's questions ask about, in the order they are first asked.

    Returns
    -------
    list of NeededColumn
    """
    metadata = ModelMetadata.coerce(metadata)
    needed = {}
    for stage, literal in enumerate(model.literals_, start=1):
        name = str(literal.column)
        if name not in needed:
            needed[name] = NeededColumn(name, metadata.column(name).label or name, literal.kind, stage)
    return list(needed.values())


def _loose(name):
    return "".join(str(name).split()).casefold()


def match_columns(needed, frame_columns):
    """Each needed column's match among the new table's columns by name.

    An exact name matches first, else the same name ignoring case and spaces when only one
    column has it. Unmatched columns map to None (the page asks the user).

    Returns
    -------
    dict of str to str or None
    """
    columns = [str(c) for c in frame_columns]
    loose = {}
    for column in columns:
        loose.setdefault(_loose(column), []).append(column)
    matched = {}
    for need in needed:
        if need.name in columns:
            matched[need.name] = need.name
        else:
            candidates = loose.get(_loose(need.name), [])
            matched[need.name] = candidates[0] if len(candidates) == 1 else NOT_AVAILABLE
    return matched


def outcome_defaults(metadata, frame):
    """The outcome column and positive values to start with on a new table.

    Returns
    -------
    outcome : str or None
        The saved outcome's name when the table has that column, else None.
    positive : list
        Values of that column counted as positive: the saved positive values found in it, or
        for an older file without them the likely positive value of a two-valued column.
    """
    dataset = ModelMetadata.coerce(metadata).dataset
    outcome = dataset.outcome if dataset else None
    columns = [str(c) for c in frame.columns]
    if outcome is None or outcome not in columns:
        return None, []
    return outcome, positive_defaults(metadata, frame[outcome])


def positive_defaults(metadata, series):
    """The values of an outcome column to count as positive by default (see outcome_defaults)."""
    dataset = ModelMetadata.coerce(metadata).dataset
    saved = dataset.positive_class if dataset else None
    values = [value for value, _ in count_classes(series)]
    if saved:
        texts = {value_label(v) for v in saved}
        found = [value for value in values if value_label(value) in texts]
        if found:
            return found
    guess = guess_positive_class(series)
    return [] if guess is None else [guess]


@dataclass(frozen=True)
class SiteTable:
    """The new site's table coded like the training table.

    Attributes
    ----------
    X : pandas.DataFrame of shape (n, n_needed)
        One column per needed column under its model-file name: floats (numeric, binary 0/1)
        or category text; NaN / None for a missing answer.
    y : ndarray of int, shape (n,)
        1 for the positive values of the outcome.
    notes : list of str
    mapping : dict of str to str or None
    """

    X: pd.DataFrame
    y: np.ndarray
    notes: list[str] = field(default_factory=list)
    mapping: dict = field(default_factory=dict)

    @property
    def fingerprint(self) -> str:
        """A digest of the coded rows and outcome (:func:`psl_triage.data.formats.rows_digest`):
        what a page's kept result is keyed by, so a bootstrap or a simulation is not run again
        for the same patients. Computed on every call (one pass over the table)."""
        return rows_digest(self.X, self.y)


MISSING = None
"""What a value maps to in ``value_maps`` when it counts as missing."""


@dataclass(frozen=True)
class CodingMismatch:
    """A column whose values at the new site are not the list's coding.

    Attributes
    ----------
    need : NeededColumn
    source : str
        The site's column.
    unknown : list of str
        Its values (canonical text) that the list's coding does not have.
    site_values : list of str
        All its distinct values, most frequent first: what the user maps.
    training_values : list of str
        The list's coding of the column (category or yes/no values); empty for a numeric
        column, which expects numbers.
    training_labels : dict of str to str
        Readable names of ``training_values``.
    """

    need: NeededColumn
    source: str
    unknown: list
    site_values: list
    training_values: list
    training_labels: dict

    def message(self, metadata=None):
        """The error sentence naming the column and both codings (Markdown, names escaped)."""
        if self.need.kind == NUMERIC:
            info = ModelMetadata.coerce(metadata).column(self.need.name)
            return said.numbers_expected(self, info.training_range, info.unit)
        return said.coding_mismatch(self)


_NUMBER = r"[-+]?[0-9]+(?:[.,][0-9]+)?"
_BAND = re.compile(
    rf"^\s*(?:(?P<op><=|<|≤|>=|>|≥)\s*(?P<bound>{_NUMBER})|(?P<low>{_NUMBER})\s*(?:-|–|to)\s*(?P<high>{_NUMBER}))\s*$"
)


def _band(text):
    """(low, high, low_open, high_open) of a band label such as "<=20", "20-50", ">50", else None."""
    match = _BAND.match(str(text))
    if not match:
        return None

    def number(s):
        return float(s.replace(",", "."))

    if match["op"]:
        bound = number(match["bound"])
        return {
            "<=": (-math.inf, bound, True, False), "≤": (-math.inf, bound, True, False),
            "<": (-math.inf, bound, True, True),
            ">=": (bound, math.inf, False, True), "≥": (bound, math.inf, False, True),
            ">": (bound, math.inf, True, True),
        }[match["op"]]
    low, high = number(match["low"]), number(match["high"])
    return (low, high, False, False) if low < high else None


def band_map(mismatch):
    """The numbers of a site's column sorted into the list's bands, or None when not possible.

    When the list learned a category column whose categories are numeric bands ("<=20",
    "20-50", ">50") and the site has numbers there, each number goes to the band that holds
    it; where two bands share an end ("<=20" and "20-50" both hold 20) the first in order of
    their upper end takes it. A number outside every band counts as missing.

    Returns
    -------
    dict of str to str or None (MISSING), or None
    """
    if mismatch.need.kind != CATEGORY or not mismatch.training_values:
        return None
    bands = {category: _band(mismatch.training_labels.get(category, category)) for category in mismatch.training_values}
    if None in bands.values():
        bands = {category: _band(category) for category in mismatch.training_values}
    if None in bands.values():
        return None
    numbers = pd.to_numeric(pd.Series(mismatch.unknown, dtype=object), errors="coerce")
    if numbers.isna().any():
        return None
    order = sorted(bands, key=lambda c: (bands[c][1], bands[c][0]))

    def holds(band, x):
        low, high, low_open, high_open = band
        return (x > low if low_open else x >= low) and (x < high if high_open else x <= high)

    return {
        text: next((category for category in order if holds(bands[category], x)), MISSING)
        for text, x in zip(mismatch.unknown, numbers)
    }


def _training_coding(need, info):
    """The list's codings of a yes/no or category column (texts) and their readable names."""
    labels = dict(info.category_labels or {})
    if need.kind != BINARY:
        return list(labels), labels
    # A yes/no column's labels name its 0/1 codes: the raw values themselves ("1": "2",
    # "0": "3" for a grade coded 2/3, yes = 2), or readable names of a 0/1 column.
    one = info.one_value
    one_text = "1" if one is None else value_label(one)
    if labels.get("1") == one_text and labels.get("0", "0") != "0":  # raw values (a histology coded 1/2)
        return [one_text, labels["0"]], {one_text: "yes", labels["0"]: "no"}
    if one_text == "1":
        return ["1", "0"], {"1": labels.get("1", "yes"), "0": labels.get("0", "no")}
    return [one_text], {one_text: "yes"}


def _mapped(series, value_map):
    """The column with the user's value map applied (a value mapped to MISSING becomes NaN)."""
    if not value_map:
        return series
    return value_labels(series).map(lambda text: value_map.get(text, text), na_action="ignore")


def coding_mismatches(model, metadata, frame, mapping, value_maps=None):
    """The needed columns whose values here are not the list's coding, after ``value_maps``.

    A numeric column mismatches when some present values are not numbers (text bands such
    as "<=20", "20-50"); a yes/no column when it has a value outside the list's two (or,
    for an older file that records only the yes value, more than two values); a category
    column when it has a category the list never saw.

    Parameters
    ----------
    model, metadata, frame, mapping
        As for :func:`site_table`.
    value_maps : dict of str to dict, or None
        Needed column -> {value here (canonical text) -> the list's value, or MISSING}.

    Returns
    -------
    list of CodingMismatch
    """
    metadata = ModelMetadata.coerce(metadata)
    mismatches = []
    for need in needed_columns(model, metadata):
        source = mapping.get(need.name)
        if source is NOT_AVAILABLE or source not in frame.columns:
            continue
        series = frame[source]
        present = series.notna() & (series.astype(str).str.strip() != "")
        series = _mapped(series.where(present), (value_maps or {}).get(need.name))
        texts = value_labels(series.dropna())
        counts = texts.value_counts()
        site_values = [str(v) for v in counts.index]
        raw_counts = value_labels(frame[source].where(present).dropna()).value_counts()
        info = metadata.column(need.name)
        if need.kind == NUMERIC:
            numbers = pd.to_numeric(series, errors="coerce")
            unknown = sorted(set(texts[numbers.reindex(texts.index).isna()]))
            training, labels = [], {}
        else:
            training, labels = _training_coding(need, info)
            if len(training) == 1:  # an older file: only the yes value is known, any other means no
                unknown = [v for v in site_values if v not in training] if len(site_values) > 2 else []
            else:
                unknown = [v for v in site_values if v not in training]
        if unknown:
            mismatches.append(CodingMismatch(need, str(source), unknown, [str(v) for v in raw_counts.index],
                                             training, labels))
    return mismatches


def site_table(model, metadata, frame, mapping, outcome, positive, value_maps=None):
    """Code the new table's columns for the list; rows without an outcome are dropped.

    Parameters
    ----------
    model : fitted ProbabilisticScoringList
    metadata : dict
        The list's model-file metadata.
    frame : pandas.DataFrame
        The new table as read (:func:`psl_triage.data.load_table`).
    mapping : dict of str to str or None
        Needed column -> the table's column; None: not recorded at this site (every answer
        missing).
    outcome : str
        The table's outcome column.
    positive : list
        Values of ``outcome`` counted as positive.
    value_maps : dict of str to dict, or None
        Needed column -> {value here -> the list's value, or MISSING} (see
        :func:`coding_mismatches`), applied before coding.

    Returns
    -------
    SiteTable

    Raises
    ------
    DataError
        Unknown columns, no positive value chosen, no row with an outcome, a binary column
        with more than two values.
    """
    if outcome not in frame.columns:
        raise DataError(said.OUTCOME_NOT_IN_TABLE.format(outcome=outcome))
    if not positive:
        raise DataError(said.CHOOSE_POSITIVE_VALUES.format(outcome=outcome))
    notes = []
    has_outcome = frame[outcome].notna() & (frame[outcome].astype(str).str.strip() != "")
    if not has_outcome.all():
        notes.append(said.LEFT_OUT_WITHOUT_OUTCOME.format(count=int((~has_outcome).sum()), outcome=outcome))
    frame = frame.loc[has_outcome]
    if frame.empty:
        raise DataError(said.NO_OUTCOME_VALUES.format(outcome=outcome))
    positive_texts = {value_label(v) for v in positive}
    y = value_labels(frame[outcome]).isin(positive_texts).to_numpy(dtype=np.int64)
    metadata = ModelMetadata.coerce(metadata)
    columns = {}
    for need in needed_columns(model, metadata):
        source = mapping.get(need.name)
        if source is NOT_AVAILABLE:
            notes.append(_not_in_table(model, need))
            columns[need.name] = pd.Series(np.nan, index=frame.index)
            continue
        if source not in frame.columns:
            raise DataError(said.CHOSEN_COLUMN_NOT_IN_TABLE.format(source=source, label=need.label))
        info = metadata.column(need.name)
        columns[need.name] = _coded(_mapped(frame[source], (value_maps or {}).get(need.name)), need, source, info, notes)
    return SiteTable(pd.DataFrame(columns, index=frame.index), y, notes, dict(mapping))


def _not_in_table(model, need):
    """The note on a needed column the site does not record: every answer to it is "not
    measured", judged where the list learned a missing answer goes; the first of its questions
    without a learned direction ends the stages that can be judged."""
    undirected = [stage for stage, literal in enumerate(model.literals_, start=1)
                  if str(literal.column) == need.name and literal.not_measured is None]
    if not undirected:
        return said.QUESTION_NOT_MEASURED_HERE.format(label=need.label, name=need.name)
    return said.QUESTION_NOT_IN_TABLE.format(label=need.label, name=need.name, first_stage=undirected[0])


def _coded(series, need, source, info, notes):
    """One column coded like the training column (see :class:`SiteTable`)."""
    present = series.notna() & (series.astype(str).str.strip() != "")
    if need.kind == NUMERIC:
        numbers = pd.to_numeric(series.where(present), errors="coerce").astype(float)
        numbers = numbers.where(np.isfinite(numbers))
        bad = int((present & numbers.isna()).sum())
        if bad:
            notes.append(said.NOT_NUMBERS_COUNT_MISSING.format(count=bad, source=source))
        return numbers
    texts = value_labels(series.where(present))
    if need.kind == CATEGORY:
        known = set(info.category_labels or {})
        unseen = sorted(set(texts.dropna()) - known) if known else []
        if unseen and POOLED_CATEGORY in known:
            notes.append(said.UNSEEN_CATEGORIES_POOLED.format(source=source, unseen=', '.join(unseen[:5]), pooled_category=POOLED_CATEGORY))
            return texts.where(texts.isna() | texts.isin(known), POOLED_CATEGORY).astype(object)
        if unseen:
            notes.append(said.UNSEEN_CATEGORIES.format(source=source, unseen=', '.join(unseen[:5])))
        return texts.astype(object)
    distinct = sorted(set(texts.dropna()))
    one = info.one_value
    if one is not None:
        one_text = value_label(one)
    elif set(distinct) <= {"0", "1"}:
        one_text = "1"
    else:
        raise DataError(said.BINARY_CODING_UNKNOWN.format(source=source, label=need.label, distinct=', '.join(distinct[:5])))
    if len(distinct) > 2:
        raise DataError(said.BINARY_TOO_MANY_VALUES.format(source=source, label=need.label, n_distinct=len(distinct), distinct=', '.join(distinct[:5])))
    if distinct and one_text not in distinct:
        notes.append(said.NO_YES_VALUE.format(source=source, one_text=one_text))
    return texts.map(lambda text: float(text == one_text), na_action="ignore").astype(float)


def unit_checks(metadata, table):
    """Warnings about numeric columns that look like another unit or population.

    Returns
    -------
    list of str
        One sentence per flagged column, or one note when the model file has no training
        ranges (saved before they were recorded).
    """
    metadata = ModelMetadata.coerce(metadata)
    warnings, unchecked = [], []
    for name in table.X.columns:
        info = metadata.column(name)
        if info.kind != NUMERIC:
            continue
        values = table.X[name].to_numpy(dtype=float)
        values = values[np.isfinite(values)]
        if not len(values):
            continue
        limits = info.training_range
        if limits is None or not all(isinstance(limits.get(k), (int, float)) for k in ("min", "median", "max")):
            unchecked.append(name)
            continue
        label = info.label or name
        median = float(np.median(values))
        low, mid, high = (float(limits[k]) for k in ("min", "median", "max"))
        source = table.mapping.get(name, name)
        reason = None
        if not low <= median <= high:
            reason = said.median_outside_range(median, low, high, info.unit)
        elif median > 0 and mid > 0 and max(median / mid, mid / median) >= UNIT_FACTOR and _spread_scaled(
            values, limits, median > mid
        ):
            reason = said.median_scaled(median, mid, info.unit)
        if reason:
            warnings.append(said.CHECK_UNIT.format(label=label, source=source, reason=reason))
    if unchecked:
        warnings.append(said.units_unchecked(unchecked))
    return warnings


def _spread_scaled(values, limits, bigger):
    """Whether the site's spread (interquartile range) moved with its median, by
    :data:`UNIT_FACTOR` the same way: a change of unit scales every value, a different case mix
    (a node-positive cohort: median nodes 1 -> 3) moves the median but hardly the spread.
    True when the training file has no quartiles or their spread is zero (the median decides)."""
    if not all(isinstance(limits.get(k), (int, float)) for k in ("q25", "q75")):
        return True
    trained = float(limits["q75"]) - float(limits["q25"])
    here = float(np.subtract(*np.percentile(values, [75, 25])))
    if trained <= 0 or here <= 0:
        return True
    ratio = here / trained if bigger else trained / here
    return ratio >= UNIT_FACTOR


def looks_like_training(metadata, table, escape=md):
    """A warning when the site's table looks like the list's own training data, else None.

    It looks so when it has as many patients as the training table (before or after rows
    with missing values were left out) and every numeric column the list asks about has the
    training minimum and maximum and, within 1 % of that range, the training median (or,
    without numeric columns to compare, as many positive patients). Validating a list on
    the patients it learned from says nothing about another site.

    ``escape`` writes the training table's name: :func:`~psl_triage.words.md` for the page
    (Markdown), :func:`~psl_triage.words.visible` for the model report's plain text, which
    repeats the warning in the same words.

    Returns
    -------
    str or None
    """
    metadata = ModelMetadata.coerce(metadata)
    dataset = metadata.trained_on
    sizes = {dataset.n_rows, dataset.n_rows_source} - {None}
    n_rows = len(table.y)
    if n_rows not in sizes:
        return None
    compared = 0
    for name, info in _columns_meta(metadata).items():
        limits = info.training_range
        if name not in table.X.columns or limits is None:
            continue
        values = pd.to_numeric(table.X[name], errors="coerce").to_numpy(dtype=float)
        values = values[np.isfinite(values)]
        try:
            low, mid, high = (float(limits[k]) for k in ("min", "median", "max"))
        except (KeyError, TypeError, ValueError):
            continue
        if not len(values):
            return None
        if values.min() != low or values.max() != high or abs(np.median(values) - mid) > 0.01 * (high - low):
            return None
        compared += 1
    if not compared and dataset.n_positive != int(table.y.sum()):
        return None
    return said.training_table_again(dataset.name, n_rows, compared, escape)


def origin_metadata(metadata, table_name, n_rows, n_stages):
    """The ``"origin"`` entry of a recalibrated list: where it comes from and when.

    Returns
    -------
    dict with recalibrated_from (name, version, created of the original), table (name,
    n_rows), n_stages and date (UTC, ISO 8601).
    """
    metadata = ModelMetadata.coerce(metadata)
    return {
        "recalibrated_from": {
            key: getattr(metadata, key) for key in ("name", "version", "created") if getattr(metadata, key) is not None
        },
        "table": {"name": str(table_name), "n_rows": int(n_rows)},
        "n_stages": int(n_stages),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def save_recalibrated(model, metadata, table, table_name, n_stages, name=None, directory=None, sample_weight=None,
                      save=save_model):
    """Recalibrate the list on the site's table and save it as a new version in the store.

    The new file keeps the original's metadata (columns, dataset, M...) with the training
    performance removed (it belongs to the old probabilities), ``"origin"``
    (:func:`origin_metadata`) and ``"source": "recalibrated"``.

    Parameters
    ----------
    model : fitted ProbabilisticScoringList
    metadata : ModelMetadata or dict
    table : SiteTable
    table_name : str
    n_stages : int
        Questions kept (see :func:`psl_core.validation.recalibrate`).
    name : str or None
        Model name; default the original's, so the recalibrated list is its next version.
    directory : path or None
        The store folder (default :func:`psl_triage.model_file.store.model_dir`).
    sample_weight : ndarray of shape (n,) or None
        Row weights of the recalibration (a horizon list's censoring weights,
        :mod:`psl_triage.judging.validation_horizon`).
    save : callable
        Saves the new list (the store's ``save_model``; on a shared ward one that checks the
        user's role as it writes and records the recalibration: :func:`psl_triage.ward.approval.saver`).

    Returns
    -------
    model : ProbabilisticScoringList
        The recalibrated list.
    metadata : dict
        Its saved metadata (with name, version, created), as the file holds it (``model.metadata_``).
    stored : psl_triage.model_file.store.StoredModel
    """
    new = recalibrate(model, table.X, table.y, n_stages, sample_weight=sample_weight)
    metadata = ModelMetadata.coerce(metadata)
    dropped = ("performance", "name", "version", "created")
    meta = dataclasses.replace(
        metadata, **dict.fromkeys(dropped), extra={k: v for k, v in metadata.extra.items() if k not in dropped},
        origin=origin_metadata(metadata, table_name, len(table.y), n_stages), source="recalibrated",
    )
    stored = save(new, name or metadata.default_name, meta, directory)
    new.metadata_ = meta.saved_as(stored).to_dict()
    return new, new.metadata_, stored
