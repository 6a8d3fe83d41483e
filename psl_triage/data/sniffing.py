"""Sniffing a text table: its delimiter and its number format (decimal mark, thousands
separator), and reading numbers written that way (missing markers, other scripts' digits)."""

from __future__ import annotations

import csv
import io
import re
import sys
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from psl_core.errors import DataError
from psl_triage.words import reading as words

DELIMITERS = words.DELIMITER_NAMES
"""The field delimiters a text table may use, with their names."""

DECIMAL_MARKS = words.DECIMAL_MARK_NAMES
"""The decimal marks a file may use, with how the page names them."""

THOUSANDS_SEPARATORS = words.THOUSANDS_SEPARATOR_NAMES
"""The thousands separators a file may use ("" for none), with how the page names them."""

NUMBER_MISSING_MARKERS = frozenset({
    "", "na", "n/a", "n.a.", "nan", "null", "none", "?", ".", "-", "--", "\u2013", "\u2014",
    "missing", "unknown", "not available", "not known", "#n/a", "nd", "n.d.",
    "k.a.", "k. a.", "n.b.",  # German: keine Angabe, nicht bestimmt
    # "missing", "not known", "not given" as studies in other languages write them
    "fehlt", "unbekannt", "keine angabe", "nicht bestimmt",  # German
    "manquant", "inconnu", "non renseigné", "non disponible", "nc", "n.c.", "nr", "n.r.",  # French
    "falta", "desconocido", "no disponible", "sin dato", "sin datos", "s/d",  # Spanish
    "não informado", "desconhecido", "ignorado", "sem informação",  # Portuguese
    "mancante", "sconosciuto", "non disponibile",  # Italian
    "onbekend", "ontbreekt", "saknas", "okänd", "mangler", "ukjent", "ukendt", "puuttuu",  # Dutch, Nordic
    "brak danych", "нет данных", "неизвестно",  # Polish, Russian
    "欠測", "欠損", "不明", "缺失", "未知", "결측",  # Japanese, Chinese, Korean
})
"""Entries that mean "missing" in a column that otherwise holds numbers (compared in lower case).
Only there: in a text column "-" or "unknown" may be a real answer."""

MOSTLY_NUMBERS = 0.9
"""A text column becomes numbers when at least this share of its entries (other than missing
markers) read as numbers; the rest are then missing, and the notes say which."""
HALF_NUMBERS = 0.5
"""A text column with at least this share of numbers, but less than :data:`MOSTLY_NUMBERS`, stays
text, and the notes say which texts kept it so (a code for "missing" the reader does not know)."""

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
            raise DataError(words.BAD_DECIMAL_MARK.format(decimal=self.decimal))
        if self.thousands not in THOUSANDS_SEPARATORS:
            raise DataError(words.BAD_THOUSANDS_SEPARATOR.format(separators=', '.join(map(repr, THOUSANDS_SEPARATORS)), thousands=self.thousands))
        if self.thousands == self.decimal:
            raise DataError(words.SAME_DECIMAL_AND_THOUSANDS.format(decimal=self.decimal))

    def describe(self) -> str:
        """E.g. "decimal comma (72,5), no thousands separator"."""
        thousands = (
            words.NO_THOUSANDS_SEPARATOR if not self.thousands
            else words.THOUSANDS_SEPARATED_BY.format(thousands=THOUSANDS_SEPARATORS[self.thousands])
        )
        return words.DECIMAL_AND_THOUSANDS.format(decimal=DECIMAL_MARKS[self.decimal], thousands=thousands)


_SNIFF_LINES = 50
_DETECT_CELLS = 20_000


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


SPACES_IN_NUMBERS = " \u00a0\u202f\u2009"
"""Spaces that group thousands ("12 000"): a plain one, a no-break space, a narrow no-break
space (U+202F: French and Swiss exports) and a thin space (U+2009: typeset tables); one
separator, " ", for the page and the parser, whichever width a file uses."""
_NUMBER_LIKE = re.compile(rf"^[+\-\u2212]?[\d.,'{SPACES_IN_NUMBERS}]*\d[\d.,'{SPACES_IN_NUMBERS}]*%?$")

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
    for separator in ("," if decimal == "." else ".", *SPACES_IN_NUMBERS, "'"):
        grouped = re.compile(
            rf"[+\-\u2212]?\d{{1,3}}(?:{re.escape(separator)}\d{{3}})+(?:{re.escape(decimal)}\d*)?"
        )
        using = [text for text in candidates if separator in text]
        if using and all(grouped.fullmatch(text) for text in using):
            return NumberFormat(decimal, " " if separator in SPACES_IN_NUMBERS else separator)
    return NumberFormat(decimal, "")


