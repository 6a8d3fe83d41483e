"""The words of reading a table: what is wrong with a file, and the notes on how it was read.

The messages of :mod:`psl_triage.data.reading`, :mod:`psl_triage.data.header` and
:mod:`psl_triage.data.sniffing`. A file or column name (``filename``, ``name``) is plain text
here, quoted with ``repr`` where the message shows it; the page shows these messages with
:func:`psl_triage.words.md`.
"""

from psl_triage.words.common import counted, plural

DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "vertical bar"}
DECIMAL_MARK_NAMES = {".": "point (72.5)", ",": "comma (72,5)"}
THOUSANDS_SEPARATOR_NAMES = {
    "": "none", ",": "comma (1,234)", ".": "point (1.234)", " ": "space (1 234)", "'": "apostrophe (1'234)",
}
"""How the page names the delimiters, decimal marks and thousands separators a file may use."""


def megabytes(n_bytes):
    """A size in megabytes: "12.3 MB"."""
    return f"{n_bytes / 2**20:.1f} MB"


# --- reading a file (psl_triage.data.reading) ----------------------------------------------------
FIELDS_SEPARATED_BY = "Fields separated by {delimiter}; "
BAD_UPLOAD_LIMIT = "PSL_MAX_UPLOAD_MB must be a whole number of megabytes from 1 to {max_upload_limit_mb:,}, got {value!r}."
UPLOAD_LIMIT_DEFAULT_USED = "{problem} The default of {default_max_upload_mb} MB is used."
DEMO_MISSING = "The bundled demo data is missing: {path} not found."
BAD_DELIMITER = "The delimiter must be one of {delimiters}, got {delimiter!r}."
UNSUPPORTED_FILE_TYPE = "{filename}: unsupported file type {suffix}. Upload a CSV (.csv), tab-separated (.tsv, .txt) or Excel (.xlsx) file."
NO_EXTENSION = "(no extension)"
EMPTY_FILE = "{filename} is empty (0 bytes)."
BLANK_FILE = "{filename} contains only blank space, no table."
SPREADSHEET_NOT_READ = "{filename}: {suffix} files cannot be read. Save the sheet as .xlsx or CSV and upload that."
NOT_AN_XLSX = "{filename} is not a valid Excel (.xlsx) workbook."
TOO_MANY_PARTS = "{filename} holds too many parts for an Excel workbook (it has a few dozen)."
TOO_MANY_PARTS_COUNTED = "{filename} holds {n_parts:,} parts, not an Excel workbook's few dozen."
NOT_UTF32 = "{filename} starts like UTF-32 text but is not valid UTF-32."
NOT_UTF16 = "{filename} starts like UTF-16 text but is not valid UTF-16."
ZIP_NOT_TEXT = "{filename} is a zip archive or an Excel workbook, not a text table. If it is an Excel file, give it the .xlsx extension; otherwise unzip it first."
ENCRYPTED_WORKBOOK = "{filename} is an Excel workbook protected by a password (encrypted), which the app cannot open. Open it in Excel, remove the password (File > Info > Protect Workbook > Encrypt with Password, then clear it) and save it, or save the sheet as CSV, and upload that."
OLD_OFFICE_FILE = "{filename} is an old Office file (.xls?), not text. Save it as .xlsx or CSV."
BINARY_FILE = "{filename} is a binary file, not a text table (CSV or TSV)."
READ_AS_LEGACY_ENCODING = "{filename} is not UTF-8 text; it was read as {encoding}. Check that accented characters look right in the preview."
NOT_READABLE_TEXT = ("{filename} does not hold readable text in UTF-8, UTF-16 or Windows-1252, the encodings the "
                     "app reads: it is in another encoding (an old Mac or DOS one, EBCDIC) or not a table. If it "
                     "is a table, save it as \"CSV UTF-8\" (Excel: Save As, CSV UTF-8) and upload that.")
UTF16_ODD_LENGTH = "{filename} looks like {encoding} text without a byte-order mark, but it has an odd number of bytes (UTF-16 writes two a character): it was cut off or damaged. Export the table again, preferably as UTF-8 CSV, and upload it again."
UTF16_WITHOUT_MARK = "{filename} is UTF-16 text without a byte-order mark; it was read as {encoding}. Check that the preview looks right."
def east_asian_encoding(filename, encoding=None):
    """A text file in a Chinese, Japanese or Korean encoding (named as Python names it, where known)."""
    named = (f"{encoding.upper().replace('_', '-')} (a Chinese, Japanese or Korean encoding)" if encoding
             else "a Chinese, Japanese or Korean encoding")
    return (f"{filename} is written in {named}: the app reads UTF-8, UTF-16 or Windows-1252 text, in which its names would show as "
            "nonsense. Save it as \"CSV UTF-8\" (Excel: Save As, CSV UTF-8) and upload that.")


