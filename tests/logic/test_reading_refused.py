"""Files read right or refused with the reason (issue 40, item 6): zero bytes located, an
encrypted workbook named, numbers a saved list cannot hold read as missing at upload."""

import io
import re
import zipfile

import numpy as np
import pandas as pd
import pytest
from streamlit.proto.FileUploader_pb2 import FileUploader  # the uploader's message, as a page sends it

from psl_core.errors import DataError
from psl_triage.data import infer_column_types, load_table, prepare_training_data
from psl_triage.data.follow_up import FollowUp
from psl_triage.data.reading import MAX_UPLOAD_LIMIT_MB, upload_limit_mb
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions
from tests.hostile_corpus import (
    ENCODINGS_WITHIN_A_LINE,
    ENCRYPTED_WORKBOOK,
    HORIZONS_TOO_NEAR_AN_END,
    MISSING_ELSEWHERE,
    MIXED_ENCODINGS,
    UPLOAD_LIMIT_SETTINGS,
    hostile_tables,
    probe_workbook,
    through_the_app,
    workbook,
)
from tests.tables import follow_up_table


def test_zero_bytes_in_a_text_table_are_located():
    data = b"age,sex,y\n50,m,1\n61,f\x00,0\n70,\x00m,1\n"
    with pytest.raises(DataError, match=r"holds 2 zero \(NUL\) bytes.*first is on line 3, in field 2"):
        load_table(data, "t.csv")


def test_a_binary_file_is_still_called_binary():
    with pytest.raises(DataError, match="binary file"):
        load_table(bytes(range(256)) * 4, "t.csv")


@pytest.mark.parametrize("name", ["secret.xlsx", "secret.csv"])
def test_an_encrypted_workbook_is_named_as_encrypted(name):
    with pytest.raises(DataError, match="protected by a password \\(encrypted\\)"):
        load_table(ENCRYPTED_WORKBOOK, name)


def test_a_renamed_old_workbook_is_called_old():
    with pytest.raises(DataError, match="old Office file"):
        load_table(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(1000), "old.xlsx")


def test_numbers_a_saved_list_cannot_hold_are_missing_with_a_note(tmp_path):
    data = b"age,lab,y\n" + b"".join(f"{i},{1.7e308 if i % 2 else i},{i % 2}\n".encode() for i in range(40))
    loaded = load_table(data, "t.csv")
    assert loaded.frame["lab"].isna().sum() == 20 and np.isfinite(loaded.frame["lab"].dropna()).all()
    assert any("'lab' holds 20 numbers too large for a saved list" in note for note in loaded.notes)
    assert load_table(data.replace(b"1.7e+308", b"-1e300"), "t.csv").frame["lab"].isna().sum() == 20
    table = "near-largest-float.csv"
    assert through_the_app(table, hostile_tables()[table], tmp_path) == "triaged"


def test_lines_in_two_encodings_are_each_read_in_their_own():
    loaded = load_table(MIXED_ENCODINGS, "m.csv")
    assert loaded.frame["city"].unique().tolist() == ["Zürich"]
    assert any("mixes two encodings: 40 lines with accented characters in UTF-8, 40 lines in Windows-1252" in note
               for note in loaded.notes)
    whole = load_table("city,y\nZürich,1\nBern,0\n".encode("cp1252"), "w.csv")
    assert whole.frame["city"].tolist() == ["Zürich", "Bern"] and "read as Windows-1252" in whole.notes[0]


def test_hidden_sheets_are_skipped_for_the_first_visible_one():
    loaded = load_table(workbook(hidden_first=True), "w.xlsx")
    assert list(loaded.frame.columns) == ["age", "y"] and len(loaded.frame) == 80
    assert any("the first visible sheet of cells, 'data', was read; 2 sheets before it were skipped: "
               "'notes' (hidden), 'old' (hidden)" in note for note in loaded.notes)


def test_an_empty_cover_sheet_is_skipped_for_the_table(tmp_path):
    loaded = load_table(probe_workbook("empty cover"), "w.xlsx")
    assert list(loaded.frame.columns) == ["age", "ward", "y"] and len(loaded.frame) == 80
    assert any("the first visible sheet of cells, 'Sheet', was read; 1 sheet before it was skipped: "
               "'cover' (empty)" in note for note in loaded.notes)
    table = "empty-cover-sheet.xlsx"
    assert through_the_app(table, hostile_tables()[table], tmp_path) == "triaged"


