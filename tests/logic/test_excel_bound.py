"""Excel uploads within a memory bound: an archive that unpacks past the limit is refused from
its directory, before anything is unpacked (psl_triage.data.check_excel_archive)."""

import io
import zipfile

import pandas as pd
import pytest

from psl_core.errors import DataError
from psl_triage.data import MAX_EXCEL_UNPACKED_MB, load_table


# --------------------------------------------------------------- Excel within a memory bound
def inflated_xlsx(padding_bytes, kind="blank"):
    """A small valid workbook whose sheet XML carries ``padding_bytes`` more: blank space
    between rows ("blank"), a last row with one cell of that many letters ("cell"), or rows of
    30 one-digit cells ("cells"). Written in chunks: the padding is never held in memory here.
    bench/excel_memory.py measures reading these."""
    buffer = io.BytesIO()
    pd.DataFrame({"age": [50, 60, 70] * 10, "sick": [0, 1, 1] * 10}).to_excel(buffer, index=False)
    source = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for info in source.infolist():
            content = source.read(info.filename)
            if info.filename != "xl/worksheets/sheet1.xml":
                target.writestr(info, content)
                continue
            head, tail = content.split(b"</sheetData>")
            with target.open(info.filename, "w") as stream:
                one_cell = kind == "cell"
                stream.write(head + (b'<row r="40"><c r="A40" t="inlineStr"><is><t>' if one_cell else b""))
                row = b"<row>" + b"<c><v>1</v></c>" * 30 + b"</row>" if kind == "cells" else None
                for start in range(0, padding_bytes, 2**20):
                    size = min(2**20, padding_bytes - start)
                    stream.write(row * (size // len(row)) if row else (b"x" if one_cell else b" ") * size)
                stream.write((b"</t></is></c></row>" if one_cell else b"") + b"</sheetData>" + tail)
    return out.getvalue()


def test_an_excel_file_that_unpacks_past_the_limit_is_refused_before_reading():
    data = inflated_xlsx((MAX_EXCEL_UNPACKED_MB + 1) * 2**20)
    assert len(data) < 2**20  # a small upload ...
    with pytest.raises(DataError, match=f"unpacks to 51.0 MB.*the limit is {MAX_EXCEL_UNPACKED_MB} MB.*CSV"):
        load_table(data, "inflated.xlsx")  # ... refused from the archive's directory


def test_an_excel_file_with_blank_space_within_the_limit_reads():
    assert len(load_table(inflated_xlsx(2**20), "padded.xlsx").frame) == 30


def test_an_archive_with_a_lying_or_missing_directory_is_not_a_workbook():
    data = inflated_xlsx(0)
    with pytest.raises(DataError, match="not a valid Excel"):
        load_table(data[:-22], "cut.xlsx")
    with pytest.raises(DataError, match="not a valid Excel"):
        load_table(b"PK\x03\x04" + b"\x00" * 100, "fake.xlsx")