def header_field_too_long(filename, limit):
    """A header row one of whose fields is too long for the reader (a whole file on one line)."""
    return (f"{filename}: a field of the header row is longer than {limit:,} characters, so the header cannot be "
            "read (a file whose rows are not separated by line breaks, or a quote left open, reads so). Check that "
            "each row is on a line of its own and every quote is closed, and upload it again.")


def title_skipped(filename, title, rows):
    """The note on a title above the header: the rows above it skipped."""
    return (f"{filename}: the first row holds only {str(title)[:80]!r}, a title above the table; the "
            f"{plural(rows, 'row')} above the header {'was' if rows == 1 else 'were'} skipped, and the table "
            f"read from row {rows + 1}.")


def separator_line(filename, mark):
    """The note on Excel's first line "sep=;", which named the delimiter the file was read with."""
    return (f"{filename} starts with the line \"sep={mark}\", which names its delimiter "
            f"({DELIMITER_NAMES[mark]}): the file was read with it, and that line is not a row.")


def separator_line_unknown(filename, mark):
    return (f"{filename} starts with the line {('sep=' + mark)!r}, which names a delimiter the app does not read. "
            "Save the table with a comma, semicolon, tab or vertical bar between fields (CSV), and upload it again.")


NO_READABLE_HEADER = "{filename} has no readable header row: {exc}"
INCONSISTENT_TABLE = "{filename} is not a consistent table: {exc}. Every row needs the same number of fields as the header; check the delimiter."
NOT_A_TABLE = "{filename} could not be read as a table: {exc}"
FIRST_SHEET_READ = "{filename} has {n_sheets} sheets; the first, {sheet!r}, was read."


_SHEET_KINDS = {"hidden": "hidden", "chart": "a chart", "empty": "empty", "other": "not a table"}


def _sheets(sheets):
    return ", ".join(f"{str(name)!r} ({_SHEET_KINDS[kind]})" for name, kind in sheets)


def sheets_skipped(filename, skipped, sheet):
    """The sheets before the first visible worksheet with cells of a workbook (hidden, charts,
    empty), skipped."""
    return (f"{filename}: the first visible sheet of cells, {sheet!r}, was read; "
            f"{counted(len(skipped), 'sheet', 'before it was', 'before it were')} skipped: {_sheets(skipped)}.")


def workbook_not_read(filename, sheet, exc):
    """A workbook the reader could not parse, with the reader's reason; ``sheet``: the sheet it
    was reading then (None: the workbook itself, before any sheet)."""
    where = "" if sheet is None else f" (sheet: {str(sheet)!r})"
    return (f"{filename} is not a valid Excel (.xlsx) workbook ({exc}){where}. "
            "Open it in Excel and save it again as .xlsx, or save it as CSV.")


def no_visible_worksheet(filename, sheets):
    """A workbook whose every sheet of cells is hidden or empty (or that holds charts only)."""
    return (f"{filename} has no visible sheet of cells to read as the table (its sheets: {_sheets(sheets)}). "
            "Show the sheet that holds the table (right-click a sheet tab > Unhide) and save the workbook, "
            "or save that sheet as CSV, and upload it again.")


def merged_header(filename, sheet, cells):
    """Merged cells in a worksheet's header row."""
    return (f"{filename}: the header row of {sheet!r} has merged cells ({', '.join(cells)}), so not every column "
            "has a name of its own (or the header spans two rows). Unmerge them and give each column its own "
            "name in one header row, then upload the file again.")


def merged_cells(filename, sheet, cells):
    """Merged cells below a worksheet's header: only the first cell of each holds the value."""
    return (f"{filename}: in {sheet!r}, {counted(len(cells), 'range', 'of cells is', 'of cells are')} merged "
            f"({', '.join(cells[:10])}{', ...' if len(cells) > 10 else ''}); only the first cell of each holds "
            "its value, the others are read as empty. Unmerge them and fill each cell in the file if they "
            "belong to every row.")


def formulas_without_values(filename, sheet, count):
    """Formula cells of the sheet read that were saved without their values."""
    return (f"{filename}: in {sheet!r}, {counted(count, 'cell', 'holds', 'hold')} a formula saved "
            "without its value (written by a program that does not compute formulas), read as empty. Open the "
            "workbook in Excel or LibreOffice, save it, and upload it again to read the values.")