def test_a_stray_cell_far_beyond_the_table_is_refused_before_the_sheet_is_laid_out():
    """One cell at XFD1048576 in a 6 KB workbook made the reader lay out 17 billion cells (one at
    SF20000: 10 million, 8 s and 670 MB) before the table was found (issue 40, fourth probe)."""
    with pytest.raises(DataError, match=r"the sheet 'Sheet' has cells far beyond any table .* more than "
                                        r"2,000,000 places\). Delete the rows and columns beyond the table"):
        load_table(probe_workbook("far cell"), "w.xlsx")
    near = load_table(probe_workbook("near cell"), "w.xlsx")  # 400,000 places: read, the empty ones dropped
    assert list(near.frame.columns)[:3] == ["age", "ward", "y"] and len(near.frame) == 81


def _with_cell(data: bytes, part: str, cell: bytes) -> bytes:
    """The workbook ``data`` with cell A2 of its worksheet ``part`` written as ``cell``."""
    source, stream = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(stream, "w") as archive:
        for name in source.namelist():
            xml = source.read(name)
            archive.writestr(name, re.sub(rb'<c r="A2"[^>]*><v>[^<]*</v>', cell, xml) if name == part else xml)
    return stream.getvalue()


@pytest.mark.parametrize("cell, reason", [(b'<c r="A2" t="b"><v>x</v>', "Unrecognized boolean cell value: x"),
                                          (b'<c r="A2" t="n"><v>forty</v>', "invalid float literal")])
def test_a_sheet_the_parser_fails_on_is_named(cell, reason):
    """pandas' reader named the sheet of a parser's failure ("(sheet: ...)"); the one parse of
    the sheet lost it, leaving the user of a workbook of many sheets to guess which. Here the
    table is the third sheet, after two hidden ones."""
    data = _with_cell(workbook(hidden_first=True), "xl/worksheets/sheet3.xml", cell)
    with pytest.raises(DataError, match=rf"w.xlsx is not a valid Excel .*{reason}.*\(sheet: 'data'\)\. Open it"):
        load_table(data, "w.xlsx")


def test_missing_written_in_other_languages_is_missing_in_a_column_of_numbers():
    loaded = load_table(hostile_tables()["missing-in-other-languages.csv"], "m.csv")
    lab = loaded.frame["lab"]
    assert pd.api.types.is_float_dtype(lab) and lab.isna().sum() == 32 and lab.notna().sum() == 64
    assert len(set(MISSING_ELSEWHERE)) == 8


def test_numbers_kept_as_text_say_which_texts_kept_them():
    data = b"age,grade,y\n" + b"".join(f"{i},{'low' if i % 3 == 0 else 'high' if i % 3 == 1 else i},{i % 2}\n".encode()
                                      for i in range(30, 90))
    loaded = load_table(data, "t.csv")
    assert not pd.api.types.is_numeric_dtype(loaded.frame["grade"])  # kept as written: nothing lost
    data = data.replace(b",high,", b",1,")
    loaded = load_table(data, "t.csv")
    assert any("'grade' holds numbers in 40 of its 60 entries, but the others are texts (e.g. 'low'), so it is read "
               "as text" in note for note in loaded.notes)


def test_formulas_saved_without_values_are_reported():
    loaded = load_table(workbook(formulas=True), "w.xlsx")
    assert loaded.frame["double age"].isna().all()
    assert any("in 'Sheet', 80 cells hold a formula saved without its value" in note for note in loaded.notes)
    assert not any("formula" in note for note in load_table(workbook(), "w.xlsx").notes)


def test_percentages_beside_fractions_are_not_read_as_one_scale():
    loaded = load_table(hostile_tables()["percent-beside-fraction.csv"], "p.csv")
    assert not pd.api.types.is_numeric_dtype(loaded.frame["saturation"])  # not 95 beside 0.97
    assert any("'saturation' writes some values as percentages ('91%') and others as fractions of 1 ('0.90')"
               in note for note in loaded.notes)
    same_scale = b"sat,y\n" + b"".join(f"{90 + i % 10}{'%' if i % 2 else ''},{i % 2}\n".encode() for i in range(40))
    read = load_table(same_scale, "s.csv")
    assert read.frame["sat"].between(90, 99).all() and any("percent signs" in note for note in read.notes)


