"""Data preparation: from an uploaded table to the binary-outcome training data a PSL learns from.

The steps follow what a clinical researcher does on the landing page:

1. :func:`load_table` / :func:`read_table` turn the bytes of an uploaded CSV, TSV or Excel
   file into a :class:`pandas.DataFrame`, or raise :class:`~psl_core.errors.DataError` with a
   message that says what is wrong and what to do.
2. :func:`infer_column_types` proposes a type per column ("numeric", "categorical", "binary",
   "ignore"); :func:`guess_outcome`, :func:`guess_positive_class` and
   :func:`guess_missing_handling` propose the remaining choices. The user may change all of
   them; the guesses are only defaults that the page shows.
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
import unicodedata
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from psl_core.errors import DataError

KINDS = ("numeric", "categorical", "binary", "ignore")
"""The column types a user can choose, in the order the page offers them."""

MISSING_HANDLINGS = ("drop", "impute")
"""Drop every row with a missing value, or fill in the median (numbers) / the mode (others)."""

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

MAX_OUTCOME_CLASSES = 20
"""An outcome with more distinct values than this is a measurement, not a class label."""

DROP_SHARE_BEFORE_IMPUTING = 0.10
"""The default handling drops rows unless that would lose more than this share of them."""

TEXT_EXTENSIONS = {".csv": None, ".txt": None, ".tsv": "\t", ".tab": "\t"}
EXCEL_EXTENSIONS = (".xlsx", ".xlsm")
EXTRA_MISSING_MARKERS = ["?"]  # UCI files write "?" for a missing value; pandas knows the rest.

_DELIMITERS = (",", ";", "\t", "|")
_ZIP_MAGIC = b"PK\x03\x04"
_MAX_DIRECTORY_ENTRY = 46 + 300  # bytes: a directory record and a generous part name
_OLE_MAGIC = b"\xd0\xcf\x11\xe0"  # old binary Office formats (.xls, .doc)
_MAX_CONTROL_SHARE = 0.01
_IDENTIFIER_NAME = re.compile(r"(^|[^a-z])(id|ids|identifier|mrn|record|index|unnamed|row)([^a-z]|$)")
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
    r"(^|[^a-z])(outcome|target|label|class|classification|diagnosis|dx|y|death|died|mortality|"
    r"survival|survived|event|status|disease|response|result)([^a-z]|$)"
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
class LoadedTable:
    """A table read from a file, with notes on anything the reader had to decide."""

    frame: pd.DataFrame
    notes: list[str] = field(default_factory=list)


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


def load_table(data: bytes, filename: str, *, max_bytes: int | None = None) -> LoadedTable:
    """Read an uploaded CSV, TSV or Excel (.xlsx) file.

    Text files are decoded as UTF-8 (with or without byte-order mark), UTF-16 with a
    byte-order mark, or else as Windows-1252 / Latin-1, which the notes then say. The delimiter
    of a .csv or .txt file is the most frequent of comma, semicolon, tab and bar in its first
    line. "?" counts as missing, as do pandas' usual markers (empty, NA, NaN, null...). Rows that
    are entirely empty and unnamed empty columns are dropped, with a note.

    Parameters
    ----------
    data : bytes
        The file's content.
    filename : str
        The file's name; its extension selects the reader.
    max_bytes : int, optional
        Size limit; a larger file is refused.

    Returns
    -------
    LoadedTable
        The table (column names stripped of surrounding spaces) and notes.

    Raises
    ------
    DataError
        Too large, empty, of an unsupported type, binary garbage, not a table, without data
        rows, with duplicate column names, or unreadable as its type.
    """
    check_upload_size(data, filename, max_bytes)
    if not data:
        raise DataError(f"{filename} is empty (0 bytes).")
    suffix = PurePath(filename).suffix.lower()
    notes: list[str] = []
    if suffix in EXCEL_EXTENSIONS:
        frame = _read_excel(data, filename, notes)
    elif suffix in TEXT_EXTENSIONS:
        frame = _read_text_table(data, filename, TEXT_EXTENSIONS[suffix], notes)
    elif suffix in (".xls", ".ods", ".numbers"):
        raise DataError(
            f"{filename}: {suffix} files cannot be read. Save the sheet as .xlsx or CSV and upload that."
        )
    else:
        raise DataError(
            f"{filename}: unsupported file type {suffix or '(no extension)'}. "
            "Upload a CSV (.csv), tab-separated (.tsv, .txt) or Excel (.xlsx) file."
        )
    return LoadedTable(_tidy_table(frame, filename, notes), notes)


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
    """Text of a file: UTF-8 (BOM optional), UTF-16 with BOM, else Windows-1252 / Latin-1."""
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
    if b"\x00" in data:
        raise DataError(f"{filename} is a binary file, not a text table (CSV or TSV).")
    try:
        text = data.decode("utf-8-sig")
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


def _sniff_delimiter(text: str) -> str:
    """The most frequent of the usual delimiters in the first non-empty line (comma if none)."""
    first_line = next((line for line in text.splitlines() if line.strip()), "")
    counts = {delimiter: first_line.count(delimiter) for delimiter in _DELIMITERS}
    best = max(counts, key=counts.get)
    return best if counts[best] > 0 else ","


def _read_text_table(data: bytes, filename: str, delimiter: str | None, notes: list[str]) -> pd.DataFrame:
    text = _decode(data, filename, notes)
    if not text.strip():
        raise DataError(f"{filename} contains only blank space, no table.")
    delimiter = delimiter or _sniff_delimiter(text)
    try:
        header = next(csv.reader(io.StringIO(text.lstrip("\r\n"), newline=""), delimiter=delimiter), [])
    except csv.Error as exc:
        raise DataError(f"{filename} has no readable header row: {exc}") from exc
    _check_header(header, filename)
    try:
        return pd.read_csv(
            io.StringIO(text),
            sep=delimiter,
            na_values=EXTRA_MISSING_MARKERS,
            skipinitialspace=True,
        )
    except pd.errors.ParserError as exc:
        raise DataError(
            f"{filename} is not a consistent table: {exc}. "
            "Every row needs the same number of fields as the header."
        ) from exc
    except Exception as exc:  # the parser meets arbitrary user bytes; any failure is bad data
        raise DataError(f"{filename} could not be read as a table: {exc}") from exc


def _read_excel(data: bytes, filename: str, notes: list[str]) -> pd.DataFrame:
    check_excel_archive(data, filename)
    try:  # pandas opens the workbook with openpyxl's read_only mode: sheets are streamed
        workbook = pd.ExcelFile(io.BytesIO(data), engine="openpyxl")
        sheet = workbook.sheet_names[0]
        header = pd.read_excel(workbook, sheet_name=sheet, header=None, nrows=1)
        frame = pd.read_excel(workbook, sheet_name=sheet, na_values=EXTRA_MISSING_MARKERS)
    except (zipfile.BadZipFile, KeyError, OSError) as exc:
        raise DataError(f"{filename} is not a valid Excel (.xlsx) workbook.") from exc
    except Exception as exc:  # openpyxl meets arbitrary user bytes; any failure is bad data
        raise DataError(f"{filename} could not be read as an Excel workbook: {exc}") from exc
    if len(workbook.sheet_names) > 1:
        notes.append(
            f"{filename} has {len(workbook.sheet_names)} sheets; the first, {sheet!r}, was read."
        )
    _check_header([] if header.empty else list(header.iloc[0]), filename)
    return frame


def _check_header(header: Sequence[object], filename: str) -> None:
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


def _header_name(cell: object) -> str:
    if cell is None or (isinstance(cell, float) and math.isnan(cell)):
        return ""
    return _value_text(cell)


def _tidy_table(frame: pd.DataFrame, filename: str, notes: list[str]) -> pd.DataFrame:
    frame = frame.rename(columns=lambda name: str(name).strip())
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
    """The proposed type of a column and, for "ignore", the reason."""
    if ptypes.is_datetime64_any_dtype(series) or ptypes.is_timedelta64_dtype(series):
        return "ignore", "dates and times are not used"
    values = _normalized(series).dropna()
    if values.empty:
        return "ignore", "all values are missing"
    distinct = values.nunique()
    if distinct == 1:
        return "ignore", "the same value in every row"
    if distinct == 2:
        return "binary", ""
    numbers = values if ptypes.is_float_dtype(values) else pd.to_numeric(values, errors="coerce")
    all_unique = distinct == len(values)
    if numbers.notna().all():
        if all_unique and (_has_identifier_name(name) or _is_row_counter(numbers)):
            return "ignore", "looks like a row identifier"
        return "numeric", ""
    if all_unique and _has_identifier_name(name):
        return "ignore", "looks like a row identifier"
    if distinct > MAX_CATEGORIES:
        return "ignore", f"text with {distinct} different values (an identifier or free text?)"
    return "categorical", ""


def _has_identifier_name(name: object) -> bool:
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", str(name))
    return bool(_IDENTIFIER_NAME.search(spaced.lower()))


def _is_row_counter(numbers: pd.Series) -> bool:
    if len(numbers) < 10:
        return False
    ordered = np.sort(numbers.to_numpy(dtype=float))
    return bool(np.all(np.diff(ordered) == 1.0))


def guess_outcome(df: pd.DataFrame, types: Mapping[str, str]) -> str | None:
    """A likely outcome column, or None.

    Preference: a binary column whose name sounds like an outcome ("outcome", "diagnosis",
    "death", "class", ...), then any such column with few values (even one value, so that the
    user learns what is wrong with it), then the last binary column.
    """
    named = [name for name in df.columns if _OUTCOME_NAME.search(str(name).lower().replace("_", " "))]
    binary = [name for name in df.columns if types.get(name) == "binary"]
    for name in named:
        if name in binary:
            return name
    for name in named:
        if 1 <= len(outcome_classes(df[name])) <= MAX_OUTCOME_CLASSES:
            return name
    return binary[-1] if binary else None


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
    """"drop" unless dropping rows with a missing value would lose more than 10 % of them."""
    if df.empty:
        return "drop"
    incomplete = _incomplete_rows(df, types, outcome)
    return "drop" if incomplete.mean() <= DROP_SHARE_BEFORE_IMPUTING else "impute"


def column_summary(
    df: pd.DataFrame, types: Mapping[str, str], specs: Mapping[str, ColumnSpec] | None = None
) -> pd.DataFrame:
    """One row per column: label, chosen type, distinct values, missing count, examples, note.

    The note is the column's spec description, or else why a column proposed as "ignore" was.
    """
    specs = specs or {}
    rows = []
    for name in df.columns:
        values = _normalized(df[name])
        present = values.dropna()
        kind = types.get(name, "ignore")
        inferred, reason = _infer_kind(name, df[name])
        examples = [_value_text(value) for value in present.unique()[:3].tolist()]
        rows.append(
            {
                "column": str(name),
                "label": _label(name, specs),
                "type": kind,
                "distinct": int(present.nunique()),
                "missing": int(values.isna().sum()),
                "examples": ", ".join(examples),
                "note": specs[name].description if name in specs else (reason if kind == "ignore" == inferred else ""),
            }
        )
    return pd.DataFrame(rows, columns=["column", "label", "type", "distinct", "missing", "examples", "note"])


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
        raise DataError(f"Missing-value handling must be 'drop' or 'impute', got {handling!r}.")


def prepare_training_data(
    df: pd.DataFrame,
    types: Mapping[str, str],
    outcome: str,
    positive_class: object,
    missing: str = "drop",
    specs: Mapping[str, ColumnSpec] | None = None,
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
    missing : {"drop", "impute"}
        Drop every row with a missing feature value, or fill in the median (numeric) or the
        most frequent value (binary, categorical). Rows without an outcome are always dropped.
    specs : mapping of column name to ColumnSpec, optional
        Labels, units and category labels for the metadata.

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
    if df.columns.has_duplicates:
        duplicates = sorted({str(name) for name in df.columns[df.columns.duplicated()]})
        raise DataError(f"Duplicate column names: {', '.join(duplicates)}. Every column needs a unique name.")
    if outcome not in df.columns:
        raise DataError(f"The outcome column {outcome!r} is not in the table.")
    notes: list[str] = []
    outcome_label = _label(outcome, specs)
    outcome_values = _normalized(df[outcome])
    positive_texts, positive_values = _positive_values(df[outcome], outcome, positive_class, notes)

    features = _feature_columns(df, types, outcome)
    converted: dict[object, pd.Series] = {}
    binary_values: dict[object, tuple] = {}
    for name in features:
        column = _convert_feature(df[name], name, types[name], specs.get(name), notes)
        if column is None:
            continue
        converted[name], binary_values[name] = column

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

    fill_values: dict[object, object] = {}
    for name in list(converted):
        series = converted[name].loc[keep]
        if series.isna().all():
            notes.append(f"Left out {str(name)!r}: no value in the rows used.")
            del converted[name]
            continue
        if series.isna().any():
            fill = _fill_value(series, types[name])
            fill_values[name] = _raw_fill(fill, types[name], binary_values[name])
            notes.append(
                f"Filled in {_count(int(series.isna().sum()), 'missing value')} of {str(name)!r} "
                f"with the {'median' if types[name] == 'numeric' else 'most frequent value'}, "
                f"{_value_text(fill_values[name])}."
            )
            series = series.fillna(fill)
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

    outcome_texts = outcome_values.loc[keep].map(_value_text)
    y = outcome_texts.isin(positive_texts).to_numpy(dtype=np.int64)
    n_positive, n_negative = int(y.sum()), int(len(y) - y.sum())
    negative_label = _negative_label(df[outcome], positive_texts, specs.get(outcome))
    positive_label = _class_labels(positive_values, specs.get(outcome))
    if min(n_positive, n_negative) < MIN_ROWS_PER_CLASS:
        raise DataError(
            f"Too few rows to learn from: {n_positive} positive ({positive_label}) and "
            f"{n_negative} negative ({negative_label}); at least {MIN_ROWS_PER_CLASS} of each are needed."
        )

    X = pd.DataFrame(
        {name: _final_column(series, types[name]) for name, series in converted.items()},
        index=df.index[keep.to_numpy()],
    )
    for name in X.columns:
        if _separates_perfectly(X[name], y):
            notes.append(
                f"{str(name)!r} alone separates the outcome perfectly. If it is derived from the "
                "outcome or recorded after it, set it to 'ignore'."
            )
    columns = {
        name: _column_info(name, types[name], X[name], binary_values[name], fill_values.get(name), specs.get(name))
        for name in X.columns
    }
    return PreparedData(
        X=X,
        y=y,
        outcome=outcome,
        positive_class=tuple(positive_values),
        outcome_label=outcome_label,
        positive_label=positive_label,
        negative_label=negative_label,
        n_rows_before=len(df),
        n_rows_after=len(X),
        notes=notes,
        columns=columns,
    )


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
                "make it categorical, binary or 'ignore'."
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
    if len(distinct) > MAX_CATEGORIES:
        raise DataError(
            f"Column {label} has {len(distinct)} categories; a scoring list can use at most "
            f"{MAX_CATEGORIES}. Group rare values in your file, or set the column to 'ignore'."
        )
    return values.map(_value_text, na_action="ignore").astype(object), ()


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
        categories = sorted(series.unique().tolist(), key=_natural_key)
        return pd.Categorical(series.astype(str), categories=pd.Index(categories, dtype="str"))
    return series.astype("float64")


def _separates_perfectly(column: pd.Series, y: np.ndarray) -> bool:
    """Whether a threshold (numbers) or the categories alone predict y without error."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        classes_per_category = pd.Series(y, index=column.index).groupby(column, observed=True).nunique()
        return bool((classes_per_category == 1).all())
    values = column.to_numpy(dtype=float)
    positives, negatives = values[y == 1], values[y == 0]
    return bool(positives.min() > negatives.max() or negatives.min() > positives.max())


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


def _class_labels(values: Sequence[object], spec: ColumnSpec | None) -> str:
    labels = [value_label(value, spec) for value in values]
    if len(labels) <= 2:
        return " or ".join(labels)
    return ", ".join(labels[:-1]) + " or " + labels[-1]


def _negative_label(series: pd.Series, positive_texts: set[str], spec: ColumnSpec | None) -> str:
    negatives = [value for value in outcome_classes(series) if _value_text(value) not in positive_texts]
    return _class_labels(negatives, spec)