def sample_cells(text: str, delimiter: str) -> Iterator[str]:
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


def text_cells(frame: pd.DataFrame) -> list[str]:
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
        spaces = SPACES_IN_NUMBERS if numbers.thousands == " " else numbers.thousands + "\u00a0"
        text = text.str.replace(f"[{re.escape(spaces)}]", "", regex=True)
    if numbers.decimal == ",":
        text = text.str.replace(",", ".", regex=False)
    # to_numeric would read "inf", "nan" or "1_000" as numbers: only digits with one point and an exponent.
    plain = text.str.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
    return pd.to_numeric(text.where(plain), errors="coerce").astype("float64")


def numbers_from_text(
    frame: pd.DataFrame, numbers: NumberFormat, notes: list[str], percent: list[str] | None = None
) -> pd.DataFrame:
    """The table with every text column that holds numbers (see :data:`MOSTLY_NUMBERS`) as floats.

    Entries in :data:`NUMBER_MISSING_MARKERS` become missing; so do the few entries that are not
    numbers, named in the notes. Percent signs are dropped (the notes say so).

    Parameters
    ----------
    frame : pandas.DataFrame of shape (n_rows, n_columns)
    numbers : NumberFormat
    notes : list of str
        Sentences are appended here.
    percent : list of str, optional
        The names of the columns read as percentages (their signs dropped) are appended here.

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
        label = repr(str(name))
        if parsed.notna().mean() < MOSTLY_NUMBERS:
            _say_kept_as_text(label, written, parsed, notes)
            continue
        if _percents_beside_fractions(written, parsed):
            notes.append(words.PERCENTS_BESIDE_FRACTIONS.format(label=label, percent=written[written.str.endswith("%")].iloc[0],
                                                              fraction=written[~written.str.endswith("%")].iloc[0]))
            continue
        strays = written[parsed.isna()]
        if not strays.empty:
            examples = ", ".join(repr(value) for value in strays.unique()[:3])
            notes.append(words.not_numbers_read_as_missing(label, len(strays), examples))
        other_digits = written[parsed.notna()].map(lambda text: any(ord(ch) in _ASCII_DIGITS for ch in text))
        if other_digits.any():
            example = written[other_digits[other_digits].index[0]]
            notes.append(words.OTHER_SCRIPT_DIGITS.format(label=label, example=example))
        if written.str.endswith("%").any():
            notes.append(words.PERCENT_SIGNS.format(label=label))
            if percent is not None:
                percent.append(str(name))
        column = pd.Series(np.nan, index=series.index, dtype="float64")
        column.loc[parsed.index] = parsed
        converted[name] = column
    return frame.assign(**{str(name): column for name, column in converted.items()}) if converted else frame


def _say_kept_as_text(label: str, written: pd.Series, parsed: pd.Series, notes: list[str]) -> None:
    """A note on a column of :data:`HALF_NUMBERS` or more numbers kept as text, naming the texts
    that kept it so: a lab value is not taken for free text without a word."""
    if parsed.notna().mean() >= HALF_NUMBERS:
        texts = ", ".join(repr(text) for text in written[parsed.isna()].unique()[:3])
        notes.append(words.numbers_beside_texts(label, int(parsed.notna().sum()), len(written), texts))


def _percents_beside_fractions(written: pd.Series, parsed: pd.Series) -> bool:
    """Whether a column writes some values as percentages above 1 ("95%") and the others as
    fractions of 1 ("0.97"): two scales that no reading can join without asking."""
    percent = written.str.endswith("%")
    if not percent.any() or percent.all():
        return False
    plain, percents = parsed[~percent].dropna(), parsed[percent].dropna()
    return bool(len(plain)) and bool((plain.abs() <= 1).all()) and bool((percents.abs() > 1).any())


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
