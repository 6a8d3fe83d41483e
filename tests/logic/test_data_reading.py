"""Tests of psl_triage.data.reading, .header and .sniffing: reading uploads (encodings, delimiters,
Excel, number formats, column names) to a table or a clear refusal."""

from __future__ import annotations

import codecs
import re

import numpy as np
import pandas as pd
import pytest
from data_tables import xlsx_bytes
from hypothesis import given, settings
from hypothesis import strategies as st

from psl_core.errors import DataError
from psl_triage.data import (
    DEFAULT_MAX_UPLOAD_MB,
    MAX_COLUMNS,
    NumberFormat,
    detect_number_format,
    guess_outcome,
    infer_column_types,
    load_table,
    prepare_training_data,
    upload_limit_mb,
)


def read_table(data, filename, **options):
    """The table of an upload, without the reader's notes."""
    return load_table(data, filename, **options).frame


def test_read_csv():
    df = read_table(b"age,sex,died\n50,m,yes\n61,f,no\n", "patients.csv")
    assert list(df.columns) == ["age", "sex", "died"]
    assert df["age"].tolist() == [50, 61] and df["sex"].tolist() == ["m", "f"]


def test_read_tsv_and_tab_separated_txt():
    data = b"age\tsex\n50\tm\n61\tf\n"
    for name in ("patients.tsv", "patients.txt"):
        assert read_table(data, name).shape == (2, 2)


def test_read_semicolon_csv_with_decimal_points():
    df = read_table(b"age;bmi\n50;21.5\n61;30.1\n", "european.csv")
    assert df["bmi"].tolist() == [21.5, 30.1]


def test_column_names_are_stripped_and_question_mark_is_missing():
    df = read_table(b" age , ca \n50,?\n61,1\n", "uci.csv")
    assert list(df.columns) == ["age", "ca"]
    assert df["ca"].isna().tolist() == [True, False]


def test_utf8_with_byte_order_mark():
    loaded = load_table(codecs.BOM_UTF8 + "âge,sexe\n50,m\n61,f\n".encode(), "excel.csv")
    assert list(loaded.frame.columns) == ["âge", "sexe"] and loaded.notes == []


def test_latin1_falls_back_and_says_so():
    loaded = load_table("âge,ville\n50,Zürich\n61,Genève\n".encode("latin-1"), "old.csv")
    assert list(loaded.frame.columns) == ["âge", "ville"]
    assert loaded.frame["ville"].tolist() == ["Zürich", "Genève"]
    assert len(loaded.notes) == 1 and "not UTF-8" in loaded.notes[0] and "Windows-1252" in loaded.notes[0]


def test_windows_1252_quotes_are_read():
    loaded = load_table("name,remark\na,“ok”\nb,fine\n".encode("cp1252"), "win.csv")
    assert loaded.frame["remark"].tolist() == ["“ok”", "fine"]


def test_utf16_text_export_from_excel():
    data = "age\tsex\n50\tm\n61\tf\n".encode("utf-16")
    assert read_table(data, "unicode.txt").shape == (2, 2)


@pytest.mark.parametrize(
    ("data", "name", "message"),
    [
        (b"", "empty.csv", "empty"),
        (b"  \n\n ", "blank.csv", "blank"),
        (bytes(range(256)) * 4, "garbage.csv", "binary"),
        (b"\x8d\x81\x8f\x01\x02\x03\x04\x05\x06\x07\x08" * 50, "noise.csv", "readable text"),
        (b"PK\x03\x04\x14\x00\x06\x00rest", "book.csv", ".xlsx"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "old.csv", "old Office"),
        (b"a,b,a\n1,2,3\n", "dup.csv", "duplicate column names: 'a'"),
        (b"a, b,b \n1,2,3\n", "dup_spaces.csv", "duplicate column names: 'b'"),
        (b"a,b\n", "header_only.csv", "no data rows"),
        (b"a,b\n,\n,\n", "empty_rows.csv", "no data rows"),
        (b"just one column\nsome text\nmore text\n", "notes.csv", "does not look like a table"),
        (b"a,b\n1,2\n3,4,5,6\n", "ragged.csv", "same number of fields"),
        (b"\n\n,\n1,2\n", "no_header.csv", "no header row"),
        (b"a,b\n1,2\n", "table.xls", "Save the sheet as .xlsx"),
        (b"a,b\n1,2\n", "table.json", "unsupported file type .json"),
        (b"a,b\n1,2\n", "table", "(no extension)"),
        (b"not a zip at all", "fake.xlsx", "Excel"),
        (b"PK\x03\x04broken zip", "broken.xlsx", "Excel"),
    ],
)
def test_bad_uploads_raise_clear_data_errors(data, name, message):
    with pytest.raises(DataError, match=None) as caught:
        read_table(data, name)
    assert message in str(caught.value)
    assert name in str(caught.value)


