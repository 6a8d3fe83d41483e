"""Reading an upload: bytes of a CSV, TSV or Excel file to a tidy table with readable, storable
column names, or a :class:`~psl_core.errors.DataError` that says what is wrong and what to do."""

from __future__ import annotations

import codecs
import csv
import io
import itertools
import re
import unicodedata
import zipfile
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import PurePath

import numpy as np
import pandas as pd
from pandas.api import types as ptypes
from pandas.errors import EmptyDataError
from pandas.io.parsers import TextParser
from python_calamine import CalamineWorkbook, SheetTypeEnum, SheetVisibleEnum

from psl_core.errors import DataError
from psl_core.serialization import max_number
from psl_triage.data.east_asian import refuse_east_asian
from psl_triage.words import reading as words

from .header import TITLE_ROWS_SEEN, check_header, tidy_table, title_rows
from .sniffing import (
    DELIMITERS,
    NumberFormat,
    detect_delimiter,
    detect_number_format,
    numbers_from_text,
    sample_cells,
    text_cells,
)

DEFAULT_MAX_UPLOAD_MB = 50
"""Upload size limit when the environment variable ``PSL_MAX_UPLOAD_MB`` is not set."""

MAX_UPLOAD_LIMIT_MB = 10_000
"""Largest ``PSL_MAX_UPLOAD_MB`` taken: the server holds an upload in memory, and Streamlit's
uploader fails on every page beyond 2**31 - 1 (a value such as 3000000000 once passed the check
at start and broke every upload page)."""

MAX_EXCEL_UNPACKED_MB = 50
"""Largest total size of an .xlsx file's unpacked parts (sheet XML, shared strings, styles), in
MB. A workbook is a zip archive: 1 MB of it can unpack to a gigabyte (blank space compresses
almost to nothing), and the reader holds what it unpacks. At this limit reading adds at most a
few hundred MB to the server's memory (bench/README.md); a table of a million cells fits."""

MAX_SHEET_AREA = 2_000_000
"""Most cells, from A1 to its farthest cell, of the sheet read: the reader lays the whole area
out (one cell at XFD1048576 in a 6 KB file: 17 billion cells; one at SF20000: 10 million, 8 s
and 670 MB). The 50 MB unpacked bound admits about 1.5 million cells written."""
MAX_EXCEL_PARTS = 10_000
"""Most parts (files) an .xlsx archive may hold; a real workbook has a few dozen."""

COLUMN_READINGS = ("numbers", "percent", "dates", "true/false", "text")
"""How a column of an upload was read (:attr:`LoadedTable.columns`), in the order the "Read as"
sentence names them: numbers (with the table's decimal mark and thousands separator, or as a
workbook holds them), percentages (the % sign dropped), dates, true/false (TRUE and FALSE, or a
workbook's logical cells), text (kept as written)."""

TEXT_EXTENSIONS = {".csv": None, ".txt": None, ".tsv": "\t", ".tab": "\t"}

EXCEL_EXTENSIONS = (".xlsx", ".xlsm")

EXTRA_MISSING_MARKERS = ["?"]  # UCI files write "?" for a missing value; pandas knows the rest.

_ZIP_MAGIC = b"PK\x03\x04"

_MAX_DIRECTORY_ENTRY = 46 + 300  # bytes: a directory record and a generous part name

_OLE_MAGIC = b"\xd0\xcf\x11\xe0"  # old binary Office formats (.xls, .doc), encrypted workbooks

_ENCRYPTED_PACKAGE = "EncryptedPackage".encode("utf-16-le")  # a stream's name in the compound file