def error_values_missing(filename, sheet, errors):
    """Cells of the sheet read that hold an error value of a formula (``#DIV/0!``), read as missing."""
    examples = ", ".join(repr(error) for error in list(dict.fromkeys(errors))[:3])
    return (f"{filename}: in {sheet!r}, {counted(len(errors), 'cell', 'holds', 'hold')} an error value of a "
            f"formula ({examples}), read as missing. Correct those formulas in the workbook if the cells should "
            "hold values.")


def only_formulas_without_values(filename, sheet, count):
    """A sheet whose every value below the header is a formula saved without its value."""
    return (f"{filename}: in {sheet!r}, every value below the header is a formula saved without its value "
            f"({plural(count, 'cell')}, written by a program that does not "
            "compute formulas), so the table has no values to read. Open the workbook in Excel or LibreOffice, "
            "save it, and upload it again.")


def mixed_encodings(filename, n_utf8, n_legacy, encoding):
    """A text file written in two encodings, each character read in the one it was written in."""
    return (f"{filename} mixes two encodings: {plural(n_utf8, 'line')} with accented characters in UTF-8, "
            f"{plural(n_legacy, 'line')} in {encoding}; each character was read in the encoding it was written "
            "in. Check that accented characters look right in the preview, and save the file as UTF-8 to be sure.")


def nul_bytes(filename, count, line, field):
    """A text table holding zero (NUL) bytes, the first at ``line`` and ``field``."""
    return (f"{filename} holds {plural(count, 'zero (NUL) byte')}, which no text table has; the first is on "
            f"line {line}, in field {field}. Remove them (or export the table again) and upload it again.")


def too_large_numbers(name, count):
    """A column's numbers beyond a float, read as missing."""
    return (f"{name!r} holds {plural(count, 'number')} too large for a saved list to hold (1e300 or more, "
            "such as 1.7e308, 1e309 or inf), read as missing. Correct them in the file if they are typos.")


def file_too_large(filename, n_data, max_bytes):
    """An upload over the size limit (``n_data`` and ``max_bytes`` in bytes)."""
    return f"{filename} is {megabytes(n_data)}; the limit is {megabytes(max_bytes)}. Upload a smaller file, or ask whoever runs the app to raise PSL_MAX_UPLOAD_MB."


def unpacks_too_large(filename, unpacked, max_unpacked_mb):
    """An Excel file whose unpacked parts exceed the limit (``unpacked`` in bytes)."""
    return f"{filename} unpacks to {megabytes(unpacked)} (Excel files are zip archives of XML); the limit is {max_unpacked_mb} MB. Save the sheet as CSV and upload that, or remove unused sheets, rows and formatting first."


# --- its header and names (psl_triage.data.header) ------------------------------------------------
TOO_MANY_COLUMNS = "{filename} has {n_columns:,} columns; the app reads tables of at most {max_columns:,} columns. Keep the outcome and the columns a clinician could be asked about (a list asks a handful of questions) and upload that table."
DUPLICATE_COLUMNS = "{filename} has duplicate column names: {names}. Give every column a unique name and upload again."
EMPTY_HEADER = "{filename} has no header row with column names (the first row is empty)."
LOOKALIKE_COLUMNS = "{filename} has column names that look the same when shown: {first!r} and {second!r} (they differ only in invisible, direction or look-alike characters, or spacing). Rename one of them and upload again."
NO_COLUMNS = "no columns"
ONLY_THE_COLUMN = "only the column {columns!r}"
NOT_LIKE_A_TABLE = "{filename} does not look like a table: found {found}. A table needs a header row and at least two columns (an outcome and a feature), separated by commas, semicolons or tabs."
NO_DATA_ROWS = "{filename} has column names but no data rows."
INVISIBLE_COLUMN_NAME = "{filename}: the column {name!r} has no visible character in its name (only spaces, invisible or direction-control characters); it would be a question without a name. Give it a name and upload again."
LOOKALIKE_VALUES = "{filename}: the column {name!r} has values that look the same when shown: {first!r} and {second!r}. Make them one value (or clearly different ones) and upload again."
UNSHOWABLE_NAME = "{filename}: the column name {name!r} holds {character}, which cannot be shown. Rename the column and upload again."


def dropped_empty(count, kind):
    """The note on empty rows or columns dropped: ``kind`` "rows", "unnamed" (columns without
    a name) or "invisible" (columns whose names show nothing)."""
    noun, why = {
        "rows": ("empty row", ""),
        "unnamed": ("empty column", " without a name"),
        "invisible": ("empty column", " without a visible name"),
    }[kind]
    return f"Dropped {plural(count, noun)}{why}."