def test_size_limit():
    data = b"a,b\n" + b"1,2\n" * 1000
    assert read_table(data, "ok.csv", max_bytes=len(data)).shape == (1000, 2)
    with pytest.raises(DataError, match="the limit is 0.0 MB.*PSL_MAX_UPLOAD_MB"):
        read_table(data, "big.csv", max_bytes=len(data) - 1)


def test_upload_limit_from_environment_value():
    assert upload_limit_mb(None) == upload_limit_mb("") == DEFAULT_MAX_UPLOAD_MB == 50
    assert upload_limit_mb(" 200 ") == 200
    for bad in ("abc", "0", "-5", "1.5"):
        with pytest.raises(DataError, match="PSL_MAX_UPLOAD_MB"):
            upload_limit_mb(bad)


def test_empty_rows_and_unnamed_empty_columns_are_dropped_with_notes():
    loaded = load_table(b"a,b,\n1,2,\n,,\n3,4,\n", "trailing.csv")
    assert loaded.frame.shape == (2, 2)
    assert loaded.notes == ["Dropped 1 empty column without a name.", "Dropped 1 empty row."]


def test_xlsx_round_trip_reads_first_sheet_and_says_so():
    patients = pd.DataFrame({"age": [50, 61, 70], "sex": ["m", "f", "m"], "bmi": [21.5, None, 30.0]})
    data = xlsx_bytes({"patients": patients, "readme": pd.DataFrame({"x": [1]})})
    loaded = load_table(data, "study.xlsx")
    pd.testing.assert_frame_equal(loaded.frame, patients, check_dtype=False)
    assert loaded.notes == ["study.xlsx has 2 sheets; the first, 'patients', was read."]


def test_xlsx_duplicate_and_missing_header():
    data = xlsx_bytes({"s": pd.DataFrame([[1, 2, 3]], columns=["a", "b", "c"]).rename(columns={"c": "a"})})
    with pytest.raises(DataError, match="duplicate column names: 'a'"):
        read_table(data, "dup.xlsx")
    with pytest.raises(DataError, match="no data rows"):
        read_table(xlsx_bytes({"s": pd.DataFrame(columns=["a", "b"])}), "header_only.xlsx")


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=400), suffix=st.sampled_from([".csv", ".tsv", ".txt", ".xlsx", ".bin"]))
def test_any_bytes_give_a_table_or_a_data_error(data, suffix):
    try:
        df = read_table(data, "upload" + suffix)
    except DataError:
        return
    assert isinstance(df, pd.DataFrame) and len(df.columns) >= 2 and len(df) >= 1
    assert not df.columns.has_duplicates


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from(list("ab1.5 ,;\t\"'\n\r?é€-")), max_size=200),
    suffix=st.sampled_from([".csv", ".tsv"]),
)
def test_any_delimited_text_gives_a_table_or_a_data_error(text, suffix):
    try:
        df = read_table(text.encode("utf-8"), "upload" + suffix)
    except DataError:
        return
    assert len(df.columns) >= 2 and len(df) >= 1 and not df.columns.has_duplicates


EURO_CSV = (
    "ID;Age;PVol;PreopPSA;TVol;T.Stage;Recurrence\n"
    + "".join(
        f"{317601 + 7 * i};{50 + (i * 37) % 30},{i % 10};{30 + i % 50},{(i * 3) % 10};{(i * 7) % 20},{i % 100:02d};"
        f"{1 + i % 3},0;{1 + i % 2},0;{i % 2}\n"
        for i in range(40)
    )
).encode()


