"""Data preparation: from an uploaded table to the binary-outcome training data a PSL learns from.

The steps follow what a clinical researcher does on the Data page, one module per job:

1. :mod:`.reading` (:func:`load_table`) turns the bytes of an uploaded CSV,
   TSV or Excel file into a :class:`pandas.DataFrame`, or raises
   :class:`~psl_core.errors.DataError` with a message that says what is wrong and what to do;
   :mod:`.sniffing` finds a text file's delimiter and number format and reads its numbers;
   :mod:`.header` checks and tidies the header row's names.
2. :mod:`.columns` (:func:`infer_column_types`) proposes a kind per column (:data:`KINDS`);
   :mod:`.outcome` (:func:`guess_outcome`, :func:`guess_positive_class`) proposes the outcome (one a list can be learned from first)
   and its positive class, and :data:`DEFAULT_MISSING_HANDLING` how missing values are handled.
   The user may change all of them; the guesses are only defaults that the page shows.
   :mod:`psl_triage.data.roles` then proposes which columns stay out of the list (identifiers,
   times, leaks, empty ones), with the follow-up times and other events' times that
   :mod:`.event_times` finds from their values, and :func:`relabel` records the user's
   clinical label and unit.
3. :mod:`.missing` (:func:`missing_report` in :mod:`.columns`, :func:`describe_missing_handling`)
   tells the user what is missing and what the chosen handling will do to it.
4. :mod:`.prepare` (:func:`prepare_training_data`) applies the choices and returns
   :class:`PreparedData`: X with numeric and 0/1 float columns and string categoricals, y in
   {0, 1}, the notes of what was dropped or filled in, and per-column metadata (label, unit,
   category labels, :mod:`.formats`) that later pages use to phrase questions such as
   "Max heart rate > 147 bpm".

Around them: :mod:`.roles` (column roles from evidence), :mod:`.follow_up` (time and event
pairs, the horizon), :mod:`.profile` (the kinds, follow-up findings and levels of a table, worked
out once per table), :mod:`.levels` (ordered categories and the order a column's values show),
:mod:`.separation` (a column that alone separates the outcome, asked about),
:mod:`.values` (how a value reads as text, the outcome's classes), :mod:`.list_data` (whether a
table is the one a list learned from), :mod:`.demo` (the bundled table) and :mod:`.session`
(the Data page's state).

Nothing here imports Streamlit: every function is pure and tested on its own. The names below
are the package's public API; import them from ``psl_triage.data``.
"""

from .columns import IDENTIFIER_DISTINCT_SHARE, column_summary, infer_column_types, missing_report
from .formats import (
    BINARY,
    CATEGORICAL,
    DEFAULT_MISSING_HANDLING,
    IGNORE,
    KIND_LABELS,
    KINDS,
    MAX_CATEGORIES,
    MAX_OUTCOME_CLASSES,
    MIN_ROWS_PER_CLASS,
    MISSING_HANDLINGS,
    MOSTLY_EMPTY_SHARE,
    NUMERIC,
    ORDERED,
    POOLED_CATEGORY,
    ColumnInfo,
    ColumnSpec,
    DatasetMeta,
    PreparedData,
    relabel,
)
from .header import MAX_COLUMNS
from .levels import checked_order, column_levels, order_by_places, propose_level_order
from .missing import describe_missing_handling
from .outcome import (
    LEAK_ERROR_SHARE,
    MIN_ROWS_FOR_LEAK,
    default_class_names,
    explain_outcome_guess,
    guess_outcome,
    guess_positive_class,
    leak_reason,
)
from .prepare import prepare_training_data
from .reading import (
    DEFAULT_MAX_UPLOAD_MB,
    EXCEL_EXTENSIONS,
    EXTRA_MISSING_MARKERS,
    MAX_EXCEL_PARTS,
    MAX_EXCEL_UNPACKED_MB,
    TEXT_EXTENSIONS,
    LoadedTable,
    check_excel_archive,
    check_upload_size,
    load_table,
    upload_limit_mb,
)
from .sniffing import (
    DECIMAL_MARKS,
    DELIMITERS,
    MOSTLY_NUMBERS,
    NUMBER_MISSING_MARKERS,
    THOUSANDS_SEPARATORS,
    NumberFormat,
    detect_delimiter,
    detect_number_format,
    numbers_from_text,
    parse_numbers,
)
from .values import MAX_NAME_CHARS, STORABLE_RULE, count_classes, outcome_classes, value_label

__all__ = [
    "BINARY", "CATEGORICAL", "IGNORE", "NUMERIC", "DECIMAL_MARKS", "DEFAULT_MAX_UPLOAD_MB", "DEFAULT_MISSING_HANDLING", "DELIMITERS", "EXCEL_EXTENSIONS", "EXTRA_MISSING_MARKERS",
    "IDENTIFIER_DISTINCT_SHARE", "KIND_LABELS", "KINDS", "LEAK_ERROR_SHARE", "MAX_CATEGORIES", "MAX_COLUMNS",
    "MAX_EXCEL_PARTS", "MAX_EXCEL_UNPACKED_MB", "MAX_NAME_CHARS", "MAX_OUTCOME_CLASSES",
    "MIN_ROWS_FOR_LEAK", "MIN_ROWS_PER_CLASS", "MISSING_HANDLINGS", "MOSTLY_EMPTY_SHARE",
    "MOSTLY_NUMBERS", "NUMBER_MISSING_MARKERS", "ORDERED", "POOLED_CATEGORY", "STORABLE_RULE", "TEXT_EXTENSIONS",
    "THOUSANDS_SEPARATORS", "ColumnInfo", "ColumnSpec", "DatasetMeta", "LoadedTable", "NumberFormat",
    "PreparedData", "check_excel_archive", "check_upload_size", "checked_order", "column_levels", "column_summary",
    "count_classes",
    "default_class_names", "describe_missing_handling", "detect_delimiter", "detect_number_format",
    "explain_outcome_guess", "guess_outcome", "guess_positive_class",
    "infer_column_types", "leak_reason", "load_table", "missing_report", "numbers_from_text", "order_by_places",
    "outcome_classes", "parse_numbers", "prepare_training_data", "propose_level_order", "relabel",
    "upload_limit_mb", "value_label",
]
