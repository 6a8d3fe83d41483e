"""Data preparation: from an uploaded table to the binary-outcome training data a PSL learns from.

The steps follow what a clinical researcher does on the landing page:

1. :func:`load_table` / :func:`read_table` turn the bytes of an uploaded CSV, TSV or Excel
   file into a :class:`pandas.DataFrame`, or raise :class:`~psl_core.errors.DataError` with a
   message that says what is wrong and what to do.
2. :func:`infer_column_types` proposes a type per column ("numeric", "categorical", "binary",
   "ignore"); :func:`guess_outcome`, :func:`guess_positive_class` and
   :func:`guess_missing_handling` propose the remaining choices. The user may change all of
   them; the guesses are only defaults that the page shows. :mod:`psl_triage.roles` then
   proposes which columns stay out of the list (identifiers, times, leaks, empty ones), and
   :func:`relabel` records the user's clinical label and unit of a column.
3. :func:`missing_report` and :func:`describe_missing_handling` tell the user what is missing
   and what the chosen handling will do to it.
4. :func:`prepare_training_data` applies the choices and returns :class:`PreparedData`: X with
   numeric and 0/1 float columns and string categoricals, y in {0, 1}, the notes of what was
   dropped or filled in, and per-column metadata (label, unit, category labels) that later
   pages use to phrase questions such as "Max heart rate > 147 bpm".

Nothing here imports Streamlit: every function is pure and tested on its own.
"""

from __future__ import annotations

import codecs
import csv
import io
import math
import re
import sys
import unicodedata
import zipfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import PurePath

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from psl_core.errors import DataError
from psl_core.names import UNREADABLE, clean_name, describe_character, look_alike_pairs, unreadable_character
from psl_core.serialization import schema, unstorable_name

KINDS = ("numeric", "categorical", "binary", "ignore")
"""The column types a user can choose, in the order the page offers them."""

MISSING_HANDLINGS = ("learn", "drop", "impute")
"""Keep missing values for the learner, which learns where a missing answer goes
(``ProbabilisticScoringList(missing="learn")``); drop every row with a missing value; or
fill in the median (numbers) / the mode (others)."""

MOSTLY_EMPTY_SHARE = 0.40
"""A column with more than this share of its rows empty is never filled in, whatever the
handling of missing values: one value in most rows would be a made-up predictor. It reaches the
learner with its missing values (which learns where a missing answer goes), and
:func:`psl_triage.roles.propose_roles` checks whether its missingness carries the outcome."""

DEFAULT_MAX_UPLOAD_MB = 50
"""Upload size limit when the environment variable ``PSL_MAX_UPLOAD_MB`` is not set."""

MAX_EXCEL_UNPACKED_MB = 50
"""Largest total size of an .xlsx file's unpacked parts (sheet XML, shared strings, styles), in
MB. A workbook is a zip archive: 1 MB of it can unpack to a gigabyte (blank space compresses
almost to nothing), and the reader holds what it unpacks. At this limit reading adds at most a
few hundred MB to the server's memory (bench/README.md); a table of a million cells fits."""

MAX_EXCEL_PARTS = 10_000
"""Most parts (files) an .xlsx archive may hold; a real workbook has a few dozen."""

MIN_ROWS_PER_CLASS = 10
"""Fewer rows than this in either outcome class is too little to learn or calibrate from."""

MAX_CATEGORIES = 30
"""A categorical column with more categories than this cannot become a readable list."""

POOLED_CATEGORY = "other (pooled)"
"""The category that holds the rarest values of text with more than :data:`MAX_CATEGORIES` values
that repeat across rows (a clinic, a ward, a referring unit)."""

MAX_COLUMNS = 500
"""Most columns a table may have: each is read, typed, checked for leaks, summarised and
prepared, which takes about 6 s for 500 columns of 500 rows on a busy two-core server and
grows faster than the count (33 s for 2,000; 20,000 never became usable). A list asks a
handful of questions; a wider table is refused with what to do."""
MAX_OUTCOME_CLASSES = 20
"""An outcome with more distinct values than this is a measurement, not a class label."""

TEXT_EXTENSIONS = {".csv": None, ".txt": None, ".tsv": "\t", ".tab": "\t"}
EXCEL_EXTENSIONS = (".xlsx", ".xlsm")
EXTRA_MISSING_MARKERS = ["?"]  # UCI files write "?" for a missing value; pandas knows the rest.

DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab", "|": "vertical bar"}
"""The field delimiters a text table may use, with their names."""

DECIMAL_MARKS = {".": "point (72.5)", ",": "comma (72,5)"}
"""The decimal marks a file may use, with how the page names them."""

THOUSANDS_SEPARATORS = {
    "": "none", ",": "comma (1,234)", ".": "point (1.234)", " ": "space (1 234)", "'": "apostrophe (1'234)",
}
"""The thousands separators a file may use ("" for none), with how the page names them."""

NUMBER_MISSING_MARKERS = frozenset({
    "", "na", "n/a", "n.a.", "nan", "null", "none", "?", ".", "-", "--", "\u2013", "\u2014",
    "missing", "unknown", "not available", "not known", "#n/a", "nd", "n.d.",
    "k.a.", "k. a.", "n.b.",  # German: keine Angabe, nicht bestimmt
})
"""Entries that mean "missing" in a column that otherwise holds numbers (compared in lower case).
Only there: in a text column "-" or "unknown" may be a real answer."""

MOSTLY_NUMBERS = 0.9
"""A text column becomes numbers when at least this share of its entries (other than missing
markers) read as numbers; the rest are then missing, and the notes say which."""

_SNIFF_LINES = 50
_DETECT_CELLS = 20_000
_ZIP_MAGIC = b"PK\x03\x04"
_MAX_DIRECTORY_ENTRY = 46 + 300  # bytes: a directory record and a generous part name
_OLE_MAGIC = b"\xd0\xcf\x11\xe0"  # old binary Office formats (.xls, .doc)
_MAX_CONTROL_SHARE = 0.01
_IDENTIFIER_NAME = re.compile(
    r"(^|[^a-z])(id|ids|identifier|uuid|mrn|record|index|unnamed|row|rownames?|seqn|nr|"
    r"(patients?|patienten|case|fall|subject|proband|probanden|sample|study|record|row|serial)"
    r"[ _.\-]*(number|no|nr|num|n|id)|#)([^a-z]|$)"
)
IDENTIFIER_DISTINCT_SHARE = 0.5
"""A column named like an identifier is one when its different values are at least this share of
its rows (samples measured twice share an ID; a code with few values is a category)."""
_POSITIVE_WORDS = {
    "1", "yes", "y", "true", "t", "positive", "pos", "present", "presence", "disease", "diseased",
    "case", "cases", "abnormal", "died", "dead", "death", "deceased", "event", "sick", "ill",
    "malignant", "high", "+", "oui", "si", "sí", "ja", "sim",
}
_NEGATIVE_WORDS = {
    "0", "no", "n", "false", "f", "negative", "neg", "absent", "absence", "none", "normal",
    "control", "controls", "alive", "survived", "healthy", "benign", "low", "-", "non", "nein",
    "nee", "nej", "não", "nao",
}
_OUTCOME_NAME = re.compile(
    r"(^|[^a-z])(outcome|target|label|class|classification|diagnosis|dx|y|death|died|dead|"
    r"mortality|survival|survived|event|status|disease|response|result|low|malignant|cancer|"
    r"recurrence|relapse|readmission|readmitted|complication|infection|fate|vital status)([^a-z]|$)"
)


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
class NumberFormat:
    """How a file writes numbers: its decimal mark and thousands separator ("" for none).

    Attributes
    ----------
    decimal : str
        A key of :data:`DECIMAL_MARKS`: "." or ",".
    thousands : str
        A key of :data:`THOUSANDS_SEPARATORS`; never the same as ``decimal``.
    """

    decimal: str = "."
    thousands: str = ""

    def __post_init__(self):
        if self.decimal not in DECIMAL_MARKS:
            raise DataError(f"The decimal mark must be '.' or ',', got {self.decimal!r}.")
        if self.thousands not in THOUSANDS_SEPARATORS:
            raise DataError(
                f"The thousands separator must be one of {', '.join(map(repr, THOUSANDS_SEPARATORS))}, "
                f"got {self.thousands!r}."
            )
        if self.thousands == self.decimal:
            raise DataError(
                f"The decimal mark and the thousands separator cannot both be {self.decimal!r}."
            )

    def describe(self) -> str:
        """E.g. "decimal comma (72,5), no thousands separator"."""
        thousands = (
            "no thousands separator" if not self.thousands
            else f"thousands separated by {THOUSANDS_SEPARATORS[self.thousands]}"
        )
        return f"decimal {DECIMAL_MARKS[self.decimal]}, {thousands}"