def test_semicolons_and_decimal_commas_are_detected_and_read_as_numbers():
    loaded = load_table(EURO_CSV, "prostate.csv")
    assert loaded.delimiter == ";" and loaded.numbers == NumberFormat(",", "")
    assert loaded.describe_reading() == (
        "Fields separated by semicolon; decimal comma (72,5), no thousands separator; "
        "numbers: 'ID', 'Age', 'PVol', 'PreopPSA', 'TVol', 'T.Stage' and 1 more."
    )
    frame = loaded.frame
    assert frame.loc[0, "Age"] == 50.0 and frame.loc[1, "PreopPSA"] == 7.01
    types = infer_column_types(frame)
    assert [types[name] for name in ("Age", "PVol", "PreopPSA", "TVol")] == ["numeric"] * 4
    assert types["T.Stage"] == "binary" and types["ID"] == "ignore"


def test_reading_can_be_overridden():
    as_points = load_table(EURO_CSV, "prostate.csv", numbers=NumberFormat(".", ""))
    assert not pd.api.types.is_numeric_dtype(as_points.frame["Age"])  # "50,0" is no number with a decimal point
    by_comma = load_table(b"a;b,c\n1;2,5\n3;4,5\n", "x.csv", delimiter=",")
    assert list(by_comma.frame.columns) == ["a;b", "c"]
    same_mark = load_table(b'a,b\n"1,5",2\n"3,25",4\n', "x.csv", delimiter=",", numbers=NumberFormat(",", ""))
    assert same_mark.frame["a"].tolist() == [1.5, 3.25]  # a quoted decimal comma in a comma-separated file
    with pytest.raises(DataError, match="cannot both be '.'"):
        NumberFormat(".", ".")


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        (["72,1", "65,3", "1", "x"], NumberFormat(",", "")),
        (["72.1", "65.3", "1"], NumberFormat(".", "")),
        (["1.234,5", "12.000,25", "7,5"], NumberFormat(",", ".")),
        (["1,234.5", "12,000", "7.5"], NumberFormat(".", ",")),
        (["1,234", "12,000", "950"], NumberFormat(".", ",")),  # ambiguous alone: grouping, not decimals
        (["1 234,5", "12 000", "7,5"], NumberFormat(",", " ")),
        (["1'234.5", "7.5"], NumberFormat(".", "'")),
        (["1.234.567", "2"], NumberFormat(",", ".")),
        (["yes", "no", "2020-01-03"], NumberFormat(".", "")),
        (["01.02.2020", "13.11.2019", "03.04.2021", "72.1", "65.3"], NumberFormat(".", "")),  # dates are no evidence
    ],
)
def test_number_format_detection(cells, expected):
    assert detect_number_format(cells) == expected


def test_thousands_percent_signs_and_missing_markers_become_numbers():
    text = (
        "id,income,rate,crp,result,outcome\n"
        '1,"1,234.5",12%,3.1,+,yes\n'
        '2,"12,000",3.5 %,.,-,no\n'
        "3,?,N/A,missing,+,no\n"
        "4,950,-,-,-,yes\n"
        "5,NA,7%,2.0,+,yes\n"
    )
    loaded = load_table(text.encode(), "lab.csv")
    frame = loaded.frame
    assert frame["income"].tolist()[:2] == [1234.5, 12000.0] and frame["income"].isna().sum() == 2
    assert frame["rate"].tolist()[0] == 12.0 and frame["rate"].tolist()[1] == 3.5 and frame["rate"].isna().sum() == 2
    assert frame["crp"].isna().sum() == 3
    assert frame["result"].tolist() == ["+", "-", "+", "-", "+"]  # "-" is an answer in a text column
    assert "'rate' is written with percent signs; its values are percentages." in loaded.notes


def test_a_few_stray_words_in_numbers_are_missing_and_named():
    values = [str(40 + i) for i in range(19)] + ["abc"]
    loaded = load_table(("age,outcome\n" + "".join(f"{v},{i % 2}\n" for i, v in enumerate(values))).encode(), "s.csv")
    assert loaded.frame["age"].dtype == "float64" and loaded.frame["age"].isna().sum() == 1
    assert loaded.notes == [
        "'age' holds numbers, but 1 entry is not a number (e.g. 'abc') and read as missing. "
        "Correct them in the file if they are typos."
    ]
    mostly_text = load_table(b"grade,outcome\n1,0\n2,1\n3a,0\n3b,1\n", "g.csv").frame
    assert mostly_text["grade"].tolist() == ["1", "2", "3a", "3b"]


