"""The fifth re-probe of issue 40 (new hostile inputs of its six classes, by a prober who had not
read the tests): the inputs that failed, each through the part of the app that failed it."""

import csv
import io
import json

import pytest

from psl_core import ProbabilisticScoringList
from psl_core.errors import DataError, PSLError
from psl_triage.bedside.questions import build_questions
from psl_triage.data import load_table
from psl_triage.judging.card import card_html, report_html
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.words import label_md, plotly_text
from psl_triage.words.triage import answer_labels, answer_texts
from tests.hostile_corpus import DIRECTION_SPOOFS, meaning_document

OVERRIDE = "\u202e"


@pytest.mark.parametrize("text", DIRECTION_SPOOFS)
def test_a_direction_override_shows_as_its_code_in_labels_and_figures(text):
    for shown in (label_md(text), plotly_text(text)):
        assert OVERRIDE not in shown and "\u2066" not in shown and "\u202d" not in shown
        assert "⟨U+" in shown


def _spoofed_list():
    """A valid list whose "pain" answers include one that an override draws as "typical"
    (its letters reversed), beside "typical" itself: the file reads apart, the page must too."""
    document = meaning_document()
    document["metadata"]["columns"]["pain"]["category_labels"]["atypical"] = f"{OVERRIDE}lacipyt"
    document["metadata"]["columns"]["smoker"]["label"] = f"{OVERRIDE}niap tsehC"  # drawn "Chest pain"
    return ProbabilisticScoringList.from_json(json.dumps(document))


def test_answers_an_override_draws_alike_read_apart_at_the_bedside():
    model = _spoofed_list()
    metadata = ModelMetadata.of(model)
    for question in build_questions(model, metadata.readable_columns()):
        assert not any(OVERRIDE in text for text in [*answer_labels(question), *answer_texts(question)])
        assert OVERRIDE not in label_md(question.prompt)


def test_the_card_and_the_report_show_a_direction_override_as_its_code():
    model = _spoofed_list()
    metadata = ModelMetadata.of(model)
    for html in (card_html(model, metadata), report_html(model, metadata)):
        assert OVERRIDE not in html
        assert "⟨U+202E⟩" in html


@pytest.mark.parametrize("space", ["\u202f", "\u2009", "\u00a0", " "])
def test_thousands_grouped_by_a_space_of_any_width_are_numbers(space):
    """French and Swiss exports group thousands by a narrow no-break space (U+202F), typeset
    tables by a thin space (U+2009): read as text, "1 234" became a category of one patient."""
    rows = "".join(f"{40 + i},{1 + i % 9}{space}{i % 1000:03d},{i % 2}\n" for i in range(40))
    loaded = load_table(f"age,chol,y\n{rows}".encode(), "t.csv")
    assert loaded.frame["chol"].dtype.kind in "if"
    assert loaded.frame["chol"].iloc[1] == 2001.0


@pytest.mark.parametrize("line", ["sep=;", '"sep=;"', "SEP=;"])
def test_excel_s_separator_line_names_the_delimiter_and_is_no_row(line):
    """Excel writes (and reads) a first line "sep=;" that names the delimiter: read as a row, it
    made a table of two columns named "sep=" and "Unnamed: 1" holding the header as data."""
    rows = "".join(f"{40 + i};{'mf'[i % 2]};{60 + i % 20},5;{i % 2}\n" for i in range(40))
    loaded = load_table(f"{line}\r\nage;sex;weight;y\r\n{rows}".encode(), "t.csv")
    assert list(loaded.frame.columns) == ["age", "sex", "weight", "y"] and len(loaded.frame) == 40
    assert loaded.delimiter == ";" and loaded.frame["weight"].iloc[0] == 60.5
    assert any("sep=;" in note for note in loaded.notes)


def test_a_separator_line_naming_no_delimiter_is_refused_with_what_to_do():
    with pytest.raises(DataError, match=r"sep=#.*comma, semicolon, tab or vertical bar"):
        load_table(b"sep=#\nage#y\n1#0\n2#1\n", "t.csv")


EAST_ASIAN_TABLES = {  # encoding -> (header, the two values of a column)
    "gb18030": ("年龄,性别,结果", "男女"), "big5": ("年齡,性別,結果", "男女"), "shift_jis": ("年齢,性別,結果", "男女"),
    "euc-jp": ("年齢,性別,結果", "男女"), "euc-kr": ("나이,성별,결과", "남여"),
}


@pytest.mark.parametrize("encoding", list(EAST_ASIAN_TABLES))
def test_a_table_in_an_east_asian_encoding_is_refused_naming_it(encoding):
    """GB18030 bytes read as Windows-1252 made the columns "ÄêÁä", "ÐÔ±ð" with a note on
    "accented characters in UTF-8"; Shift-JIS was called "not a CSV or TSV table"."""
    header, values = EAST_ASIAN_TABLES[encoding]
    table = header + "\n" + "".join(f"{40 + i},{values[i % 2]},{i % 2}\n" for i in range(40))
    with pytest.raises(DataError, match=r"Chinese, Japanese or Korean.*UTF-8, UTF-16 or Windows-1252.*CSV UTF-8"):
        load_table(table.encode(encoding), "t.csv")


