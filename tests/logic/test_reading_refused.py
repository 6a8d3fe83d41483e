"""Files read right or refused with the reason (issue 40, item 6): zero bytes located, an
encrypted workbook named, numbers a saved list cannot hold read as missing at upload."""

import numpy as np
import pytest

from psl_core.errors import DataError
from psl_triage.data import load_table
from tests.hostile_corpus import ENCRYPTED_WORKBOOK, hostile_tables, through_the_app


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