@pytest.mark.parametrize(("horizon", "reason"), [
    (1e6, r"no patient is followed beyond 1e\+06 days.*choose a horizon below \d+ days, beyond which 10 patients"),
    (0.5, r"no patient has the event within 0.5 days.*choose a horizon of at least \d+ days, by which 10 patients"),
    *HORIZONS_TOO_NEAR_AN_END,
])
def test_a_horizon_that_leaves_a_class_empty_is_refused_when_preparing(horizon, reason):
    """Refused on the Data page (where preparing runs), not "Ready" and an error on Train."""
    frame = follow_up_table(seed=1)
    types = {**infer_column_types(frame), "pid": "ignore"}
    with pytest.raises(DataError, match=reason):
        prepare_training_data(frame, types, "status", [1], "learn", follow_up=FollowUp("rfstime", horizon, "days"))


def test_two_encodings_within_one_line_are_each_read_in_their_own():
    loaded = load_table(ENCODINGS_WITHIN_A_LINE, "m.csv")
    assert loaded.frame["city"].unique().tolist() == ["Zürich"]  # not "ZÃ¼rich"
    assert loaded.frame["home"].unique().tolist() == ["Genève"]
    assert any("mixes two encodings" in note for note in loaded.notes)


def test_a_chart_sheet_is_skipped_and_a_table_hidden_behind_one_is_not_read():
    loaded = load_table(probe_workbook("chart first"), "c.xlsx")
    assert list(loaded.frame.columns) == ["age", "ward", "y"] and len(loaded.frame) == 80
    assert any("'Sheet', was read; 1 sheet before it was skipped: 'chart' (a chart)" in note for note in loaded.notes)
    with pytest.raises(DataError, match=r"no visible sheet of cells .*'chart' \(a chart\), 'Sheet' \(hidden\)"):
        load_table(probe_workbook("only a chart visible"), "o.xlsx")


def test_merged_cells_are_refused_in_the_header_and_named_below_it():
    with pytest.raises(DataError, match=r"header row of 'Sheet' has merged cells \(A1:B1\)"):
        load_table(probe_workbook("merged header"), "m.xlsx")
    loaded = load_table(probe_workbook("merged below"), "b.xlsx")
    assert any("1 range of cells is merged (B2:B3); only the first cell of each holds its value" in note
               for note in loaded.notes)


def test_a_split_that_leaves_a_horizon_class_too_small_says_which(tmp_path):
    frame = follow_up_table(seed=1)
    types = {**infer_column_types(frame), "pid": "ignore"}
    # 10 patients followed beyond 2700 days: enough for the Data page, not after holding out half.
    prepared = prepare_training_data(frame, types, "status", [1], "learn", follow_up=FollowUp("rfstime", 2700, "days"))
    with pytest.raises(DataError, match=r"leaves \d+ training rows, [0-9] of them in the rarer class at the horizon 2700"):
        train_list(prepared, "t", TrainingOptions(test_fraction=0.5, max_stages=2))


@pytest.mark.parametrize("value", list(UPLOAD_LIMIT_SETTINGS))
def test_an_upload_limit_streamlit_cannot_take_stops_the_server(value):
    """3000000000 once passed the check at start and broke every page with an uploader."""
    limit = UPLOAD_LIMIT_SETTINGS[value]
    if limit is None:
        with pytest.raises(DataError, match=r"PSL_MAX_UPLOAD_MB must be a whole number of megabytes from 1 to 10,000"):
            upload_limit_mb(value)
    else:
        assert upload_limit_mb(value) == limit


def test_the_largest_upload_limit_is_one_streamlit_s_uploader_takes():
    FileUploader().max_upload_size_mb = MAX_UPLOAD_LIMIT_MB


@pytest.mark.parametrize("cells", [["TRUE", "FALSE", "TRUE"], ["TRUE", "", "FALSE"]])
def test_true_and_false_are_said_to_be_read_as_such_not_kept_as_written(cells):
    """pandas reads TRUE and FALSE as booleans: the "Read as" sentence said "text, kept as written"."""
    loaded = load_table(b"age,smoker,y\n" + b"".join(f"{i},{cell},{i % 2}\n".encode() for i, cell in enumerate(cells)), "t.csv")
    assert loaded.columns["smoker"] == "true/false"
    assert "true or false: 'smoker'" in loaded.describe_reading()
    assert load_table(hostile_tables()["true-false-with-gaps.csv"], "t.csv").columns["smoker"] == "true/false"


def test_utf16_cut_off_is_named_as_such_not_as_zero_bytes():
    with pytest.raises(DataError, match="looks like UTF-16-LE text without a byte-order mark, but it has an odd number"):
        load_table(hostile_tables()["utf16-cut-off.csv"], "t.csv")
    with pytest.raises(DataError, match="zero \\(NUL\\) byte"):  # zeros in a text that is not UTF-16: located
        load_table(b"age,sex,y\n50,m\x00,1\n", "t.csv")
