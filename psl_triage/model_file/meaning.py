"""What a model file's description says, checked against the list it describes.

:mod:`psl_core.serialization` checks the list itself (shape, scores, totals, counts, the
constraints it records). The description (``"metadata"``) is free JSON for the library, but
the pages read it: the answers offered at the bedside, the questions' names, the classes'
names, the training table's counts, its columns' ranges and the list's measured performance.
:func:`check_description` refuses, with the reason, a description that would show two answers
or two questions a reader cannot tell apart, an answer with nothing to read, counts no table
can have (or fewer patients than the list itself counts), a description of columns none of
which the list asks (another list's), a question that asks a column
otherwise than its recorded kind or on a level it never had, a range whose quantiles are out of
order, or a measure outside the values it can take (an AUC of 7). Every list read from a file
passes here (the store's loader and an uploaded file on the Train page).
"""

import math

from psl_core.errors import ModelFileError
from psl_core.metrics import MEASURE_RANGES
from psl_core.names import look_alike_key, look_alike_pairs
from psl_core.survival import is_horizon_list
from psl_triage.model_file.answers import answer_options
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.model_file.writer import RANGE_QUANTILES
from psl_triage.words import store as words

ASKED_AS = {"numeric": ("numeric", "binary"), "binary": ("binary",), "categorical": ("category",)}
"""How the learner asks a column of each recorded kind: a number by a threshold (or yes / no when
it holds only 0 and 1), a yes/no column yes / no, a categorical one by its levels."""

COUNTS = ("n_rows", "n_rows_source", "n_positive", "n_negative", "n_censored")
"""The training table's counts a model file's ``"dataset"`` records."""


def check_description(model):
    """The typed metadata of ``model`` (a list read from a file), checked against the list.

    Raises
    ------
    ModelFileError
        Naming the first problem.
    """
    metadata = ModelMetadata.of(model)
    _check_counts(metadata.trained_on)
    _check_list_counts(model, metadata)
    _check_performance(metadata.performance or {})
    _check_ranges(metadata)
    _check_classes(metadata)
    _check_questions(model, metadata)
    return metadata


def _fail(message):
    raise ModelFileError(words.DESCRIPTION_CONTRADICTS.format(problem=message))


def _check_counts(dataset):
    for key in COUNTS:
        value = dataset.extra.get(key)
        if key in dataset.extra and value is not None:
            _fail(words.count_not_whole(key, value))
    counts = {key: getattr(dataset, key) for key in COUNTS if getattr(dataset, key) is not None}
    for key, value in counts.items():
        if value < 0:
            _fail(words.count_not_whole(key, value))
    n_rows = counts.get("n_rows")
    if n_rows is not None and counts.get("n_rows_source", n_rows) < n_rows:
        _fail(words.more_rows_than_source(n_rows, counts["n_rows_source"]))
    parts = {key: counts[key] for key in ("n_positive", "n_negative", "n_censored") if key in counts}
    if n_rows is not None and sum(parts.values()) > n_rows:
        _fail(words.parts_beyond_rows(parts, n_rows))


def _check_list_counts(model, metadata):
    """The table the list's probabilities were estimated on (the site's for a recalibrated list)
    holds at least the patients the list counts at stage 0. A list with a horizon counts
    weighted patients, so it is left out."""
    table = (metadata.origin or {}).get("table")
    n_rows = table.get("n_rows") if isinstance(table, dict) else metadata.trained_on.n_rows
    if not isinstance(n_rows, int) or isinstance(n_rows, bool) or is_horizon_list(model):
        return
    counted = int(model.stage_positives_[0].sum() + model.stage_negatives_[0].sum())
    if counted > n_rows:
        _fail(words.fewer_rows_than_list(n_rows, counted))


def _check_performance(performance):
    for part, values in performance.items():
        if not isinstance(values, dict):
            continue
        for measure, (low, high) in MEASURE_RANGES.items():
            series = values.get(measure)
            for value in series if isinstance(series, list) else ():
                if _number(value) and not low - 1e-9 <= value <= high + 1e-9:
                    _fail(words.measure_out_of_range(part, measure, value, low, high))


def _check_ranges(metadata):
    for name, column in (metadata.columns or {}).items():
        limits = column.training_range or {}
        values = [(key, limits[key]) for key in RANGE_QUANTILES if _number(limits.get(key))]
        for (first, low), (second, high) in zip(values, values[1:]):
            if low > high:
                _fail(words.range_out_of_order(name, first, low, second, high))


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _check_classes(metadata):
    names = [metadata.trained_on.positive_label, metadata.trained_on.negative_label]
    _check_texts(words.CLASS_NAMES, [name for name in names if name is not None])


def _check_questions(model, metadata):
    """The questions' names, and each question's answers, read apart."""
    labels, described = {}, list(metadata.columns or {})
    asked = list(dict.fromkeys(str(literal.column) for literal in model.literals_))
    if described and asked and not set(asked) & set(described):  # another list's description, glued on
        _fail(words.asked_not_described(asked, described))
    for literal in model.literals_:
        column = metadata.column(literal.column)
        _check_asked_as_recorded(literal, column)
        labels.setdefault(str(literal.column), column.label or str(literal.column))
        levels = [str(level) for level in column.levels or ()]
        options = answer_options(literal, dict(column.category_labels or {}), model.literals_, levels)
        _check_texts(words.answers_of(labels[str(literal.column)]), [text for _, text in options])
    _check_texts(words.QUESTION_NAMES, list(labels.values()))


def _check_asked_as_recorded(literal, column):
    """A question that agrees with what the description records of its column: its kind (a
    category column asked as a number would offer answers no one can give) and, for a question
    on levels, levels the column had in training."""
    allowed = ASKED_AS.get(column.kind)
    if allowed is not None and literal.kind not in allowed and not literal.asks_missing:
        _fail(words.asked_against_kind(str(literal.column), literal.kind, column.kind))
    known = [str(level) for level in column.category_labels or {}]
    if column.kind != "categorical" or literal.kind != "category" or not known:
        return
    asked = [literal.category] if literal.category is not None else list(literal.categories or ())
    unseen = [str(level) for level in asked if str(level) not in known]
    if unseen:
        _fail(words.unseen_categories(str(literal.column), unseen, known))


def _check_texts(what, texts):
    for text in texts:
        if not look_alike_key(text):
            _fail(words.nothing_to_read(what, text))
    pairs = look_alike_pairs(texts)
    repeated = next((text for i, text in enumerate(texts) if text in texts[:i]), None)
    if pairs or repeated is not None:
        first, second = pairs[0] if pairs else (repeated, repeated)
        _fail(words.read_alike(what, first, second))