def test_excel_text_cells_with_decimal_commas_become_numbers():
    frame = pd.DataFrame({"age": ["72,1", "65,3", "n/a"], "outcome": [1, 0, 1]})
    loaded = load_table(xlsx_bytes({"s": frame}), "eu.xlsx")
    assert loaded.delimiter is None and loaded.numbers.decimal == ","
    assert loaded.frame["age"].tolist()[:2] == [72.1, 65.3] and np.isnan(loaded.frame["age"].iloc[2])
    assert loaded.describe_reading() == "Decimal comma (72,5), no thousands separator; numbers: 'age', 'outcome'."
    mixed = pd.DataFrame({"weight": [1250.5, "1.234,5", "2.000,0", "k.A."], "outcome": [1, 0, 1, 0]})
    frame = load_table(xlsx_bytes({"s": mixed}), "mixed.xlsx").frame
    assert frame["weight"].tolist()[:3] == [1250.5, 1234.5, 2000.0]  # a number cell is not re-read


def test_decimal_comma_file_trains_a_list_with_its_thresholds():
    loaded = load_table(EURO_CSV, "prostate.csv")
    types = infer_column_types(loaded.frame)
    prepared = prepare_training_data(loaded.frame, types, guess_outcome(loaded.frame, types), 1)
    assert "ID" not in prepared.X and {"Age", "PVol", "PreopPSA", "TVol"} <= set(prepared.X.columns)
    assert all(prepared.X[name].dtype == "float64" for name in ("Age", "PVol", "PreopPSA"))


@pytest.mark.parametrize(
    ("data", "filename", "words"),
    [
        (b"age,sex\x07\n" + b"1,m\n2,f\n" * 100, "bell.csv", "column name 'sex\\\\x07' holds U\\+0007"),
        (b"age,sex\n1,m\n2,\x1b[31mf\n" + b"1,m\n" * 100, "escape.csv", "column 'sex' holds U\\+001B.*in row 2"),
        ("age\tsex\n1\tm\n2\tf\ud800\n".encode("utf-16", "surrogatepass"), "lone.tsv", "UTF-16"),
    ],
)
def test_text_that_cannot_be_shown_is_refused_at_the_door(data, filename, words):
    with pytest.raises(DataError, match=words):
        load_table(data, filename)


@pytest.mark.parametrize("name", ["__proto__", "__x", "py/object", "!!python", "n" * 1001])
def test_a_column_name_a_saved_list_cannot_hold_is_refused_at_upload(name):
    data = f"age,{name}\n".encode() + b"".join(f"{i},{i % 2}\n".encode() for i in range(40))
    with pytest.raises(DataError, match="cannot be kept in a saved list.*Rename it"):
        load_table(data, "codes.csv")


@pytest.mark.parametrize(
    ("header", "first", "second"),
    [
        ("m,m\u200b", "m", "m\\u200b"),
        ("age,\uff41\uff47\uff45", "age", "\uff41\uff47\uff45"),
        ("sex,s\u0435x", "sex", "s\u0435x"),  # Cyrillic e
        ("a b,a  b", "a b", "a  b"),
    ],
)
def test_column_names_that_look_alike_are_refused_naming_both(header, first, second):
    data = (header + ",y\n" + "1,2,0\n3,4,1\n" * 20).encode()
    with pytest.raises(DataError, match=re.escape(f"look the same when shown: '{first}' and '{second}'")):
        load_table(data, "alike.csv")


def test_invisible_and_direction_characters_are_removed_from_names_and_values_with_a_note():
    female = "f\u200b"
    rows = "".join(f"{i},{'m' if i % 2 else female},{i % 2}\n" for i in range(40))
    loaded = load_table(("\u202eega,Sex\u200b,cafe\u0301\n" + rows).encode(), "bidi.csv")
    assert list(loaded.frame.columns) == ["ega", "Sex", "caf\u00e9"]  # shown as it reads; NFC
    assert set(loaded.frame["Sex"]) == {"m", "f"}
    assert any("invisible or direction-control characters from the column names" in n for n in loaded.notes)
    assert any("1 value of the column 'Sex'" in n for n in loaded.notes)