@dataclass(frozen=True)
class LoadedTable:
    """A table read from a file, with notes on anything the reader had to decide.

    Attributes
    ----------
    frame : pandas.DataFrame
        The table.
    notes : list of str
        Plain sentences on what the reader decided or changed.
    delimiter : str or None
        The field delimiter used (a key of :data:`DELIMITERS`); None for an Excel workbook.
    numbers : NumberFormat
        The decimal mark and thousands separator used for numbers written as text.
    """

    frame: pd.DataFrame
    notes: list[str] = field(default_factory=list)
    delimiter: str | None = None
    numbers: NumberFormat = field(default_factory=NumberFormat)

    def describe_reading(self) -> str:
        """One sentence on how the file was read, e.g. "Fields separated by semicolon; ...".
        """
        fields = "" if self.delimiter is None else f"Fields separated by {DELIMITERS[self.delimiter]}; "
        text = self.numbers.describe()
        return f"{fields}{text[0].upper() + text[1:] if not fields else text}."


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
    """

    name: str
    label: str
    unit: str
    kind: str
    category_labels: dict[str, str] = field(default_factory=dict)
    one_value: object = None
    fill_value: object = None

    @property
    def display_name(self) -> str:
        """Label with its unit, e.g. "Max heart rate (bpm)"."""
        return f"{self.label} ({self.unit})" if self.unit else self.label


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
    follow_up : psl_triage.follow_up.FollowUp or None
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
    def n_positive(self) -> int:
        return int(self.y.sum())

    @property
    def n_negative(self) -> int:
        return int(len(self.y) - self.y.sum())


# ---------------------------------------------------------------------------------------------
# Reading files


def upload_limit_mb(value: str | None) -> int:
    """The upload size limit in MB from the value of ``PSL_MAX_UPLOAD_MB`` (None: the default).

    Raises
    ------
    DataError
        If the value is not a positive whole number.
    """
    if value is None or not value.strip():
        return DEFAULT_MAX_UPLOAD_MB
    try:
        limit = int(value.strip())
    except ValueError:
        limit = 0
    if limit < 1:
        raise DataError(
            f"PSL_MAX_UPLOAD_MB must be a positive whole number of megabytes, got {value!r}; "
            f"using the default of {DEFAULT_MAX_UPLOAD_MB} MB."
        )
    return limit


def read_table(data: bytes, filename: str, *, max_bytes: int | None = None) -> pd.DataFrame:
    """Read an uploaded CSV, TSV or Excel (.xlsx) file into a DataFrame.

    Same as :func:`load_table` without the reader's notes.
    """
    return load_table(data, filename, max_bytes=max_bytes).frame


def load_table(
    data: bytes,
    filename: str,
    *,
    max_bytes: int | None = None,
    delimiter: str | None = None,
    numbers: NumberFormat | None = None,
) -> LoadedTable:
    """Read an uploaded CSV, TSV or Excel (.xlsx) file.

    Text files are decoded as UTF-8 (with or without byte-order mark), UTF-16 (a byte-order mark or
    mostly ASCII text without one), or else as Windows-1252 / Latin-1, which the notes then say. The delimiter
    of a .csv or .txt file is the one of comma, semicolon, tab and bar that splits the first
    lines into the same number of fields (:func:`detect_delimiter`); the decimal mark and
    thousands separator are read off the number-like fields (:func:`detect_number_format`).
    Text columns that hold numbers (with decimal commas, thousands separators, percent signs,
    missing markers such as "NA", "?", "." or "-") become numbers (:func:`numbers_from_text`).
    Rows that are entirely empty and unnamed empty columns are dropped, with a note.

    Parameters
    ----------
    data : bytes
        The file's content.
    filename : str
        The file's name; its extension selects the reader.
    max_bytes : int, optional
        Size limit; a larger file is refused.
    delimiter : str, optional
        A key of :data:`DELIMITERS` to use instead of the detected one (text files only).
    numbers : NumberFormat, optional
        The decimal mark and thousands separator to use instead of the detected ones.

    Returns
    -------
    LoadedTable
        The table (column names stripped of surrounding spaces), notes, and the delimiter and
        number format used.

    Raises
    ------
    DataError
        Too large, empty, of an unsupported type, binary garbage, not a table, without data
        rows, with duplicate column names, or unreadable as its type; a delimiter that is
        also the decimal mark.
    """
    check_upload_size(data, filename, max_bytes)
    if not data:
        raise DataError(f"{filename} is empty (0 bytes).")
    if delimiter is not None and delimiter not in DELIMITERS:
        raise DataError(f"The delimiter must be one of {', '.join(map(repr, DELIMITERS))}, got {delimiter!r}.")
    suffix = PurePath(filename).suffix.lower()
    notes: list[str] = []
    if suffix in EXCEL_EXTENSIONS:
        frame = _read_excel(data, filename, notes)
        delimiter = None
    elif suffix in TEXT_EXTENSIONS:
        text = _decode(data, filename, notes)
        if not text.strip():
            raise DataError(f"{filename} contains only blank space, no table.")
        delimiter = delimiter or TEXT_EXTENSIONS[suffix] or detect_delimiter(text)
        if numbers is None:
            numbers = detect_number_format(_sample_cells(text, delimiter))
        frame = _read_text_table(text, filename, delimiter, numbers)
    elif suffix in (".xls", ".ods", ".numbers"):
        raise DataError(
            f"{filename}: {suffix} files cannot be read. Save the sheet as .xlsx or CSV and upload that."
        )
    else:
        raise DataError(
            f"{filename}: unsupported file type {suffix or '(no extension)'}. "
            "Upload a CSV (.csv), tab-separated (.tsv, .txt) or Excel (.xlsx) file."
        )
    frame = _tidy_table(frame, filename, notes)
    if numbers is None:
        numbers = detect_number_format(_text_cells(frame))
    return LoadedTable(_infinite_as_missing(numbers_from_text(frame, numbers, notes), notes), notes, delimiter, numbers)


def _infinite_as_missing(frame: pd.DataFrame, notes: list[str]) -> pd.DataFrame:
    """Numbers no float holds ("1e309", "-1e400") and "inf" are read as infinite: missing
    here, each column named in a note (no answer at the bedside is infinite)."""
    infinite = {name: np.isinf(frame[name]) for name in frame.columns
                if ptypes.is_float_dtype(frame[name]) and np.isinf(frame[name]).any()}
    for name, rows in infinite.items():
        notes.append(
            f"{str(name)!r} holds {_count(int(rows.sum()), 'number')} too large for the computer to hold "
            "(such as 1e309 or inf), read as missing. Correct them in the file if they are typos."
        )
    return frame.assign(**{str(name): frame[name].mask(rows) for name, rows in infinite.items()}) if infinite else frame


def check_upload_size(data: bytes, filename: str, max_bytes: int | None) -> None:
    """Refuse an upload larger than ``max_bytes`` (None: no limit) with a message saying what to do."""
    if max_bytes is not None and len(data) > max_bytes:
        raise DataError(
            f"{filename} is {_megabytes(len(data))}; the limit is {_megabytes(max_bytes)}. "
            "Upload a smaller file, or ask whoever runs the app to raise PSL_MAX_UPLOAD_MB."
        )


def check_excel_archive(data: bytes, filename: str, max_unpacked_mb: int = MAX_EXCEL_UNPACKED_MB) -> None:
    """Refuse an .xlsx file whose parts would unpack to more than ``max_unpacked_mb`` MB.

    Read from the archive's directory before anything is unpacked. The sizes it declares are
    the most the reader can get: Python's zipfile stops each part at its declared size (and
    then fails its checksum), so a directory that understates a part cannot inflate it.

    Raises
    ------
    DataError
        Not a zip archive, too many parts, or too large unpacked.
    """
    directory = _zip_directory_size(data)
    if directory is None:
        raise DataError(f"{filename} is not a valid Excel (.xlsx) workbook.")
    if directory > MAX_EXCEL_PARTS * _MAX_DIRECTORY_ENTRY:
        raise DataError(f"{filename} holds too many parts for an Excel workbook (it has a few dozen).")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if len(archive.filelist) > MAX_EXCEL_PARTS:
                raise DataError(
                    f"{filename} holds {len(archive.filelist):,} parts, not an Excel workbook's few dozen."
                )
            unpacked = sum(info.file_size for info in archive.filelist)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        raise DataError(f"{filename} is not a valid Excel (.xlsx) workbook.") from exc
    if unpacked > max_unpacked_mb * 2**20:
        raise DataError(
            f"{filename} unpacks to {_megabytes(unpacked)} (Excel files are zip archives of XML); "
            f"the limit is {max_unpacked_mb} MB. Save the sheet as CSV and upload that, or remove "
            "unused sheets, rows and formatting first."
        )


def _zip_directory_size(data: bytes) -> int | None:
    """Bytes of a zip archive's central directory, from its end record; None if there is none.

    Checked before :mod:`zipfile` reads the directory into memory (one object per part). A
    Zip64 archive (parts or archives over 4 GB, never an uploaded workbook) counts as none.
    """
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557))
    if end < 0 or len(data) < end + 22 or data.rfind(b"PK\x06\x07", max(0, end - 20), end) >= 0:
        return None
    return int.from_bytes(data[end + 12:end + 16], "little")


def _megabytes(n_bytes: int) -> str:
    return f"{n_bytes / 2**20:.1f} MB"


def _decode(data: bytes, filename: str, notes: list[str]) -> str:
    """Text of a file: UTF-8 (BOM optional), UTF-32 or UTF-16 with BOM, UTF-16 without one (mostly
    ASCII text), else Windows-1252 / Latin-1."""
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):  # before UTF-16: FF FE 00 00 starts both
        try:
            return data.decode("utf-32")
        except UnicodeDecodeError as exc:
            raise DataError(f"{filename} starts like UTF-32 text but is not valid UTF-32.") from exc
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise DataError(f"{filename} starts like UTF-16 text but is not valid UTF-16.") from exc
    if data.startswith(_ZIP_MAGIC):
        raise DataError(
            f"{filename} is a zip archive or an Excel workbook, not a text table. "
            "If it is an Excel file, give it the .xlsx extension; otherwise unzip it first."
        )
    if data.startswith(_OLE_MAGIC):
        raise DataError(f"{filename} is an old Office file (.xls?), not text. Save it as .xlsx or CSV.")
    text = _utf16_without_mark(data, filename, notes) if b"\x00" in data else None
    if b"\x00" in data and text is None:
        raise DataError(f"{filename} is a binary file, not a text table (CSV or TSV).")
    try:
        text = text or data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = None
    if text is None:
        for encoding, name in (("cp1252", "Windows-1252"), ("latin-1", "Latin-1")):
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError:
                continue
            notes.append(
                f"{filename} is not UTF-8 text; it was read as {name}. "
                "Check that accented characters look right in the preview."
            )
            break
    controls = sum(
        1 for ch in text if unicodedata.category(ch) == "Cc" and ch not in "\t\n\r"
    )
    if controls > _MAX_CONTROL_SHARE * len(text):
        raise DataError(f"{filename} does not contain readable text; it is not a CSV or TSV table.")
    return text


def _utf16_without_mark(data: bytes, filename: str, notes: list[str]) -> str | None:
    """The text of UTF-16 written without a byte-order mark (some Windows exports), told by
    the zero byte of nearly every ASCII character; None for anything else."""
    if len(data) % 2:
        return None
    for encoding, high_bytes in (("utf-16-le", data[1::2]), ("utf-16-be", data[0::2])):
        if high_bytes.count(0) >= 0.9 * len(high_bytes):
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError:
                return None
            notes.append(f"{filename} is UTF-16 text without a byte-order mark; it was read as "
                         f"{encoding.upper()}. Check that the preview looks right.")
            return text
    return None


def detect_delimiter(text: str) -> str:
    """The delimiter that splits the first lines of ``text`` into the most equal field counts.

    Each candidate of :data:`DELIMITERS` is scored by the share of the first non-empty lines
    that have its most common field count (quotes respected), then by that count; a candidate
    that never splits a line loses. Comma if none splits.
    """
    lines = [line for line in text.splitlines() if line.strip()][:_SNIFF_LINES]
    best, best_score = ",", (0.0, 1)
    for delimiter in DELIMITERS:
        try:
            counts = [len(row) for row in csv.reader(lines, delimiter=delimiter)]
        except csv.Error:
            continue
        common = max(set(counts), key=counts.count) if counts else 1
        if common < 2:
            continue
        score = (counts.count(common) / len(counts), common)
        if score > best_score:
            best, best_score = delimiter, score
    return best


_NUMBER_LIKE = re.compile(r"^[+\-\u2212]?[\d.,' \u00a0]*\d[\d.,' \u00a0]*%?$")


_GROUPED = {
    decimal: re.compile(rf"[+\-\u2212]?\d{{1,3}}(?:{re.escape(group)}\d{{3}})+(?:{re.escape(decimal)}\d*)?")
    for decimal, group in ((".", ","), (",", "."))
}
"""A number with thousands grouped by the other mark, by its decimal mark: "1,234.5", "1.234,5"."""


def detect_number_format(cells: Iterable[str]) -> NumberFormat:
    """The decimal mark and thousands separator that the number-like ``cells`` use.

    Evidence for a decimal comma: a field with one comma not followed by exactly three digits
    ("72,1", "0,25"), a field whose last mark is a comma after points ("1.234,5"), or more
    than one point ("1.234.567"); the same mirrored for a decimal point. "1,234" alone is
    ambiguous and counts for neither. The mark with more evidence is the decimal mark (a point
    on a tie). The thousands separator is the other mark, a space or an apostrophe if fields
    use it in groups of three ("1.234,5", "12 000") and no field uses it otherwise.

    Parameters
    ----------
    cells : iterable of str
        Fields of the table (any; those that do not look like numbers are skipped).
    """
    evidence = {".": 0, ",": 0}
    candidates = []
    for cell in cells:
        text = cell.strip().removesuffix("%").strip()
        if not _NUMBER_LIKE.match(text):
            continue
        candidates.append(text)
        last = {mark: text.rfind(mark) for mark in evidence}
        if last["."] >= 0 and last[","] >= 0:
            decimal = "." if last["."] > last[","] else ","
            if _GROUPED[decimal].fullmatch(text):
                evidence[decimal] += 1
            continue
        for mark, other in ((".", ","), (",", ".")):
            if last[mark] < 0:
                continue
            if text.count(mark) > 1:
                # "1.234.567" groups thousands; "01.02.2020" is a date and no evidence.
                evidence[other] += bool(_GROUPED[other].fullmatch(text))
            elif not re.fullmatch(r"\d{3}", text[last[mark] + 1:]) or len(text[:last[mark]].lstrip("+-\u2212")) > 3:
                evidence[mark] += 1
    decimal = "," if evidence[","] > evidence["."] else "."
    for separator in ("," if decimal == "." else ".", " ", "\u00a0", "'"):
        grouped = re.compile(
            rf"[+\-\u2212]?\d{{1,3}}(?:{re.escape(separator)}\d{{3}})+(?:{re.escape(decimal)}\d*)?"
        )
        using = [text for text in candidates if separator in text]
        if using and all(grouped.fullmatch(text) for text in using):
            return NumberFormat(decimal, " " if separator == "\u00a0" else separator)
    return NumberFormat(decimal, "")


def _sample_cells(text: str, delimiter: str) -> Iterator[str]:
    """Fields of the rows after the header, up to a sample large enough to judge a file by."""
    reader = csv.reader(io.StringIO(text.lstrip("\r\n"), newline=""), delimiter=delimiter)
    try:
        next(reader, None)
        for count, cell in enumerate(cell for row in reader for cell in row):
            if count >= _DETECT_CELLS:
                return
            yield cell
    except csv.Error:
        return


def _text_cells(frame: pd.DataFrame) -> list[str]:
    """The text entries of a table's non-numeric columns (Excel cells typed as text)."""
    cells: list[str] = []
    for name in frame.columns:
        if not ptypes.is_numeric_dtype(frame[name]):
            cells.extend(value for value in frame[name].dropna().head(_DETECT_CELLS // 10) if isinstance(value, str))
    return cells


_ASCII_DIGITS = {code: str(unicodedata.digit(chr(code))) for code in range(0x80, sys.maxunicode + 1)
                 if unicodedata.category(chr(code)) == "Nd"}
"""Decimal digits of every script (Arabic-Indic "٣", Devanagari "३", full-width "３") as 0-9."""


def parse_numbers(values: pd.Series, numbers: NumberFormat) -> pd.Series:
    """Numbers written as text, as float64; NaN where an entry is not a number.

    Surrounding spaces, a trailing percent sign and the thousands separator are removed, the
    decimal mark becomes a point and a typographic minus a hyphen, so that with a decimal
    comma "1.234,5" is 1234.5 and "12 %" is 12.0 (percent signs are dropped, not divided).
    """
    text = values.astype(str).str.strip().str.replace("\u2212", "-", regex=False)
    text = text.str.translate(_ASCII_DIGITS).str.removesuffix("%").str.strip()
    # Arabic decimal and thousands separators (U+066B, U+066C) say which they are.
    text = text.str.replace("\u066c", "", regex=False).str.replace("\u066b", numbers.decimal, regex=False)
    if numbers.thousands:
        text = text.str.replace(numbers.thousands, "", regex=False).str.replace("\u00a0", "", regex=False)
    if numbers.decimal == ",":
        text = text.str.replace(",", ".", regex=False)
    # to_numeric would read "inf", "nan" or "1_000" as numbers: only digits with one point and an exponent.
    plain = text.str.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
    return pd.to_numeric(text.where(plain), errors="coerce").astype("float64")


def numbers_from_text(frame: pd.DataFrame, numbers: NumberFormat, notes: list[str]) -> pd.DataFrame:
    """The table with every text column that holds numbers (see :data:`MOSTLY_NUMBERS`) as floats.

    Entries in :data:`NUMBER_MISSING_MARKERS` become missing; so do the few entries that are
    not numbers, which the notes name with examples. Percent signs are dropped (the notes say
    the values are percentages).

    Parameters
    ----------
    frame : pandas.DataFrame of shape (n_rows, n_columns)
    numbers : NumberFormat
    notes : list of str
        Sentences are appended here.

    Returns
    -------
    pandas.DataFrame of shape (n_rows, n_columns)
        A copy where needed; other columns unchanged.
    """
    converted = {}
    for name in frame.columns:
        series = frame[name]
        if ptypes.is_numeric_dtype(series) or ptypes.is_datetime64_any_dtype(series):
            continue
        present = series.dropna().astype(str).str.strip()
        markers = present.str.casefold().isin(NUMBER_MISSING_MARKERS)
        written = present[~markers]
        if written.empty:
            continue
        parsed = parse_numbers(written, numbers)
        # Cells a workbook already holds as numbers are kept: "65.3" is not text to re-read.
        typed = series.loc[written.index].map(_is_plain_number).astype(bool)
        parsed[typed] = series.loc[written.index][typed].astype("float64")
        if parsed.notna().mean() < MOSTLY_NUMBERS:
            continue
        label = repr(str(name))
        strays = written[parsed.isna()]
        if not strays.empty:
            examples = ", ".join(repr(value) for value in strays.unique()[:3])
            notes.append(
                f"{label} holds numbers, but {len(strays)} {'entry' if len(strays) == 1 else 'entries'} "
                f"{'is' if len(strays) == 1 else 'are'} not a number (e.g. {examples}) and "
                "read as missing. Correct them in the file if they are typos."
            )
        other_digits = written[parsed.notna()].map(lambda text: any(ord(ch) in _ASCII_DIGITS for ch in text))
        if other_digits.any():
            example = written[other_digits[other_digits].index[0]]
            notes.append(f"{label} is written with digits of another script (e.g. {example!r}); "
                         "they are read as the numbers they are.")
        if written.str.endswith("%").any():
            notes.append(f"{label} is written with percent signs; its values are percentages.")
        column = pd.Series(np.nan, index=series.index, dtype="float64")
        column.loc[parsed.index] = parsed
        converted[name] = column
    return frame.assign(**{str(name): column for name, column in converted.items()}) if converted else frame


def _is_plain_number(value: object) -> bool:
    """A number the reader already holds (not text), within the range of a float: a 400-digit
    integer in a CSV reaches pandas as a Python int that no float holds."""
    if not isinstance(value, (int, float, np.integer, np.floating)) or isinstance(value, (bool, np.bool_)):
        return False
    try:
        float(value)
    except OverflowError:
        return False
    return True


def _read_text_table(text: str, filename: str, delimiter: str, numbers: NumberFormat) -> pd.DataFrame:
    try:
        # Read as pandas reads it below (skipinitialspace): `a, "a"` is two columns named a.
        header = next(csv.reader(io.StringIO(text.lstrip("\r\n"), newline=""), delimiter=delimiter,
                                 skipinitialspace=True), [])
    except csv.Error as exc:
        raise DataError(f"{filename} has no readable header row: {exc}") from exc
    _check_header(header, filename)
    try:
        return pd.read_csv(
            io.StringIO(text),
            sep=delimiter,
            # A decimal mark that is also the delimiter can only appear quoted ("72,5"): pandas
            # keeps those fields as text, and numbers_from_text reads them with the file's mark.
            decimal=numbers.decimal if numbers.decimal != delimiter else ".",
            # pandas reads "1.234" as 1.234 unless told the point groups thousands; a separator
            # that is also the delimiter can only appear quoted, and numbers_from_text reads it.
            thousands=None if numbers.thousands in ("", delimiter) or numbers.decimal == delimiter else numbers.thousands,
            na_values=EXTRA_MISSING_MARKERS,
            skipinitialspace=True,
        )
    except pd.errors.ParserError as exc:
        raise DataError(
            f"{filename} is not a consistent table: {exc}. "
            "Every row needs the same number of fields as the header; check the delimiter."
        ) from exc
    except Exception as exc:  # the parser meets arbitrary user bytes; any failure is bad data
        raise DataError(f"{filename} could not be read as a table: {exc}") from exc


def _read_excel(data: bytes, filename: str, notes: list[str]) -> pd.DataFrame:
    """The first sheet of an .xlsx workbook, read by python-calamine (Rust; about 15 times as
    fast as openpyxl on a 50,000-row sheet) after :func:`check_excel_archive` has bounded what
    it unpacks to. The one place a workbook is opened."""
    check_excel_archive(data, filename)
    try:
        workbook = pd.ExcelFile(io.BytesIO(data), engine="calamine")
        sheet = workbook.sheet_names[0]
        header = pd.read_excel(workbook, sheet_name=sheet, header=None, nrows=1)
        frame = pd.read_excel(workbook, sheet_name=sheet, na_values=EXTRA_MISSING_MARKERS)
    except Exception as exc:  # the reader meets arbitrary user bytes; any failure is bad data
        raise DataError(
            f"{filename} is not a valid Excel (.xlsx) workbook ({exc}). Open it in Excel and save "
            "it again as .xlsx, or save it as CSV."
        ) from exc
    if len(workbook.sheet_names) > 1:
        notes.append(
            f"{filename} has {len(workbook.sheet_names)} sheets; the first, {sheet!r}, was read."
        )
    _check_header([] if header.empty else list(header.iloc[0]), filename)
    return frame


def _check_header(header: Sequence[object], filename: str) -> None:
    if len(header) > MAX_COLUMNS:
        raise DataError(
            f"{filename} has {len(header):,} columns; the app reads tables of at most {MAX_COLUMNS:,} "
            "columns. Keep the outcome and the columns a clinician could be asked about (a list asks "
            "a handful of questions) and upload that table."
        )
    names = [_header_name(cell) for cell in header]
    if not any(names):
        raise DataError(f"{filename} has no header row with column names (the first row is empty).")
    seen: set[str] = set()
    duplicates = []
    for name in names:
        if name and name in seen and name not in duplicates:
            duplicates.append(name)
        seen.add(name)
    if duplicates:
        raise DataError(
            f"{filename} has duplicate column names: {', '.join(map(repr, duplicates))}. "
            "Give every column a unique name and upload again."
        )
    look_alike = look_alike_pairs(name for name in names if name)
    if look_alike:
        first, second = look_alike[0]
        raise DataError(
            f"{filename} has column names that look the same when shown: {first!r} and {second!r} "
            "(they differ only in invisible, direction or look-alike characters, or spacing). "
            "Rename one of them and upload again."
        )


def _header_name(cell: object) -> str:
    if cell is None or (isinstance(cell, float) and math.isnan(cell)):
        return ""
    return _value_text(cell)


def _tidy_table(frame: pd.DataFrame, filename: str, notes: list[str]) -> pd.DataFrame:
    frame = _drop_or_refuse_blank_names(frame, filename, notes)
    frame = frame.rename(columns=lambda name: str(name).strip())
    _check_readable(frame, filename)
    frame = _clean_names(frame, filename, notes)
    _check_storable_names(frame.columns, filename)
    unnamed_empty = [
        name for name in frame.columns if name.startswith("Unnamed: ") and frame[name].isna().all()
    ]
    if unnamed_empty:
        frame = frame.drop(columns=unnamed_empty)
        notes.append(f"Dropped {_count(len(unnamed_empty), 'empty column')} without a name.")
    empty_rows = frame.isna().all(axis=1)
    if len(frame.columns) and empty_rows.any():
        frame = frame.loc[~empty_rows]
        notes.append(f"Dropped {_count(int(empty_rows.sum()), 'empty row')}.")
    if len(frame.columns) < 2:
        found = f"only the column {frame.columns[0]!r}" if len(frame.columns) else "no columns"
        raise DataError(
            f"{filename} does not look like a table: found {found}. A table needs a header row "
            "and at least two columns (an outcome and a feature), separated by commas, "
            "semicolons or tabs."
        )
    if frame.empty:
        raise DataError(f"{filename} has column names but no data rows.")
    return frame.reset_index(drop=True)


def _drop_or_refuse_blank_names(frame: pd.DataFrame, filename: str, notes: list[str]) -> pd.DataFrame:
    """Drop an empty column whose name shows nothing (only spaces, invisible or direction-control
    characters), with a note; refuse one that holds data, naming it by its characters' codes:
    it would become a question without a name."""
    blank = [name for name in frame.columns if not clean_name(str(name))]
    empty = [name for name in blank if frame[name].isna().all()]
    if empty:
        frame = frame.drop(columns=empty)
        notes.append(f"Dropped {_count(len(empty), 'empty column')} without a visible name.")
    named_data = [name for name in blank if name not in empty]
    if named_data:
        raise DataError(
            f"{filename}: the column {named_data[0]!r} has no visible character in its name (only spaces, "
            "invisible or direction-control characters); it would be a question without a name. "
            "Give it a name and upload again."
        )
    return frame


def _clean_names(frame: pd.DataFrame, filename: str, notes: list[str]) -> pd.DataFrame:
    """Column names and text values in Unicode's composed form (NFC) without invisible or
    direction-control characters (:func:`psl_core.names.clean_name`), with a note when that
    changed any; a text column with two values that still look alike is refused, naming both
    (two identical answers at the bedside)."""
    renamed = {name: clean_name(name) for name in frame.columns if clean_name(name) != name}
    if renamed:
        frame = frame.rename(columns=renamed)
        notes.append(
            f"Removed invisible or direction-control characters from the column "
            f"{'name' if len(renamed) == 1 else 'names'} {', '.join(repr(old) for old in list(renamed)[:5])}."
        )
    for name in frame.columns:
        column = frame[name]
        if not (ptypes.is_object_dtype(column) or ptypes.is_string_dtype(column)):
            continue
        texts = column.dropna()
        # Longer texts can be no name or category of a saved list (unstorable_name): only shown.
        texts = texts[texts.map(lambda value: isinstance(value, str) and len(value) <= MAX_NAME_CHARS)]
        distinct = pd.unique(texts)
        cleaned = {value: clean_name(value) for value in distinct}
        # A cell of invisible characters only is an empty cell: missing, as a blank cell is read.
        changed = {value: new or np.nan for value, new in cleaned.items() if new != value}
        if changed:
            frame[name] = column.map(lambda value, changed=changed: changed.get(value, value) if isinstance(value, str) else value)
            notes.append(
                f"Removed invisible or direction-control characters from {_count(len(changed), 'value')} of "
                f"the column {name!r}, e.g. {next(iter(changed))!r}."
            )
        pairs = look_alike_pairs(dict.fromkeys(value for value in cleaned.values() if value))
        if pairs:
            first, second = pairs[0]
            raise DataError(
                f"{filename}: the column {name!r} has values that look the same when shown: {first!r} "
                f"and {second!r}. Make them one value (or clearly different ones) and upload again."
            )
    return frame


def _check_readable(frame: pd.DataFrame, filename: str) -> None:
    """Refuse a column name or text cell holding a character that cannot be shown (a control
    character or a lone surrogate: :func:`psl_core.names.unreadable_character`)."""
    for name in frame.columns:
        character = unreadable_character(name)
        if character is not None:
            raise DataError(
                f"{filename}: the column name {name!r} holds {describe_character(character)}, which "
                "cannot be shown. Rename the column and upload again."
            )
    for name in frame.columns:
        if not (ptypes.is_object_dtype(frame[name]) or ptypes.is_string_dtype(frame[name])):
            continue
        found = frame[name].astype(object).map(lambda v: isinstance(v, str) and bool(UNREADABLE.search(v)))
        if found.any():
            row = int(found.to_numpy().argmax())
            character = unreadable_character(frame[name].iloc[row])
            raise DataError(
                f"{filename}: the column {name!r} holds {describe_character(character)} in row {row + 1} "
                "(a character that cannot be shown). Remove it and upload again."
            )


MAX_NAME_CHARS = schema()["$defs"]["name"]["maxLength"]
"""Longest name or category a saved list holds (the model file's schema)."""
STORABLE_RULE = (
    "a saved list keeps names and values of at most 1,000 characters that do not start with "
    "__, py/ or !!"
)
"""The rule of :func:`psl_core.serialization.unstorable_name`, in words."""


def _check_storable_names(names: Sequence[str], filename: str) -> None:
    """Refuse column names a saved list could not hold (:func:`unstorable_name`)."""
    bad = [name for name in names if unstorable_name(name)]
    if bad:
        shown = ", ".join(repr(_shorten(name)) for name in bad[:5]) + (", ..." if len(bad) > 5 else "")
        raise DataError(
            f"{filename}: the column {'name' if len(bad) == 1 else 'names'} {shown} cannot be kept in a "
            f"saved list ({STORABLE_RULE}). Rename {'it' if len(bad) == 1 else 'them'} and upload again."
        )


def _unstorable_value(texts: Iterable[str]) -> str | None:
    """The first of ``texts`` a saved list could not hold as a category, or None."""
    return next((text for text in texts if unstorable_name(text)), None)


def _shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---------------------------------------------------------------------------------------------
# Values


def _value_text(value: object) -> str:
    """Canonical text of a raw value, so that 1, 1.0, True and "1" name the same class."""
    if isinstance(value, (bool, np.bool_)):
        return "1" if value else "0"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        number = float(value)
        if number.is_integer() and abs(number) < 1e15:
            return str(int(number))
        return repr(number)
    return str(value).strip()


def _natural_key(text: str) -> tuple:
    """Sort numbers numerically before text, text case-insensitively."""
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if math.isnan(number):
        return (1, 0.0, text.casefold(), text)
    return (0, number, "", text)


def _normalized(series: pd.Series) -> pd.Series:
    """Numbers as float64 with ±inf missing; anything else as stripped text with blanks missing."""
    if ptypes.is_numeric_dtype(series) and not isinstance(series.dtype, pd.CategoricalDtype):
        numbers = series.astype("float64")
        return numbers.where(np.isfinite(numbers))
    text = series.astype(object).map(_value_text, na_action="ignore").astype(object)
    return text.where(text.notna() & (text != ""))


def outcome_classes(series: pd.Series) -> list:
    """Distinct non-missing values of a column, as plain Python values, in natural order.

    Values with the same canonical text (1, 1.0, "1") count once, as their first occurrence;
    text is stripped, integer-valued floats become ints.
    """
    present = series[_normalized(series).notna()]
    firsts: dict[str, object] = {}
    for value in present.unique().tolist():
        firsts.setdefault(_value_text(value), value)
    return [_plain(firsts[text]) for text in sorted(firsts, key=_natural_key)]


def count_classes(series: pd.Series) -> list[tuple[object, int]]:
    """Each value of :func:`outcome_classes` with its number of rows."""
    counts = _normalized(series).dropna().map(_value_text).value_counts()
    return [(value, int(counts[_value_text(value)])) for value in outcome_classes(series)]


def value_label(value: object, spec: ColumnSpec | None = None) -> str:
    """The readable label of a raw value from the column's spec, else its canonical text."""
    text = _value_text(value)
    for raw, label in (spec.categories if spec else {}).items():
        if _value_text(raw) == text:
            return label
    return text


def _plain(value: object) -> object:
    """A value as the page shows it: 1 rather than 1.0, text without surrounding spaces."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return int(value)
    if isinstance(value, str):
        return value.strip()
    return value


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "0.0 %"


# ---------------------------------------------------------------------------------------------
# Column types and default choices


def infer_column_types(
    df: pd.DataFrame, specs: Mapping[str, ColumnSpec] | None = None
) -> dict[str, str]:
    """Propose a type for every column: "numeric", "categorical", "binary" or "ignore".

    All-missing and constant columns, row identifiers and text with too many distinct values
    are "ignore"; two distinct values make "binary"; numbers (also integer codes with more
    than two values) are "numeric"; other text is "categorical". A spec's ``kind`` wins.
    """
    types = {name: _infer_kind(name, df[name])[0] for name in df.columns}
    for name, spec in (specs or {}).items():
        if name in types and spec.kind is not None:
            types[name] = spec.kind
    return types


def _infer_kind(name: object, series: pd.Series) -> tuple[str, str]:
    """The proposed type of a column and the reason for it, as the page shows it."""
    if ptypes.is_datetime64_any_dtype(series) or ptypes.is_timedelta64_dtype(series):
        return "ignore", "dates and times are not used"
    values = _normalized(series).dropna()
    if values.empty:
        return "ignore", "all values are missing"
    distinct = values.nunique()
    if distinct == 1:
        return "ignore", "the same value in every row"
    identifier = _identifier_reason(name, values, distinct)
    if identifier:
        return "ignore", identifier
    if distinct <= MAX_CATEGORIES and not ptypes.is_numeric_dtype(values):
        unstorable = _unstorable_value(values.map(_value_text).unique().tolist())
        if unstorable is not None:
            return "ignore", f"the value {_shorten(unstorable)!r} cannot be kept in a saved list ({STORABLE_RULE})"
    if distinct == 2:
        first, second = sorted({_value_text(value) for value in values.unique().tolist()}, key=_natural_key)
        return "binary", f"two values: {first} and {second}"
    numbers = values if ptypes.is_float_dtype(values) else pd.to_numeric(values, errors="coerce")
    if numbers.notna().all():
        return "numeric", f"numbers from {_value_text(numbers.min())} to {_value_text(numbers.max())}"
    if distinct > MAX_CATEGORIES and _repeats(values):
        return "categorical", (
            f"text with {distinct} values that repeat across rows: a category, the rarest pooled as "
            f"{POOLED_CATEGORY!r}"
        )
    if distinct > MAX_CATEGORIES:
        return "ignore", f"text with {distinct} different values (an identifier or free text?)"
    return "categorical", f"text with {distinct} categories"


def _repeats(values: pd.Series) -> bool:
    """Whether most rows share their value with another row (a clinic, not a name or a note)."""
    counts = values.value_counts()
    counts = counts.groupby([_value_text(value) for value in counts.index]).sum()
    return bool(counts[counts == 1].sum() < 0.5 * len(values))


def _identifier_reason(name: object, values: pd.Series, distinct: int) -> str:
    """Why a column looks like a row identifier, or "" if it does not.

    A running number (1, 2, 3, ... in any order) is one whatever its name; a column named like
    an identifier ("id", "patient_no", "rownames", "Unnamed: 0") is one when it holds whole
    numbers or codes, at least :data:`IDENTIFIER_DISTINCT_SHARE` of them different (a "shock
    index" with decimals stays a measurement); so is text that differs in every row.
    """
    numbers = values if ptypes.is_float_dtype(values) else pd.to_numeric(values, errors="coerce")
    if numbers.notna().all() and _is_row_counter(numbers):
        return "a running number (a row counter), not a measurement"
    if distinct <= 2 or distinct < IDENTIFIER_DISTINCT_SHARE * len(values):
        return ""
    whole_or_codes = numbers.isna().any() or bool((numbers == np.round(numbers)).all())
    if whole_or_codes and _has_identifier_name(name):
        return f"named like an identifier, with {distinct} different values in {len(values)} rows"
    if distinct == len(values) and numbers.isna().all():
        return "a different text in every row: an identifier or free text"
    return ""


def _has_identifier_name(name: object) -> bool:
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", str(name))
    return bool(_IDENTIFIER_NAME.search(spaced.lower()))


def _is_row_counter(numbers: pd.Series) -> bool:
    if len(numbers) < 10:
        return False
    ordered = np.sort(numbers.to_numpy(dtype=float))
    return bool(np.isfinite(ordered).all() and np.all(np.diff(ordered) == 1.0))


def _outcome_candidates(df: pd.DataFrame, types: Mapping[str, str]) -> list[tuple[object, str]]:
    """Columns that may be the outcome, best first, each with why."""
    binary = [name for name in df.columns if types.get(name) == "binary"]
    ranked: list[tuple[int, int, object, str]] = []
    for position, name in enumerate(df.columns):
        words = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", str(name)).lower()
        words = re.sub(r"[^a-z0-9]+", " ", words).strip()
        match = _OUTCOME_NAME.search(words)
        if name in binary and match and match.group(2) == words:
            ranked.append((0, position, name, f"it has two values and its name, {str(name)!r}, is an outcome word"))
        elif name in binary and match:
            ranked.append((1, position, name, f"it has two values and its name contains {match.group(2)!r}, an outcome word"))
        elif match and 1 <= len(outcome_classes(df[name])) <= MAX_OUTCOME_CLASSES:
            ranked.append((2, position, name, f"its name contains {match.group(2)!r}, an outcome word"))
    if binary:
        ranked.append((
            3, 0, binary[-1],
            "it is the last column with two values; no such column is named like an outcome "
            "(outcome, target, class, diagnosis, death, event, ...)",
        ))
    return [(name, reason) for _, _, name, reason in sorted(ranked, key=lambda item: item[:2])]


def guess_outcome(df: pd.DataFrame, types: Mapping[str, str]) -> str | None:
    """A likely outcome column, or None; :func:`explain_outcome_guess` says why.

    Preference: a binary column named with an outcome word ("outcome", "low", "died"...),
    then a binary column whose name contains one ("death_status"), then any column with such a
    name and few values (even one value, so that the user learns what is wrong with it), then
    the last binary column.
    """
    candidates = _outcome_candidates(df, types)
    return candidates[0][0] if candidates else None


def explain_outcome_guess(df: pd.DataFrame, types: Mapping[str, str]) -> str:
    """Why :func:`guess_outcome` chose its column, e.g. "it has two values and its name ..."."""
    candidates = _outcome_candidates(df, types)
    return candidates[0][1] if candidates else "no column has two values or an outcome-like name"


def guess_positive_class(series: pd.Series) -> object | None:
    """The likely positive value of a two-valued outcome; None for any other number of values.

    A value that reads as positive ("yes", "1", "died", "present"...) is chosen, else the
    value whose partner reads as negative, else the rarer value (events are usually the
    minority), else the later one in natural order.
    """
    classes = outcome_classes(series)
    if len(classes) != 2:
        return None
    return _pick_one(series, classes)


def _pick_one(series: pd.Series, two_values: list) -> object:
    texts = [_value_text(value).casefold() for value in two_values]
    for value, text in zip(two_values, texts):
        if text in _POSITIVE_WORDS:
            return value
    for index, text in enumerate(texts):
        if text in _NEGATIVE_WORDS:
            return two_values[1 - index]
    counts = _normalized(series).dropna().map(_value_text).value_counts()
    first, second = (int(counts.get(_value_text(value), 0)) for value in two_values)
    if first != second:
        return two_values[0] if first < second else two_values[1]
    return two_values[1]


def guess_missing_handling(
    df: pd.DataFrame, types: Mapping[str, str], outcome: str | None
) -> str:
    """"learn": the learner keeps every row and learns where a missing answer goes. A value
    is often missing for a reason (a lab not ordered because the patient looked well), which
    dropping rows or filling in the median hides; both stay options."""
    return "learn"


def column_summary(
    df: pd.DataFrame,
    types: Mapping[str, str],
    specs: Mapping[str, ColumnSpec] | None = None,
    flagged: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """One row per column: label, chosen type, its reason, distinct values, missing count, examples.

    The reason is the column's spec description, else why the column looks like it encodes
    the outcome (``flagged``, from :func:`psl_triage.roles.propose_roles`), else why its type was proposed, or
    that the user chose another type.
    """
    specs = specs or {}
    flagged = flagged or {}
    rows = []
    for name in df.columns:
        values = _normalized(df[name])
        present = values.dropna()
        kind = types.get(name, "ignore")
        inferred, reason = _infer_kind(name, df[name])
        if name in specs and specs[name].description:
            reason = specs[name].description
        elif name in flagged:
            reason = flagged[name] + ("" if kind == "ignore" else "; kept, as you chose")
        elif kind != inferred:
            reason = f"{kind}, as you chose (detected: {inferred}, {reason})"
        examples = [_value_text(value) for value in present.unique()[:3].tolist()]
        rows.append(
            {
                "column": str(name),
                "label": _label(name, specs),
                "type": kind,
                "distinct": int(present.nunique()),
                "missing": int(values.isna().sum()),
                "examples": ", ".join(examples),
                "reason": reason,
            }
        )
    return pd.DataFrame(rows, columns=["column", "label", "type", "reason", "distinct", "missing", "examples"])


LEAK_ERROR_SHARE = 0.02
"""A column encodes the outcome when its best single cut (or its categories) misplaces at most
this share of the rarer class's rows."""

MIN_ROWS_FOR_LEAK = 20
"""Fewer rows with both values than this cannot tell a leak from luck; no column is flagged."""


def leak_reason(values: pd.Series, y: np.ndarray, positive: str = "positive", negative: str = "negative") -> str:
    """Why a column looks like it encodes the outcome, or "" if it does not.

    A numeric column does when one cut puts all but at most :data:`LEAK_ERROR_SHARE` of the
    rarer class's rows on their own side (a perfect cut is the continuous measure the outcome is
    a threshold of); a text or categorical column with fewer categories than half its rows
    does when the classes barely mix within its categories.

    Parameters
    ----------
    values : pandas.Series of shape (n,)
        The column's values on rows where it and the outcome are known (floats or text).
    y : numpy.ndarray of shape (n,)
        1 for the positive class, else 0.
    positive, negative : str
        The classes' names, for the sentence.
    """
    y = np.asarray(y, dtype=np.int64)
    n_positive = int(y.sum())
    rarer = min(n_positive, len(y) - n_positive)
    if len(y) < MIN_ROWS_FOR_LEAK or rarer == 0:
        return ""
    allowed = int(LEAK_ERROR_SHARE * rarer)
    if ptypes.is_numeric_dtype(values) and not isinstance(values.dtype, pd.CategoricalDtype):
        numbers = values.to_numpy(dtype=float)
        order = np.argsort(numbers, kind="stable")
        ordered, labels = numbers[order], y[order]
        ends = np.flatnonzero(np.diff(ordered) > 0)  # cut after these positions
        if ends.size == 0:
            return ""
        positives_below = np.cumsum(labels)[ends]
        negatives_below = ends + 1 - positives_below
        high_is_positive = positives_below + (len(y) - n_positive - negatives_below)
        low_is_positive = negatives_below + (n_positive - positives_below)
        errors = np.minimum(high_is_positive, low_is_positive)
        best = int(np.argmin(errors))
        if errors[best] > allowed:
            return ""
        cut = (ordered[ends[best]] + ordered[ends[best] + 1]) / 2
        above, below = (positive, negative) if high_is_positive[best] <= low_is_positive[best] else (negative, positive)
        return (
            f"looks like it encodes the outcome: above {_value_text(float(f'{cut:.4g}'))} "
            f"{'every' if errors[best] == 0 else 'almost every'} row is {above}, below it {below} ({int(errors[best])} of {len(y)} rows on the other side)"
        )
    texts = values.astype(str)
    if texts.nunique() * 2 > len(texts):
        return ""
    counts = pd.crosstab(texts.to_numpy(), y)
    errors = int(counts.min(axis=1).sum()) if counts.shape[1] == 2 else 0
    if errors > allowed:
        return ""
    return (
        f"looks like it encodes the outcome: its values alone tell {positive} from {negative} "
        f"({errors} of {len(y)} rows otherwise)"
    )


def missing_report(df: pd.DataFrame, columns: Sequence[str] | None = None) -> pd.DataFrame:
    """Missing values per column: "column", "missing" (count) and "percent" (of all rows).

    Missing means empty, a missing marker, blank text or an infinite number.
    """
    names = list(df.columns if columns is None else columns)
    counts = [int(_normalized(df[name]).isna().sum()) for name in names]
    percents = [100 * count / len(df) if len(df) else 0.0 for count in counts]
    return pd.DataFrame({"column": [str(name) for name in names], "missing": counts, "percent": percents})


def _label(name: object, specs: Mapping[str, ColumnSpec] | None) -> str:
    spec = (specs or {}).get(name)
    return spec.label if spec is not None and spec.label else str(name)


# ---------------------------------------------------------------------------------------------
# Preparing training data


def _feature_columns(df: pd.DataFrame, types: Mapping[str, str], outcome: str | None) -> list:
    """Columns the user wants as features (type other than "ignore", not the outcome)."""
    for name, kind in types.items():
        if kind not in KINDS:
            raise DataError(f"Column {name!r} has type {kind!r}; choose one of {', '.join(KINDS)}.")
    return [name for name in df.columns if name != outcome and types.get(name, "ignore") != "ignore"]


def _missing_mask(series: pd.Series, kind: str) -> pd.Series:
    """Entries that will count as missing for a column of type ``kind`` (text in numbers too)."""
    values = _normalized(series)
    if kind == "numeric" and not ptypes.is_float_dtype(values):
        return ~np.isfinite(pd.to_numeric(values, errors="coerce").astype("float64"))
    return values.isna()


def _incomplete_rows(df: pd.DataFrame, types: Mapping[str, str], outcome: str | None) -> pd.Series:
    """Rows with a missing value in a usable feature or in the outcome."""
    incomplete = pd.Series(False, index=df.index)
    if outcome is not None and outcome in df.columns:
        incomplete |= _normalized(df[outcome]).isna()
    for name in _feature_columns(df, types, outcome):
        missing = _missing_mask(df[name], types[name])
        if not missing.all():
            incomplete |= missing
    return incomplete


def describe_missing_handling(
    df: pd.DataFrame, types: Mapping[str, str], outcome: str | None, handling: str
) -> str:
    """One or two plain sentences on what ``handling`` will do to the rows of ``df``.

    E.g. "6 rows (2.0 %) have a missing value and will be dropped; 297 of 303 rows remain."
    """
    _check_handling(handling)
    n_rows = len(df)
    no_outcome = (
        int(_normalized(df[outcome]).isna().sum()) if outcome is not None and outcome in df.columns else 0
    )
    if handling == "learn":
        gaps = [
            (name, int(_missing_mask(df[name], types[name]).sum())) for name in _feature_columns(df, types, outcome)
        ]
        gaps = [(name, count) for name, count in gaps if 0 < count < n_rows]
        kept = n_rows - no_outcome
        if not gaps:
            sentence = f"No missing values in the columns in use; {kept} of {n_rows} rows are kept."
        else:
            listed = "; ".join(f"{_count(count, 'missing value')} in {str(name)!r}" for name, count in gaps)
            sentence = (
                f"Keeps {listed}: the list learns whether a missing answer counts as yes or no for each "
                f"question; {kept} of {n_rows} rows are kept."
            )
        if no_outcome:
            sentence += f" {_count(no_outcome, 'row')} without an outcome will be dropped."
        return sentence
    if handling == "drop":
        dropped = int(_incomplete_rows(df, types, outcome).sum())
        if dropped == 0:
            return f"No missing values in the columns in use; all {n_rows} rows are kept."
        return (
            f"{_count(dropped, 'row')} ({_percent(dropped, n_rows)}) "
            f"{'has' if dropped == 1 else 'have'} a missing value and will be dropped; "
            f"{n_rows - dropped} of {n_rows} rows remain."
        )
    fills = []
    for name in _feature_columns(df, types, outcome):
        missing = int(_missing_mask(df[name], types[name]).sum())
        if 0 < missing < n_rows:
            how = "the median" if types[name] == "numeric" else "the most frequent value"
            fills.append(f"{_count(missing, 'missing value')} in {str(name)!r} with {how}")
    kept = n_rows - no_outcome
    sentence = (
        f"Will fill in {'; '.join(fills)}; {kept} of {n_rows} rows are kept."
        if fills
        else f"No missing values to fill in; {kept} of {n_rows} rows are kept."
    )
    if no_outcome:
        sentence += f" {_count(no_outcome, 'row')} without an outcome will be dropped."
    return sentence


def _check_handling(handling: str) -> None:
    if handling not in MISSING_HANDLINGS:
        raise DataError(f"Missing-value handling must be 'learn', 'drop' or 'impute', got {handling!r}.")


def prepare_training_data(
    df: pd.DataFrame,
    types: Mapping[str, str],
    outcome: str,
    positive_class: object,
    missing: str = "drop",
    specs: Mapping[str, ColumnSpec] | None = None,
    class_names: tuple[str, str] | None = None,
    follow_up: object = None,
) -> PreparedData:
    """Apply the user's choices and return data a PSL can learn from.

    Parameters
    ----------
    df : pandas.DataFrame
        The table as loaded.
    types : mapping of column name to str
        One of :data:`KINDS` per column; columns not in ``types`` are left out like "ignore".
        The outcome's own type is not used.
    outcome : str
        The outcome column.
    positive_class : object or list of objects
        The outcome value counted as positive, or a list of values (all other values are
        negative). May be None only for a two-valued outcome, which then uses
        :func:`guess_positive_class` and says so in the notes. Values match by canonical text,
        so 1, 1.0 and "1" are the same class.
    missing : {"learn", "drop", "impute"}
        Keep missing feature values for the learner (NaN in ``X``; the list learns where a
        missing answer goes), drop every row with a missing feature value, or fill in the
        median (numeric) or the most frequent value (binary, categorical). A column more than
        :data:`MOSTLY_EMPTY_SHARE` empty is never filled in (the learner learns where its
        missing answers go). Rows without an outcome are always dropped.
    specs : mapping of column name to ColumnSpec, optional
        Labels, units and category labels for the metadata.
    class_names : (str, str), optional
        The user's names of the positive and the negative class; blank or None keeps the
        defaults of :func:`default_class_names`.
    follow_up : psl_triage.follow_up.FollowUp, optional
        A time-to-event list: the outcome is the 0/1 event column, this the time column
        (never a question; rows without a time are dropped) and the horizon; the class
        names say "within" it (:func:`psl_triage.follow_up.horizon_labels`).

    Returns
    -------
    PreparedData

    Raises
    ------
    DataError
        Duplicate or unknown columns, an unusable outcome (all missing, one class, too many
        values, positive class not given or not present), a column that cannot have its type,
        no feature left, no row left, or fewer than :data:`MIN_ROWS_PER_CLASS` rows in a class.
    """
    _check_handling(missing)
    specs = specs or {}
    _check_columns(df, outcome)
    notes: list[str] = []
    n_rows_source = len(df)
    if follow_up is not None:
        df, types = _follow_up_rows(df, types, outcome, follow_up, notes)
    outcome_values = _normalized(df[outcome])
    positive_texts, positive_values = _positive_values(df[outcome], outcome, positive_class, notes)
    converted, binary_values = _convert_features(df, types, outcome, specs, notes)
    keep = _rows_to_keep(df, outcome, outcome_values, converted, missing, notes)
    fill_values = _fill_in(converted, keep, types, binary_values, notes, fill=missing == "impute")
    y = outcome_values.loc[keep].map(_value_text).isin(positive_texts).to_numpy(dtype=np.int64)
    positive_label, negative_label = _class_names(
        df[outcome], outcome, positive_values, specs.get(outcome), class_names
    )
    _check_class_sizes(y, positive_label, negative_label)
    if follow_up is not None and not (class_names and all(n and n.strip() for n in class_names)):
        from psl_triage.follow_up import horizon_labels

        positive_label, negative_label = horizon_labels(positive_label, follow_up.horizon, follow_up.unit)
    X = pd.DataFrame(
        {name: _final_column(series, types[name]) for name, series in converted.items()},
        index=df.index[keep.to_numpy()],
    )
    for name in X.columns:
        known = X[name].notna().to_numpy()
        reason = leak_reason(X[name][known], y[known], positive_label, negative_label)
        if reason:
            notes.append(f"{str(name)!r} {reason}. If it is derived from the outcome or recorded after it, set it to 'ignore'.")
    return PreparedData(
        X=X,
        y=y,
        outcome=outcome,
        positive_class=tuple(positive_values),
        outcome_label=_label(outcome, specs),
        positive_label=positive_label,
        negative_label=negative_label,
        n_rows_before=n_rows_source,
        n_rows_after=len(X),
        notes=notes,
        columns={
            name: _column_info(
                name, types[name], X[name], binary_values[name], fill_values.get(name), specs.get(name)
            )
            for name in X.columns
        },
        follow_up=follow_up,
        time=None if follow_up is None else df.loc[X.index, follow_up.time].astype(float).to_numpy(),
    )


def _follow_up_rows(df, types, outcome, follow_up, notes):
    """The rows with a follow-up time, and the types without the time column (never a question)."""
    from psl_triage.follow_up import event_time

    if follow_up.time not in df.columns or follow_up.time == outcome:
        raise DataError(f"Choose a follow-up time column other than the event column {str(outcome)!r}.")
    event_time(df, follow_up.time, outcome, [])  # names a time column that cannot serve
    times = pd.to_numeric(df[follow_up.time], errors="coerce")
    if times.isna().any():
        notes.append(f"{int(times.isna().sum())} rows without a follow-up time in {str(follow_up.time)!r} were dropped.")
    df = df.loc[times.notna()].copy()
    df[follow_up.time] = times[times.notna()]
    return df, {**types, follow_up.time: "ignore"}


def _check_columns(df: pd.DataFrame, outcome: str) -> None:
    if df.columns.has_duplicates:
        duplicates = sorted({str(name) for name in df.columns[df.columns.duplicated()]})
        raise DataError(f"Duplicate column names: {', '.join(duplicates)}. Every column needs a unique name.")
    if outcome not in df.columns:
        raise DataError(f"The outcome column {outcome!r} is not in the table.")


def _convert_features(
    df: pd.DataFrame, types: Mapping[str, str], outcome: str, specs: Mapping[str, ColumnSpec], notes: list[str]
) -> tuple[dict[object, pd.Series], dict[object, tuple]]:
    """Every feature column in use converted (:func:`_convert_feature`), and its binary values."""
    converted: dict[object, pd.Series] = {}
    binary_values: dict[object, tuple] = {}
    for name in _feature_columns(df, types, outcome):
        column = _convert_feature(df[name], name, types[name], specs.get(name), notes)
        if column is not None:
            converted[name], binary_values[name] = column
    return converted, binary_values


def _rows_to_keep(
    df: pd.DataFrame,
    outcome: str,
    outcome_values: pd.Series,
    converted: Mapping[object, pd.Series],
    missing: str,
    notes: list[str],
) -> pd.Series:
    """Rows with an outcome and, when dropping, a value in every converted feature."""
    keep = outcome_values.notna()
    if not keep.all():
        notes.append(
            f"Dropped {_count(int((~keep).sum()), 'row')} without a value for the outcome {str(outcome)!r}."
        )
    if missing == "drop":
        incomplete = pd.Series(False, index=df.index)
        for series in converted.values():
            incomplete |= series.isna()
        incomplete &= keep
        if incomplete.any():
            n_dropped = int(incomplete.sum())
            notes.append(
                f"Dropped {_count(n_dropped, 'row')} ({_percent(n_dropped, len(df))}) "
                "with a missing value."
            )
        keep &= ~incomplete
    if not keep.any():
        raise DataError(
            "No rows are left after dropping rows with missing values. "
            "Choose to fill in missing values instead, or set sparse columns to 'ignore'."
        )
    return keep


def _fill_in(
    converted: dict[object, pd.Series],
    keep: pd.Series,
    types: Mapping[str, str],
    binary_values: Mapping[object, tuple],
    notes: list[str],
    fill: bool = True,
) -> dict[object, object]:
    """Restrict ``converted`` (in place) to the kept rows, fill in what is missing (unless
    ``fill`` is False: the learner learns where it goes), and leave out columns without a value
    or with a single one; returns the raw fill value per filled column."""
    fill_values: dict[object, object] = {}
    for name in list(converted):
        series = converted[name].loc[keep]
        if series.isna().all():
            notes.append(f"Left out {str(name)!r}: no value in the rows used.")
            del converted[name]
            continue
        empty = float(series.isna().mean())
        if fill and empty > MOSTLY_EMPTY_SHARE:
            notes.append(
                f"Did not fill in {str(name)!r}: {empty:.0%} of its values are missing, too many to "
                "fill in with one value; the list learns where a missing answer goes."
            )
        elif fill and series.isna().any():
            value = _fill_value(series, types[name])
            fill_values[name] = _raw_fill(value, types[name], binary_values[name])
            notes.append(
                f"Filled in {_count(int(series.isna().sum()), 'missing value')} of {str(name)!r} "
                f"with the {'median' if types[name] == 'numeric' else 'most frequent value'}, "
                f"{_value_text(fill_values[name])}."
            )
            series = series.fillna(value)
        if series.nunique() < 2:
            notes.append(f"Left out {str(name)!r}: it has the same value in every row used.")
            del converted[name]
            continue
        converted[name] = series
    if not converted:
        raise DataError(
            "No feature columns to learn from: mark at least one column (other than the outcome) "
            "as numeric, binary or categorical."
        )
    return fill_values


def _check_class_sizes(y: np.ndarray, positive_label: str, negative_label: str) -> None:
    n_positive, n_negative = int(y.sum()), int(len(y) - y.sum())
    if min(n_positive, n_negative) < MIN_ROWS_PER_CLASS:
        raise DataError(
            f"Too few rows to learn from: {n_positive} positive ({positive_label}) and "
            f"{n_negative} negative ({negative_label}); at least {MIN_ROWS_PER_CLASS} of each are needed."
        )


def default_class_names(
    series: pd.Series, outcome: object, positive_values: Sequence[object], spec: ColumnSpec | None = None
) -> tuple[str, str]:
    """Readable names of the positive and the negative class, from the data.

    A spec's category labels win ("heart disease"); text values name themselves ("malignant",
    "benign"); numeric codes say which column and value they are ("low = 1", "low = 0";
    "num = 1, 2 or 3" for several values), never a bare "1".
    """
    positive_texts = {_value_text(value) for value in positive_values}
    negatives = [value for value in outcome_classes(series) if _value_text(value) not in positive_texts]
    return (
        _class_label(outcome, list(positive_values), spec),
        _class_label(outcome, negatives, spec),
    )


def _class_names(
    series: pd.Series,
    outcome: object,
    positive_values: Sequence[object],
    spec: ColumnSpec | None,
    chosen: tuple[str, str] | None,
) -> tuple[str, str]:
    """The user's class names where given (stripped, not blank), the defaults elsewhere."""
    defaults = default_class_names(series, outcome, positive_values, spec)
    chosen = chosen or ("", "")
    names = tuple(str(name).strip() or default for name, default in zip(chosen, defaults))
    if names[0].casefold() == names[1].casefold():
        raise DataError(
            f"Both classes are named {names[0]!r}; give the positive and the negative class different names."
        )
    return names


def _positive_values(
    series: pd.Series, outcome: str, positive_class: object, notes: list[str]
) -> tuple[set[str], list]:
    """Canonical texts and raw values of the positive class; validates the outcome."""
    classes = outcome_classes(series)
    name = repr(str(outcome))
    if not classes:
        raise DataError(f"The outcome column {name} has no values (all missing). Choose another outcome.")
    if len(classes) == 1:
        raise DataError(
            f"The outcome column {name} has only one value, {_value_text(classes[0])!r}; "
            "a model needs rows of two classes. Choose another outcome."
        )
    if len(classes) > MAX_OUTCOME_CLASSES:
        raise DataError(
            f"The outcome column {name} has {len(classes)} different values; it looks like a "
            "measurement, not a class. Choose a column with two classes, or add one to your file "
            "(e.g. 1 if the value is above a cut-off, else 0)."
        )
    if positive_class is None or (isinstance(positive_class, (list, tuple, set, frozenset)) and not positive_class):
        if len(classes) > 2:
            raise DataError(
                f"The outcome column {name} has {len(classes)} values "
                f"({', '.join(_value_text(value) for value in classes)}); pick the positive class. "
                "All other values will count as negative."
            )
        guessed = _pick_one(series, classes)
        notes.append(f"No positive class was given; used {_value_text(guessed)!r}.")
        wanted = [guessed]
    elif isinstance(positive_class, (list, tuple, set, frozenset)):
        wanted = list(positive_class)
    else:
        wanted = [positive_class]
    by_text = {_value_text(value): value for value in classes}
    texts = []
    for value in wanted:
        text = _value_text(value)
        if text not in by_text:
            raise DataError(
                f"The positive class {text!r} does not occur in the outcome column {name}, "
                f"whose values are {', '.join(map(repr, by_text))}."
            )
        if text not in texts:
            texts.append(text)
    if len(texts) == len(classes):
        raise DataError(
            f"Every value of the outcome column {name} was picked as positive; "
            "leave at least one value as the negative class."
        )
    if len(classes) > 2:
        negatives = [text for text in by_text if text not in texts]
        notes.append(
            f"The outcome {name} has {len(classes)} values: {', '.join(texts)} "
            f"{'counts' if len(texts) == 1 else 'count'} as positive, "
            f"{', '.join(negatives)} as negative."
        )
    return set(texts), [by_text[text] for text in texts]


def _convert_feature(
    series: pd.Series, name: object, kind: str, spec: ColumnSpec | None, notes: list[str]
) -> tuple[pd.Series, tuple] | None:
    """The column as floats (numeric, binary 0/1) or canonical text (categorical), missing as NaN.

    Returns None (with a note) for a column without any value. The second item is, for a
    binary column, the raw values mapped to 1 and to 0 (None if the column has one value);
    an empty tuple otherwise.
    """
    label = repr(str(name))
    values = _normalized(series)
    if values.isna().all():
        notes.append(f"Left out {label}: all values are missing.")
        return None
    if kind == "numeric":
        if ptypes.is_datetime64_any_dtype(series) or ptypes.is_timedelta64_dtype(series):
            raise DataError(
                f"Column {label} holds dates or times, which cannot be numeric here. "
                "Set it to 'ignore', or add a number computed from it (e.g. age in years)."
            )
        infinite = int((np.isinf(series) & series.notna()).sum()) if ptypes.is_float_dtype(series) else 0
        if infinite:
            notes.append(f"{_count(infinite, 'infinite value')} in {label} counted as missing.")
        if ptypes.is_float_dtype(values):
            return values, ()
        numbers = pd.to_numeric(values, errors="coerce").astype("float64")
        numbers = numbers.where(np.isfinite(numbers))
        not_numbers = values.notna() & numbers.isna()
        if not_numbers.all() or numbers.isna().all():
            raise DataError(
                f"Column {label} has no numbers (e.g. {values.dropna().iloc[0]!r}); "
                "make it categorical, binary or 'ignore'. If its numbers are written another way "
                "(72,5 or 1.234), choose the decimal mark and thousands separator the file uses."
            )
        if not_numbers.any():
            examples = ", ".join(repr(text) for text in values[not_numbers].unique()[:3])
            notes.append(
                f"{_count(int(not_numbers.sum()), 'value')} in {label} {'is' if not_numbers.sum() == 1 else 'are'} "
                f"not a number (e.g. {examples}) and counted as missing."
            )
        return numbers, ()
    present = values.dropna()
    texts = present.map(_value_text)
    distinct = sorted(texts.unique().tolist(), key=_natural_key)
    unstorable = _unstorable_value(distinct[: MAX_CATEGORIES + 1])
    if unstorable is not None:
        raise DataError(
            f"Column {label} holds the value {_shorten(unstorable)!r}, which cannot be kept in a saved "
            f"list ({STORABLE_RULE}). Set the column to 'ignore', or change the value in your file."
        )
    if kind == "binary":
        if len(distinct) > 2:
            raise DataError(
                f"Column {label} has {len(distinct)} different values "
                f"({', '.join(distinct[:5])}{', ...' if len(distinct) > 5 else ''}); a binary column "
                "needs exactly two. Make it categorical or numeric."
            )
        raw = {_value_text(value): _plain(value) for value in present.unique().tolist()}
        ordered = [raw[text] for text in distinct]
        one = _binary_one(series, ordered, spec)
        one_text = _value_text(one)
        zero = next((value for value in ordered if _value_text(value) != one_text), None)
        mapped = values.map(lambda value: float(_value_text(value) == one_text), na_action="ignore")
        return mapped.astype("float64"), (one, zero)
    if len(distinct) > MAX_CATEGORIES and _repeats(present):
        return _pooled(values, texts, label, notes), ()
    if len(distinct) > MAX_CATEGORIES:
        raise DataError(
            f"Column {label} has {len(distinct)} categories; a scoring list can use at most "
            f"{MAX_CATEGORIES}. Group rare values in your file, or set the column to 'ignore'."
        )
    return values.map(_value_text, na_action="ignore").astype(object), ()


def _pooled(values: pd.Series, texts: pd.Series, label: str, notes: list[str]) -> pd.Series:
    """Canonical text with all but the :data:`MAX_CATEGORIES` - 1 most frequent values pooled."""
    counts = texts.value_counts()
    ranked = sorted(counts.index, key=lambda text: (-counts[text], _natural_key(text)))
    kept = set(ranked[: MAX_CATEGORIES - 1])
    pooled = len(ranked) - len(kept)
    notes.append(
        f"{label} has {len(ranked)} values: the {len(kept)} most frequent are kept, the other {pooled} "
        f"({int(counts[ranked[len(kept):]].sum())} rows) pooled as {POOLED_CATEGORY!r}."
    )
    return values.map(
        lambda value: _value_text(value) if _value_text(value) in kept else POOLED_CATEGORY, na_action="ignore"
    ).astype(object)


def _binary_one(series: pd.Series, ordered: list, spec: ColumnSpec | None) -> object:
    texts = [_value_text(value) for value in ordered]
    if spec is not None and spec.binary_one is not None and _value_text(spec.binary_one) in texts:
        return ordered[texts.index(_value_text(spec.binary_one))]
    if len(ordered) == 1:
        return ordered[0]
    return _pick_one(series, ordered)


def _fill_value(series: pd.Series, kind: str) -> object:
    if kind == "numeric":
        return float(series.median())
    counts = series.value_counts()
    top = counts[counts == counts.max()].index.tolist()
    return sorted(top, key=lambda value: _natural_key(_value_text(value)))[0]


def _raw_fill(fill: object, kind: str, binary_pair: tuple) -> object:
    """The fill value as the user knows it: the raw value for binary, a plain number otherwise."""
    if kind == "binary":
        return binary_pair[0] if fill == 1.0 else binary_pair[1]
    return _plain(fill)


def _final_column(series: pd.Series, kind: str) -> pd.Series | pd.Categorical:
    if kind == "categorical":
        categories = sorted(series.dropna().unique().tolist(), key=_natural_key)
        return pd.Categorical(series.astype(str).where(series.notna()), categories=pd.Index(categories, dtype="str"))
    return series.astype("float64")


def _column_info(
    name: object, kind: str, column: pd.Series, binary_pair: tuple, fill: object, spec: ColumnSpec | None
) -> ColumnInfo:
    spec = spec or ColumnSpec()
    spec_labels = {_value_text(value): label for value, label in spec.categories.items()}
    one = None
    if kind == "categorical":
        labels = {str(cat): spec_labels.get(str(cat), str(cat)) for cat in column.cat.categories}
    elif kind == "binary":
        one, zero = binary_pair
        labels = {"1": spec_labels.get(_value_text(one), _value_text(one))}
        labels["0"] = (
            spec_labels.get(_value_text(zero), _value_text(zero)) if zero is not None else f"not {labels['1']}"
        )
    else:
        labels = {}
    return ColumnInfo(
        name=name,
        label=spec.label or str(name),
        unit=spec.unit,
        kind=kind,
        category_labels=labels,
        one_value=one,
        fill_value=fill,
    )


def _class_label(outcome: object, values: Sequence[object], spec: ColumnSpec | None) -> str:
    labels = [value_label(value, spec) for value in values]
    coded = all(label == _value_text(value) and _is_number_text(label) for label, value in zip(labels, values))
    joined = labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " or " + labels[-1]
    return f"{outcome} = {joined}" if coded else joined


def _is_number_text(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


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