_MAX_CONTROL_SHARE = 0.01
_SEPARATOR_LINE = re.compile(r'\A"?sep=(.)"?[ \t]*(?:\r\n|\n|\r)', re.IGNORECASE)
"""Excel's first line naming a text file's delimiter ("sep=;"), which Excel reads and writes."""


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
    columns : dict of str to str
        How each column was read: one of :data:`COLUMN_READINGS` ("numbers", "percent",
        "dates", "true/false", "text"); empty for a table not read from a file.
    """

    frame: pd.DataFrame
    notes: list[str] = field(default_factory=list)
    delimiter: str | None = None
    numbers: NumberFormat = field(default_factory=NumberFormat)
    columns: dict[str, str] = field(default_factory=dict)

    def describe_reading(self) -> str:
        """One sentence on how the file was read, column by column, e.g. "Fields separated by
        semicolon; decimal comma (72,5), no thousands separator; numbers: 'age'; text: 'ward'."
        """
        fields = "" if self.delimiter is None else words.FIELDS_SEPARATED_BY.format(delimiter=DELIMITERS[self.delimiter])
        text = self.numbers.describe()
        groups = [
            words.COLUMN_READINGS[kind].format(columns=words.named_columns(names))
            for kind in COLUMN_READINGS if (names := [name for name, read in self.columns.items() if read == kind])
        ]
        return f"{fields}{text[0].upper() + text[1:] if not fields else text}{''.join(groups)}."


# ---------------------------------------------------------------------------------------------
# Reading files


def upload_limit_mb(value: str | None) -> int:
    """The upload size limit in MB from the value of ``PSL_MAX_UPLOAD_MB`` (None: the default).

    Raises
    ------
    DataError
        If the value is not a whole number from 1 to :data:`MAX_UPLOAD_LIMIT_MB`.
    """
    if value is None or not value.strip():
        return DEFAULT_MAX_UPLOAD_MB
    try:
        limit = int(value.strip())
    except ValueError:
        limit = 0
    if not 1 <= limit <= MAX_UPLOAD_LIMIT_MB:
        raise DataError(words.BAD_UPLOAD_LIMIT.format(value=value, max_upload_limit_mb=MAX_UPLOAD_LIMIT_MB))
    return limit


def _read_by_type(data, filename, delimiter, numbers, notes):
    """(frame, delimiter, number format) of a file read by the reader its extension selects: an
    Excel workbook, or a text file decoded and split with the given or detected delimiter and
    number format; a DataError for a blank text file or a type not read."""
    suffix = PurePath(filename).suffix.lower()
    if suffix in EXCEL_EXTENSIONS:
        return _read_excel(data, filename, notes), None, numbers
    if suffix in TEXT_EXTENSIONS:
        text = _decode(data, filename, notes)
        if not text.strip():
            raise DataError(words.BLANK_FILE.format(filename=filename))
        text, named = _separator_line(text, filename, notes)
        delimiter = delimiter or named or TEXT_EXTENSIONS[suffix] or detect_delimiter(text)
        if numbers is None:
            numbers = detect_number_format(sample_cells(text, delimiter))
        return _read_text_table(text, filename, delimiter, numbers, notes), delimiter, numbers
    if suffix in (".xls", ".ods", ".numbers"):
        raise DataError(words.SPREADSHEET_NOT_READ.format(filename=filename, suffix=suffix))
    raise DataError(words.UNSUPPORTED_FILE_TYPE.format(filename=filename, suffix=suffix or words.NO_EXTENSION))


def _separator_line(text: str, filename: str, notes: list[str]) -> tuple[str, str | None]:
    """``text`` without Excel's first line "sep=;" and the delimiter it names (a note says so);
    ``text`` and None without one. A line naming a delimiter the app does not read is refused."""
    match = _SEPARATOR_LINE.match(text)
    if match is None:
        return text, None
    if match[1] not in DELIMITERS:
        raise DataError(words.separator_line_unknown(filename, match[1]))
    notes.append(words.separator_line(filename, match[1]))
    return text[match.end():], match[1]


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
        raise DataError(words.EMPTY_FILE.format(filename=filename))
    if delimiter is not None and delimiter not in DELIMITERS:
        raise DataError(words.BAD_DELIMITER.format(delimiters=', '.join(map(repr, DELIMITERS)), delimiter=delimiter))
    notes: list[str] = []
    frame, delimiter, numbers = _read_by_type(data, filename, delimiter, numbers, notes)
    frame = tidy_table(frame, filename, notes)
    if numbers is None:
        numbers = detect_number_format(text_cells(frame))
    percent: list[str] = []
    frame = _infinite_as_missing(numbers_from_text(frame, numbers, notes, percent), notes)
    return LoadedTable(frame, notes, delimiter, numbers, _column_readings(frame, percent))


def _column_readings(frame: pd.DataFrame, percent: list[str]) -> dict[str, str]:
    """How each column of the read ``frame`` was read (:data:`COLUMN_READINGS`)."""
    readings = {}
    for name in frame.columns:
        series = frame[name]
        if str(name) in percent:
            readings[str(name)] = "percent"
        elif ptypes.is_datetime64_any_dtype(series):
            readings[str(name)] = "dates"
        elif ptypes.is_bool_dtype(series) or _true_or_false(series):
            readings[str(name)] = "true/false"
        elif ptypes.is_numeric_dtype(series) and not ptypes.is_bool_dtype(series):
            readings[str(name)] = "numbers"
        else:
            readings[str(name)] = "text"
    return readings


def _true_or_false(series: pd.Series) -> bool:
    """Whether a column of objects holds only true and false besides gaps (TRUE, FALSE and an
    empty cell: pandas reads the words as booleans and keeps the column of objects)."""
    present = series.dropna()
    return series.dtype == object and len(present) > 0 and all(isinstance(value, (bool, np.bool_)) for value in present)


def _infinite_as_missing(frame: pd.DataFrame, notes: list[str]) -> pd.DataFrame:
    """Numbers no float holds ("1e309", "-1e400"), "inf", and numbers beyond what a model
    file holds (:func:`psl_core.serialization.max_number`: a threshold between 1.7e308 and
    1.79e308 could be learned but not saved) are missing here, each column named in a note
    (no answer at the bedside is that large)."""
    bound = max_number()
    infinite = {name: ~(np.abs(frame[name]) < bound) & frame[name].notna() for name in frame.columns
                if ptypes.is_float_dtype(frame[name]) and (np.abs(frame[name]) >= bound).any()}
    for name, rows in infinite.items():
        notes.append(words.too_large_numbers(str(name), int(rows.sum())))
    return frame.assign(**{str(name): frame[name].mask(rows) for name, rows in infinite.items()}) if infinite else frame


def check_upload_size(data: bytes, filename: str, max_bytes: int | None) -> None:
    """Refuse an upload larger than ``max_bytes`` (None: no limit) with a message saying what to do."""
    if max_bytes is not None and len(data) > max_bytes:
        raise DataError(words.file_too_large(filename, len(data), max_bytes))


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
        raise DataError(words.NOT_AN_XLSX.format(filename=filename))
    if directory > MAX_EXCEL_PARTS * _MAX_DIRECTORY_ENTRY:
        raise DataError(words.TOO_MANY_PARTS.format(filename=filename))
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if len(archive.filelist) > MAX_EXCEL_PARTS:
                raise DataError(words.TOO_MANY_PARTS_COUNTED.format(filename=filename, n_parts=len(archive.filelist)))
            unpacked = sum(info.file_size for info in archive.filelist)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        raise DataError(words.NOT_AN_XLSX.format(filename=filename)) from exc
    if unpacked > max_unpacked_mb * 2**20:
        raise DataError(words.unpacks_too_large(filename, unpacked, max_unpacked_mb))


def _zip_directory_size(data: bytes) -> int | None:
    """Bytes of a zip archive's central directory, from its end record; None if there is none.

    Checked before :mod:`zipfile` reads the directory into memory (one object per part). A
    Zip64 archive (parts or archives over 4 GB, never an uploaded workbook) counts as none.
    """
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557))
    if end < 0 or len(data) < end + 22 or data.rfind(b"PK\x06\x07", max(0, end - 20), end) >= 0:
        return None
    return int.from_bytes(data[end + 12:end + 16], "little")


def _decode(data: bytes, filename: str, notes: list[str]) -> str:
    """Text of a file: UTF-8 (BOM optional), UTF-32 or UTF-16 with BOM, UTF-16 without one (mostly
    ASCII text), else Windows-1252 / Latin-1."""
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):  # before UTF-16: FF FE 00 00 starts both
        try:
            return data.decode("utf-32")
        except UnicodeDecodeError as exc:
            raise DataError(words.NOT_UTF32.format(filename=filename)) from exc
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise DataError(words.NOT_UTF16.format(filename=filename)) from exc
    if data.startswith(_ZIP_MAGIC):
        raise DataError(words.ZIP_NOT_TEXT.format(filename=filename))
    if data.startswith(_OLE_MAGIC):
        _refuse_office_container(data, filename)
    text = _utf16_without_mark(data, filename, notes) if b"\x00" in data else None
    if b"\x00" in data and text is None:
        _refuse_nul_bytes(data, filename)
    try:
        text = text or data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = _decode_lines(data.removeprefix(codecs.BOM_UTF8), filename, notes)
    controls = sum(
        1 for ch in text if unicodedata.category(ch) == "Cc" and ch not in "\t\n\r"
    )
    if controls > _MAX_CONTROL_SHARE * len(text):
        raise DataError(words.NOT_READABLE_TEXT.format(filename=filename))
    return text


def _refuse_office_container(data: bytes, filename: str) -> None:
    """Refuse an Office compound file: a workbook encrypted with a password (Excel keeps the
    encrypted workbook in a stream named "EncryptedPackage") is named as such; anything else
    is an old Office file (.xls, .doc)."""
    if _ENCRYPTED_PACKAGE in data:
        raise DataError(words.ENCRYPTED_WORKBOOK.format(filename=filename))
    raise DataError(words.OLD_OFFICE_FILE.format(filename=filename))


def _refuse_nul_bytes(data: bytes, filename: str) -> None:
    """Refuse a file with zero (NUL) bytes that is not UTF-16: binary when the rest is not
    text either, else a text table damaged where they are, named by line and field so it can
    be mended."""
    rest = data.replace(b"\x00", b"").decode("latin-1")
    if sum(unicodedata.category(ch) == "Cc" and ch not in "\t\n\r" for ch in rest) > _MAX_CONTROL_SHARE * len(rest):
        raise DataError(words.BINARY_FILE.format(filename=filename))
    n_nul = data.count(b"\x00")
    first = data.index(b"\x00")
    line_start = data.rfind(b"\n", 0, first) + 1
    line = data.count(b"\n", 0, first) + 1
    before = data[line_start:first]
    field = 1 + max(before.count(bytes([byte])) for byte in b",;\t|")
    raise DataError(words.nul_bytes(filename, n_nul, line, field))


def _decode_lines(data: bytes, filename: str, notes: list[str]) -> str:
    """Text of a file that is not UTF-8 as a whole: what is UTF-8 as UTF-8, every other byte as
    Windows-1252 (Latin-1 for the five bytes it lacks). A table pasted together from a UTF-8
    export and a Windows one then reads "Zürich" in both parts, not "ZÃ¼rich" in one, even
    within one line (a cell copied from each); the note says how many lines were read how."""
    parts, n_utf8, legacy_lines = [], 0, []
    for line in data.splitlines(keepends=True):
        text = line.decode("utf-8", errors=_LEGACY_BYTES)
        parts.append(text)
        legacy = text != line.decode("utf-8", errors="replace")
        if legacy:
            legacy_lines.append(line)
        n_utf8 += not line.isascii() and not (legacy and _all_legacy(line))
    refuse_east_asian(b"".join(legacy_lines)[:_ENCODING_SAMPLE_BYTES], filename)
    n_legacy = len(legacy_lines)
    encodings = {"Windows-1252"} | ({"Latin-1"} if any(byte in _LATIN1_ONLY for byte in data) else set())
    encoding = " and ".join(sorted(encodings))
    if n_utf8:
        notes.append(words.mixed_encodings(filename, n_utf8, n_legacy, encoding))
    else:
        notes.append(words.READ_AS_LEGACY_ENCODING.format(filename=filename, encoding=encoding))
    return "".join(parts)


_ENCODING_SAMPLE_BYTES = 200_000
"""Bytes of a file's lines that are not UTF-8 whose encoding is guessed (a guess over a whole
50 MB file takes tens of seconds; a sample of its lines names the encoding as well)."""


_LATIN1_ONLY = frozenset(b"\x81\x8d\x8f\x90\x9d")
"""The five bytes Windows-1252 leaves undefined: read as Latin-1 (control characters)."""


def _legacy_byte(byte: int) -> str:
    return bytes([byte]).decode("latin-1" if byte in _LATIN1_ONLY else "cp1252")


def _legacy_bytes(error: UnicodeDecodeError) -> tuple[str, int]:
    """Decoding error handler: the bytes that are not UTF-8 read as Windows-1252."""
    return "".join(_legacy_byte(byte) for byte in error.object[error.start:error.end]), error.end


_LEGACY_BYTES = "psl-triage-windows-1252"
codecs.register_error(_LEGACY_BYTES, _legacy_bytes)


def _all_legacy(line: bytes) -> bool:
    """Whether no byte beyond ASCII of ``line`` is part of a UTF-8 character."""
    return line.decode("utf-8", errors="replace").count("\ufffd") == sum(byte > 127 for byte in line)


def _utf16_without_mark(data: bytes, filename: str, notes: list[str]) -> str | None:
    """The text of UTF-16 written without a byte-order mark (some Windows exports), told by
    the zero byte of nearly every ASCII character; None for anything else. Such text of an odd
    number of bytes is refused as cut off (its zero bytes are no damage to locate)."""
    even = data[: len(data) // 2 * 2]
    for encoding, high_bytes, low_bytes in (("utf-16-le", even[1::2], even[0::2]), ("utf-16-be", even[0::2], even[1::2])):
        if high_bytes.count(0) >= 0.9 * len(high_bytes):
            if len(data) % 2 and low_bytes.count(0) < 0.5 * len(low_bytes):  # UTF-16 holds two bytes a character: the file was cut off or damaged
                raise DataError(words.UTF16_ODD_LENGTH.format(filename=filename, encoding=encoding.upper()))
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError:
                return None
            notes.append(words.UTF16_WITHOUT_MARK.format(filename=filename, encoding=encoding.upper()))
            return text
    return None


def _read_text_table(text: str, filename: str, delimiter: str, numbers: NumberFormat, notes: list[str]) -> pd.DataFrame:
    text = text.lstrip("\r\n")
    try:
        # Read as pandas reads it below (skipinitialspace): `a, "a"` is two columns named a.
        stream = io.StringIO(text, newline="")
        reader = csv.reader(stream, delimiter=delimiter, skipinitialspace=True)
        top = list(itertools.islice(reader, TITLE_ROWS_SEEN))
        skipped = title_rows(top)
        if skipped:  # a title above the header: the table starts at the header
            stream.seek(0)
            reader = csv.reader(stream, delimiter=delimiter, skipinitialspace=True)
            title = [next(reader) for _ in range(skipped)]
            text = text[stream.tell():]
            notes.append(words.title_skipped(filename, next(cell for cell in title[0] if cell.strip()), skipped))
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):  # the csv module's words for a name too long to read
            raise DataError(words.header_field_too_long(filename, csv.field_size_limit())) from exc
        raise DataError(words.NO_READABLE_HEADER.format(filename=filename, exc=exc)) from exc
    check_header(top[skipped] if top else [], filename)
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
        raise DataError(words.INCONSISTENT_TABLE.format(filename=filename, exc=exc)) from exc
    except Exception as exc:  # the parser meets arbitrary user bytes; any failure is bad data
        raise DataError(words.NOT_A_TABLE.format(filename=filename, exc=exc)) from exc


def _read_excel(data: bytes, filename: str, notes: list[str]) -> pd.DataFrame:
    """The first visible worksheet of an .xlsx workbook, read by python-calamine (Rust; about 15
    times as fast as openpyxl on a 50,000-row sheet) after :func:`check_excel_archive` has
    bounded what it unpacks to. The one place a workbook is opened, and its sheet is parsed
    once: the header row, the merged cells and the table all come from that one parse. Hidden
    sheets, chart sheets and empty sheets (a cover sheet) before it are named in a note, and so
    are formulas saved without their values (read as empty) and merged cells below the header;
    a workbook without a visible worksheet that holds a cell, or whose header row has merged
    cells, is refused with the reason, and a parser's failure names the sheet it was reading."""
    if data.startswith(_OLE_MAGIC):
        _refuse_office_container(data, filename)
    check_excel_archive(data, filename)
    sheet = None  # the sheet being read, named in a parser's failure as pandas' reader names it
    try:
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(data))
        sheets = workbook.sheets_metadata  # every sheet, charts too, in the workbook's order
        index, cells, xml, empty = _first_sheet_with_cells(workbook, sheets, data, filename)
        if index is not None:
            sheet = sheets[index].name
            rows = _sheet_rows(cells)
            skipped = title_rows(rows[:TITLE_ROWS_SEEN])
            if skipped:
                notes.append(words.title_skipped(filename, next(c for c in rows[0] if str(c).strip()), skipped))
                rows = rows[skipped:]
            header = _table_from_rows(rows[:1], header=None)
            frame = _table_from_rows(rows, header=0, na_values=EXTRA_MISSING_MARKERS)
            unvalued = _formulas_without_values(xml)
    except DataError:
        raise
    except Exception as exc:  # the reader meets arbitrary user bytes; any failure is bad data
        raise DataError(words.workbook_not_read(filename, sheet, exc)) from exc
    if index is None:
        raise DataError(words.no_visible_worksheet(filename, [(s.name, _sheet_kind(s, empty)) for s in sheets]))
    skipped = [(s.name, _sheet_kind(s, empty)) for s in sheets[:index]]
    if skipped:
        notes.append(words.sheets_skipped(filename, skipped, sheet))
    elif len(sheets) > 1:
        notes.append(words.FIRST_SHEET_READ.format(filename=filename, n_sheets=len(sheets), sheet=sheet))
    _check_merged_cells(cells, filename, sheet, notes)
    if unvalued and frame.dropna(how="all").empty:  # not "no data rows": rows of formulas without values
        raise DataError(words.only_formulas_without_values(filename, sheet, unvalued))
    if unvalued:
        notes.append(words.formulas_without_values(filename, sheet, unvalued))
    errors = _error_values(xml)
    if errors:
        notes.append(words.error_values_missing(filename, sheet, errors))
    check_header([] if header.empty else list(header.iloc[0]), filename)
    return frame