@pytest.mark.parametrize("encoding", list(EAST_ASIAN_TABLES))
def test_an_east_asian_header_above_plain_numbers_is_refused(encoding):
    """Too few bytes beyond ASCII for a guess by statistics (three names of two letters): the
    columns were read as "ÄêÁä", "ÐÔ±ð"."""
    header, _ = EAST_ASIAN_TABLES[encoding]
    table = header + "\n" + "".join(f"{40 + i},{i % 2},{i % 3 == 0:d}\n" for i in range(40))
    with pytest.raises(DataError, match=r"a Chinese, Japanese or Korean encoding: the app reads UTF-8"):
        load_table(table.encode(encoding), "t.csv")


@pytest.mark.parametrize("header", ["Patient ID;Âge;Sexe;Décès", "Größe;Maß;Öl", "Año;Niño;Sexo", "Ål;Ça;Üç",
                                    "Não;Coração", "Ærø;Sø;Été"])
def test_a_short_western_header_is_read(header):
    names = header.split(";")
    rows = "".join(";".join(str((i + j) % 3) for j in range(len(names))) + "\n" for i in range(40))
    loaded = load_table(f"{header}\n{rows}".encode("cp1252"), "t.csv")
    assert list(loaded.frame.columns) == names


def test_western_text_in_windows_1252_is_still_read():
    rows = "".join(f"{40 + i},{['Zürich', 'Genève', 'Größe', 'São Paulo', 'Ærø'][i % 5]},{i % 2}\n" for i in range(40))
    loaded = load_table(f"âge,ville,y\n{rows}".encode("cp1252"), "t.csv")
    assert list(loaded.frame.columns) == ["âge", "ville", "y"] and loaded.frame["ville"].iloc[2] == "Größe"


@pytest.mark.parametrize("encoding", ["cp437", "mac_roman"])
def test_a_table_in_an_encoding_not_read_says_what_to_save_it_as(encoding):
    """It was called "not a CSV or TSV table", which it is."""
    rows = "".join(f"{40 + i},{['Zürich', 'Genève', 'Malmö'][i % 3]},{i % 2}\n" for i in range(40))
    with pytest.raises(DataError, match=r"readable text in UTF-8, UTF-16 or Windows-1252.*CSV UTF-8"):
        load_table(f"age,city,y\n{rows}".encode(encoding), "t.csv")


def _formulas_only_workbook():
    import openpyxl  # a test requirement, not the app's

    book = openpyxl.Workbook()
    book.active.append(["age", "double age", "y"])
    for row in range(2, 42):
        book.active.append(["=30+MOD(ROW(),40)", f"=A{row}*2", "=MOD(ROW(),2)"])
    stream = io.BytesIO()
    book.save(stream)
    return stream.getvalue()


def test_a_sheet_of_formulas_without_values_is_named_so_not_empty():
    """A workbook a script wrote (formulas, no saved values) was refused as "column names but no
    data rows", which sends the user looking for rows that are there."""
    with pytest.raises(DataError, match=r"every value below the header is a formula saved without its value \(120 cells"):
        load_table(_formulas_only_workbook(), "t.xlsx")


@pytest.fixture
def csv_default_field_limit():
    """The csv module's field limit at its default for one test: it is process-wide, and a
    library may raise it (scipy's ARFF reader sets it near the largest integer when it reads)."""
    earlier = csv.field_size_limit(131_072)
    yield
    csv.field_size_limit(earlier)


def test_a_header_field_too_long_to_read_is_said_in_words(csv_default_field_limit):
    """It said "field larger than field limit (131072)", the csv module's words."""
    with pytest.raises(DataError, match=r"a field of the header row is longer than 131,072 characters"):
        load_table(("x" * 2**20 + ",y\n1,2\n3,4\n").encode(), "t.csv")


def test_a_folder_of_thousands_of_lists_is_read_once_not_at_every_listing(tmp_path, monkeypatch):
    """A folder of 5,000 lists took 87 s to list, and 105 s again at the next listing (and at
    every page that lists): the listing's memory kept 4,096 files, so each file pushed out the
    one read next. Reading is replaced here by a stub that counts; the folder is real."""
    from psl_triage.model_file import store
    from psl_triage.model_file.metadata import ModelMetadata as Metadata

    reads = []

    def counted_read(path):
        reads.append(path)
        return store.OpenedModel(None, Metadata.coerce({"name": path.stem, "created": "2026-01-01T00:00"}))

    monkeypatch.setattr(store, "_read", counted_read)
    for i in range(4200):
        (tmp_path / f"list-{i}-v1.json").write_bytes(b"{}")
    models, problems = store.list_models(tmp_path)
    assert len(models) == 4200 and problems == [] and len(reads) == 4200
    (tmp_path / "list-7-v1.json").write_bytes(b"{ }")  # one file changed: read again, alone
    models, _ = store.list_models(tmp_path)
    assert len(models) == 4200 and len(reads) == 4201