def test_spaces_around_values_are_trimmed_with_one_note_for_the_table_not_called_invisible():
    rows = "".join(f"{i},{'No ' if i % 2 else 'Yes'},{'N  ' if i % 3 else 'Y'},{'x' if i else 'z' + chr(0x200B)}\n" for i in range(40))
    loaded = load_table(("age,black,white,other\n" + rows).encode(), "spaces.csv")
    assert set(loaded.frame["black"]) == {"No", "Yes"} and set(loaded.frame["white"]) == {"N", "Y"}
    assert [n for n in loaded.notes if "spaces" in n] == [
        "Removed the spaces around 2 values in 2 columns, e.g. 'No ' of the column 'black'."
    ]
    invisible = [n for n in loaded.notes if "invisible" in n]
    assert len(invisible) == 1 and "'other'" in invisible[0]
    long = load_table(("a,b\n" + "x" * 80 + " ,1\ny,2\n").encode(), "long.csv")
    assert long.notes == ["Removed the spaces around 1 value in 1 column, e.g. '" + "x" * 37 + "...' of the column 'a'."]


def test_values_of_a_column_that_look_alike_are_refused_naming_both():
    cyrillic = "m\u0430le"
    rows = "".join(f"{i},{'male' if i % 2 else cyrillic}\n" for i in range(40))
    with pytest.raises(DataError, match="column 'sex' has values that look the same when shown: 'm.le' and 'm.le'"):
        load_table(("age,sex\n" + rows).encode(), "alike.csv")


def test_a_header_with_a_quoted_repeat_after_a_space_is_a_duplicate():
    with pytest.raises(DataError, match="duplicate column names: 'a'"):
        load_table(b'a, "a",y\n' + b"1,2,0\n3,4,1\n" * 20, "repeat.csv")


def test_a_comma_separated_file_with_quoted_decimal_commas_is_read():
    rows = "".join(f'"{60 + i % 20},{i % 10}",{i % 2}\n' for i in range(50))
    loaded = load_table(("weight,y\n" + rows).encode(), "quoted.csv")
    assert loaded.numbers.decimal == "," and loaded.frame["weight"].iloc[:2].tolist() == [60.0, 61.1]


def test_utf32_is_read_as_utf32_not_as_utf16_with_nul_characters():
    text = "weight,sex\n" + "".join(f"{60 + i},{'mf'[i % 2]}\n" for i in range(30))
    for encoding in ("utf-32", "utf-32-be"):
        data = text.encode(encoding) if encoding == "utf-32" else codecs.BOM_UTF32_BE + text.encode(encoding)
        loaded = load_table(data, "wide-chars.csv")
        assert list(loaded.frame.columns) == ["weight", "sex"] and len(loaded.frame) == 30


def test_a_table_wider_than_the_column_limit_is_refused_with_what_to_do():
    header = ",".join(f"c{i}" for i in range(MAX_COLUMNS + 1))
    data = (header + "\n" + ",".join("1" for _ in range(MAX_COLUMNS + 1)) + "\n").encode()
    with pytest.raises(DataError, match=f"has {MAX_COLUMNS + 1:,} columns; the app reads tables of at most 500"):
        load_table(data, "wide.csv")
    assert len(load_table(data.replace(b",c500", b"").replace(b",1\n", b"\n"), "wide.csv").frame.columns) == MAX_COLUMNS


def test_the_read_as_sentence_names_how_each_column_was_read():
    table = (
        "dose;share;ward;outcome\n" + "".join(f"{60 + i},{i % 10};{10 + i}%;{'AB'[i % 2]}x;{i % 2}\n" for i in range(20))
    ).encode()
    loaded = load_table(table, "mixed.csv")
    assert loaded.columns == {"dose": "numbers", "share": "percent", "ward": "text", "outcome": "numbers"}
    assert loaded.describe_reading() == (
        "Fields separated by semicolon; decimal comma (72,5), no thousands separator; numbers: 'dose', "
        "'outcome'; percentages (the % sign dropped): 'share'; text, kept as written: 'ward'."
    )
    # 'a' holds decimal commas in a file whose other decimals use points: it stays text, and the
    # sentence says so rather than claim every column was read with a decimal point.
    other_marks = b"a;b;c\n72,5;1.5;1\n80,1;2.5;2\n70,0;3.25;3\n"
    loaded = load_table(other_marks, "marks.csv")
    assert loaded.frame["a"].tolist() == ["72,5", "80,1", "70,0"]
    assert loaded.describe_reading().endswith("; numbers: 'b', 'c'; text, kept as written: 'a'.")
    dated = load_table(xlsx_bytes({"s": pd.DataFrame({"seen": pd.to_datetime(["2024-01-02", "2024-03-04"]),
                                                      "outcome": [0, 1]})}), "d.xlsx")
    assert dated.describe_reading().endswith("; numbers: 'outcome'; dates: 'seen'.")