def _sheet_rows(sheet) -> list[list[object]]:
    """A parsed worksheet's cells, row by row from its first row and column (an empty cell is
    ""), typed as pandas' Excel reader types them: a whole number as an int, a date as a
    datetime at midnight; everything else as calamine gives it (inline: a call per cell would
    cost more than the parse)."""
    return [
        [int(cell) if type(cell) is float and cell.is_integer()
         else datetime(cell.year, cell.month, cell.day) if type(cell) is date else cell for cell in row]
        for row in sheet.to_python(skip_empty_area=False)
    ]


def _table_from_rows(rows: list[list[object]], **options) -> pd.DataFrame:
    """A table from a sheet's typed rows by the parser ``pd.read_excel`` hands them to, with its
    settings (blank rows kept as rows) and ``options``; empty for no rows."""
    try:
        return TextParser(rows, skip_blank_lines=False, **options).read() if rows else pd.DataFrame()
    except EmptyDataError:
        return pd.DataFrame()


def _first_sheet_with_cells(book, sheets, data, filename):
    """(position, cells, XML) of the first visible worksheet that holds a cell (None, None, b""
    when none does), and the names of the visible worksheets before it that hold none. A sheet whose cells
    reach farther than :data:`MAX_SHEET_AREA` cells from A1 is refused before it is parsed; one
    the parser fails on is refused with its name."""
    empty = set()
    for index, sheet in enumerate(sheets):
        if sheet.typ == SheetTypeEnum.WorkSheet and sheet.visible == SheetVisibleEnum.Visible:
            xml = _sheet_xml(data, index)
            if _cell_area(xml) > MAX_SHEET_AREA:
                raise DataError(words.sheet_too_far(filename, sheet.name, MAX_SHEET_AREA))
            try:
                cells = book.get_sheet_by_name(sheet.name)  # the sheet's cells are parsed here
            except Exception as exc:  # a fault in the sheet: named, as pandas' reader named it
                raise DataError(words.workbook_not_read(filename, sheet.name, exc)) from exc
            if cells.height and cells.width:
                return index, cells, xml, empty
            empty.add(sheet.name)
    return None, None, b"", empty