def removed_invisible_from_names(n_renamed, renamed):
    """The note on column names cleaned of invisible characters (the first five named)."""
    return f"Removed invisible or direction-control characters from the column {'name' if n_renamed == 1 else 'names'} {', '.join(repr(old) for old in list(renamed)[:5])}."


def removed_invisible_from_values(n_changed, name, example):
    """The note on a column's values cleaned of invisible characters."""
    return f"Removed invisible or direction-control characters from {plural(n_changed, 'value')} of the column {name!r}, e.g. {example!r}."


def trimmed_spaces(n_values, n_columns, name, example):
    """The one note on values read with spaces around them ("No "), trimmed in the whole table."""
    return f"Removed the spaces around {plural(n_values, 'value')} in {plural(n_columns, 'column')}, e.g. {example!r} of the column {name!r}."


def unshowable_value(filename, name, character, row):
    """A value holding a character that cannot be shown (``row`` counts from 0)."""
    return f"{filename}: the column {name!r} holds {character} in row {row + 1} (a character that cannot be shown). Remove it and upload again."


def unstorable_names(filename, n_bad, shown, storable_rule):
    """Column names a saved list cannot keep (``shown`` already listed)."""
    return f"{filename}: the column {'name' if n_bad == 1 else 'names'} {shown} cannot be kept in a saved list ({storable_rule}). Rename {'it' if n_bad == 1 else 'them'} and upload again."


# --- number formats (psl_triage.data.sniffing) ----------------------------------------------------
BAD_DECIMAL_MARK = "The decimal mark must be '.' or ',', got {decimal!r}."
BAD_THOUSANDS_SEPARATOR = "The thousands separator must be one of {separators}, got {thousands!r}."
SAME_DECIMAL_AND_THOUSANDS = "The decimal mark and the thousands separator cannot both be {decimal!r}."
NO_THOUSANDS_SEPARATOR = "no thousands separator"
THOUSANDS_SEPARATED_BY = "thousands separated by {thousands}"
DECIMAL_AND_THOUSANDS = "decimal {decimal}, {thousands}"
COLUMN_READINGS = {
    "numbers": "; numbers: {columns}",
    "percent": "; percentages (the % sign dropped): {columns}",
    "dates": "; dates: {columns}",
    "true/false": "; true or false: {columns}",
    "text": "; text, kept as written: {columns}",
}
_NAMED_AT_MOST = 6


def named_columns(names):
    """The columns of one reading in the "Read as" sentence: "'a', 'b'" or "'a', ... and 12 more"."""
    shown = ", ".join(repr(str(name)) for name in names[:_NAMED_AT_MOST])
    return shown if len(names) <= _NAMED_AT_MOST else f"{shown} and {len(names) - _NAMED_AT_MOST} more"
OTHER_SCRIPT_DIGITS = "{label} is written with digits of another script (e.g. {example!r}); they are read as the numbers they are."
PERCENT_SIGNS = "{label} is written with percent signs; its values are percentages."
PERCENTS_BESIDE_FRACTIONS = "{label} writes some values as percentages ({percent!r}) and others as fractions of 1 ({fraction!r}): it is not read as numbers, since no reading fits both. Write every value one way (all with % or all as fractions) in the file and upload it again."


def not_numbers_read_as_missing(label, n_strays, examples):
    """The note on a numeric column's stray texts, read as missing."""
    return f"{label} holds numbers, but {n_strays} {'entry' if n_strays == 1 else 'entries'} {'is' if n_strays == 1 else 'are'} not a number (e.g. {examples}) and read as missing. Correct them in the file if they are typos."


def numbers_beside_texts(label, n_numbers, n_entries, examples):
    """A column of numbers kept as text because too many of its entries are texts."""
    return (f"{label} holds numbers in {n_numbers} of its {n_entries} entries, but the others are texts (e.g. "
            f"{examples}), so it is read as text, not as numbers. If those texts mean a missing value, leave "
            "those cells empty (or write NA) in the file and upload it again.")


def sheet_too_far(filename, sheet, limit):
    """A sheet whose cells reach far beyond any table the app reads."""
    return (f"{filename}: the sheet {sheet!r} has cells far beyond any table the app reads (from A1 to its last "
            f"row and column, more than {limit:,} places). Delete the rows and columns beyond the table (a stray "
            "cell far below or to the right of it) and save the workbook, or save the sheet as CSV, and upload "
            "it again.")