def test_a_description_of_another_list_s_columns_is_refused(tmp_path):
    """Another list's column descriptions glued to this list's stages loaded: the report then
    listed "Predictors offered to the learner: X0, X1, X2", none of them in the list, while the
    list asked age, smoker and pain under their raw names."""
    from psl_triage.model_file.store import list_models

    document = meaning_document()
    document["metadata"]["columns"] = {f"x{i}": {"label": f"X{i}", "unit": "", "kind": "numeric",
                                                 "category_labels": {}} for i in range(3)}
    (tmp_path / "glued-v1.json").write_text(json.dumps(document), encoding="utf-8")
    models, problems = list_models(tmp_path)
    assert models == [] and len(problems) == 1
    assert "describes none of these columns" in problems[0] and "'x0'" in problems[0]


def test_a_workbook_s_error_values_are_said_to_be_read_as_missing():
    """Excel's error values (#DIV/0!, #N/A) became empty cells without a word; the same values in
    a CSV are named in a note."""
    import openpyxl  # a test requirement, not the app's

    book = openpyxl.Workbook()
    book.active.append(["age", "lab", "y"])
    for i in range(40):
        book.active.append([40 + i, 1.5 * i, i % 2])
        if i % 10 == 0:
            cell = book.active.cell(row=i + 2, column=2)
            cell.value, cell.data_type = ["#DIV/0!", "#N/A"][i % 20 // 10], "e"
    stream = io.BytesIO()
    book.save(stream)
    loaded = load_table(stream.getvalue(), "t.xlsx")
    assert loaded.frame["lab"].isna().sum() == 4
    assert any("4 cells hold an error value" in note and "#DIV/0!" in note for note in loaded.notes)


TITLE_ROWS = {  # what stands above the header -> rows skipped
    "Study X export 2024\n": 1, "Study X export 2024,,\n": 1, "Study X export 2024,,\n,,\n": 2,
    "Study X export 2024\nexported 2024-05-01\n": 2,
}


@pytest.mark.parametrize("above", list(TITLE_ROWS))
def test_a_title_above_the_header_is_skipped_with_a_note(above):
    """Excel saves a sheet with a title in A1 as "Study X export 2024,,": the title became the
    name of the age column, the real header a row of data (without commas: "does not look like a
    table")."""
    rows = "".join(f"{40 + i},{'mf'[i % 2]},{i % 2}\n" for i in range(40))
    loaded = load_table(f"{above}age,sex,y\n{rows}".encode(), "t.csv")
    assert list(loaded.frame.columns) == ["age", "sex", "y"] and len(loaded.frame) == 40
    assert loaded.frame["age"].dtype.kind in "if"
    assert any("'Study X export 2024'" in note and "title" in note for note in loaded.notes)


def test_a_title_above_a_workbook_s_header_is_skipped_with_a_note():
    import openpyxl  # a test requirement, not the app's

    book = openpyxl.Workbook()
    book.active.append(["Study X export 2024"])
    book.active.append([])
    book.active.append(["age", "sex", "y"])
    for i in range(40):
        book.active.append([40 + i, "mf"[i % 2], i % 2])
    stream = io.BytesIO()
    book.save(stream)
    loaded = load_table(stream.getvalue(), "t.xlsx")
    assert list(loaded.frame.columns) == ["age", "sex", "y"] and len(loaded.frame) == 40
    assert any("'Study X export 2024'" in note for note in loaded.notes)


@pytest.mark.parametrize("table", [
    "y,,\n1,2,3\n0,4,5\n",  # one name: the data below are no header
    "age,sex,y\n40,m,1\n41,f,0\n",
])
def test_a_first_row_that_is_the_header_stays_the_header(table):
    loaded = load_table(table.encode(), "t.csv")
    assert str(loaded.frame.columns[0]) in ("y", "age") and len(loaded.frame) == 2


@pytest.mark.parametrize("name", ["ward\x00list", "ward\x1b[31m", "ward\ud800"])
def test_a_model_name_a_file_cannot_hold_is_refused_as_the_name(name, tmp_path):
    """It was refused as "its model file would not load again ... and train again": the list was
    sound, only the name needed changing."""
    from psl_triage.model_file.store import save_model

    model = ProbabilisticScoringList.from_json(json.dumps(meaning_document()))
    with pytest.raises(PSLError, match=r"The model name .* holds U\+.*Change the name and save again") as refused:
        save_model(model, name, model.metadata_, tmp_path)
    assert "train again" not in str(refused.value) and list(tmp_path.iterdir()) == []