def _sheet_kind(sheet, empty=()) -> str:
    """"hidden", "chart", "empty" or "other" (a dialog or macro sheet) for a sheet that is not read."""
    if sheet.typ == SheetTypeEnum.ChartSheet:
        return "chart"
    if sheet.visible != SheetVisibleEnum.Visible:
        return "hidden"
    return "empty" if sheet.name in empty else "other"


def _check_merged_cells(sheet, filename: str, name: str, notes: list[str]) -> None:
    """Refuse merged cells in the header row (one name over two columns, or a header written
    over two rows: no reading names every column right); name merged cells below it, whose
    value only the first cell holds (the others are read as empty)."""
    top = sheet.start[0] if sheet.start else 0
    header, below = [], []
    for (row, column), (last_row, last_column) in sheet.merged_cell_ranges or ():
        cells = f"{_cell_name(row, column)}:{_cell_name(last_row, last_column)}"
        (header if row <= top <= last_row else below).append(cells)
    if header:
        raise DataError(words.merged_header(filename, name, sorted(header)))
    if below:
        notes.append(words.merged_cells(filename, name, sorted(below)))


def _cell_name(row: int, column: int) -> str:
    """The spreadsheet's name of a cell from its 0-based row and column: (0, 27) -> "AB1"."""
    letters = ""
    column += 1
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"{letters}{row + 1}"


_SHEET_TAG = re.compile(rb"<(?:\w+:)?sheet\b[^>]*?\br:id=\"([^\"]+)\"")
_RELATION_TAG = re.compile(rb"<Relationship\b[^>]*>")
_CELL = re.compile(rb"<(?:\w+:)?c\b[^>]*?(?<!/)>(.*?)</(?:\w+:)?c>", re.DOTALL)
_VALUE = re.compile(rb"<(?:\w+:)?v>[^<]")
_ERROR_CELL = re.compile(rb'<(?:\w+:)?c\b[^>]*?\bt="e"[^>]*?(?<!/)>.*?<(?:\w+:)?v>([^<]*)<', re.DOTALL)
_LONG_COLUMN = re.compile(rb' r="[A-Za-z]{2}')  # a cell in column AA or beyond
_LONGEST_COLUMN = re.compile(rb' r="[A-Za-z]{3}')  # in column AAA or beyond
_ROW_NUMBER = re.compile(rb' r="([0-9]{1,9})"')  # only a row's r is digits alone; a cell's starts with letters


def _sheet_xml(data: bytes, index: int) -> bytes:
    """The XML of the ``index``-th sheet of a workbook (b"" when the workbook does not name its
    part). The archive was bounded by :func:`check_excel_archive`."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        ids = _SHEET_TAG.findall(archive.read("xl/workbook.xml"))
        relations = {}
        for tag in _RELATION_TAG.findall(archive.read("xl/_rels/workbook.xml.rels")):
            found = dict(re.findall(rb'(\w+)="([^"]*)"', tag))
            relations[found.get(b"Id")] = found.get(b"Target", b"").decode()
        target = relations.get(ids[index]) if index < len(ids) else None
        if not target:
            return b""
        return archive.read(target.lstrip("/") if target.startswith("/") else f"xl/{target}")


def _cell_area(sheet: bytes) -> int:
    """Cells from A1 to the last row and column a sheet's XML names: the area a reader lays out,
    whatever the sheet's ``<dimension>`` claims. Quick on a table of a few columns (a 50,000-row
    sheet: 0.1 s): the columns are read one by one only when their letters could matter."""
    rows = max((int(row) for row in _ROW_NUMBER.findall(sheet)), default=0)
    letters = 0 if not rows else 1 if not _LONG_COLUMN.search(sheet) else 3 if _LONGEST_COLUMN.search(sheet) else 2
    if rows * 26 ** letters <= MAX_SHEET_AREA:  # even the last column of that many letters fits
        return rows * 26 ** letters
    columns = set(re.findall(rb' r="([A-Za-z]{%d})[0-9]' % letters, sheet))
    return rows * max(_column_number(text) for text in columns)


def _column_number(letters: bytes) -> int:
    number = 0
    for letter in letters.upper():
        number = number * 26 + letter - ord("A") + 1
    return number


def _error_values(sheet: bytes) -> list[str]:
    """The error values (``#DIV/0!``, ``#N/A``) of a sheet's cells (its XML), which every reader
    takes for empty cells."""
    if b't="e"' not in sheet:  # no error anywhere: skip the scan (most sheets)
        return []
    return [value.decode("utf-8", "replace") for value in _ERROR_CELL.findall(sheet)]


def _formulas_without_values(sheet: bytes) -> int:
    """Cells of a sheet (its XML) holding a formula without a saved value: a workbook written by
    a program that does not compute formulas (a script with openpyxl, an export) has none, and
    every reader then sees the cell empty."""
    if b"<f" not in sheet:  # no formula anywhere: skip the scan of every cell (most exports)
        return 0
    return sum(1 for body in _CELL.findall(sheet) if b"<f" in body and not _VALUE.search(body))
