"""Exports that cannot attack a spreadsheet (issue 40, item 3): every CSV the app writes goes
through one function that neutralises a text cell or a column name beginning with =, +, -, @,
a tab or a carriage return (OWASP, CSV injection); numbers stay numbers."""

import csv
import io
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from psl_triage.model_file.csv_export import FAST_ROWS, csv_bytes, neutralised
from tests.hostile_corpus import FORMULAS_IN_DISGUISE
from tests.paths import ROOT

PAYLOADS = ['=HYPERLINK("http://127.0.0.1:9/x","click")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(1+1)*cmd|' /C calc'!A0",
            "\t=1+1", "\r=1+1"]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_formula_in_a_cell_or_a_name_is_written_as_text(payload):
    table = pd.DataFrame({payload: [payload, "plain"], "category": pd.Categorical([payload, "x"]),
                          "risk": [-0.25, 0.5]})
    header, first, second = list(csv.reader(io.StringIO(csv_bytes(table).decode("utf-8"), newline="")))
    assert header == ["'" + payload, "category", "risk"]
    assert first == ["'" + payload, "'" + payload, "-0.25"]  # a number stays a number
    assert second == ["plain", "x", "0.5"]


@pytest.mark.parametrize("payload", FORMULAS_IN_DISGUISE)
def test_a_formula_behind_white_space_or_in_full_width_is_written_as_text(payload):
    table = pd.DataFrame({payload: [payload], "risk": [-0.25]})
    header, first = list(csv.reader(io.StringIO(csv_bytes(table).decode("utf-8"), newline="")))
    assert header == ["'" + payload, "risk"] and first == ["'" + payload, "-0.25"]


def test_numbers_stay_numbers_and_plain_text_is_untouched():
    table = pd.DataFrame({"stage": [0, 1], "brier": [-0.0, -1.5e-3], "flag": [True, False], "name": ["age", "a-b"]})
    read = pd.read_csv(io.BytesIO(csv_bytes(table)))
    assert read["brier"].dtype.kind == "f" and read["stage"].dtype.kind == "i"
    assert read["name"].tolist() == ["age", "a-b"]
    assert neutralised(-3) == -3 and neutralised("-3") == "'-3"


def test_the_app_writes_csv_downloads_only_through_the_one_function():
    """Every CSV offered for download: a "text/csv" button only in ui.csv_download, and no
    download button handed a to_csv of its own (a table handed back to the app itself, as the
    Monitor page hands rows to Validate, is not a download)."""
    typed, raw = [], []
    for folder in ("ui", "pages", "psl_triage"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if "text/csv" in text:
                typed.append(str(path.relative_to(ROOT)))
            if re.search(r"download_button\((?:[^()]|\([^()]*\))*to_csv", text):
                raw.append(str(path.relative_to(ROOT)))
    assert typed == ["ui/__init__.py"] and raw == []
    assert "csv_bytes(table)" in (ROOT / "ui" / "__init__.py").read_text(encoding="utf-8")


def test_streamlit_s_own_table_export_is_off():
    config = (Path(ROOT) / ".streamlit" / "config.toml").read_text(encoding="utf-8")
    assert re.search(r"(?m)^disableDataExport = true$", config)


def test_a_large_table_of_numbers_and_dates_reads_back_the_same():
    """Written by Arrow's writer (more than FAST_ROWS rows, no text): the same numbers, the dates
    as dates, the names neutralised as ever."""
    n = FAST_ROWS + 5
    rng = np.random.default_rng(0)
    table = pd.DataFrame({"=Patient": np.arange(1, n + 1), "Date": pd.Timestamp("2024-01-01")
                          + pd.to_timedelta(np.arange(n) % 900, unit="D"), "Risk": rng.random(n),
                          "Chart": np.where(np.arange(n) % 7 == 0, np.nan, rng.normal(size=n))})
    text = csv_bytes(table).decode("utf-8")
    assert text.splitlines()[1].split(",")[1] == "2024-01-01"
    back = pd.read_csv(io.StringIO(text), parse_dates=["Date"])
    assert list(back.columns) == ["'=Patient", "Date", "Risk", "Chart"]
    assert (back["'=Patient"].to_numpy() == table["=Patient"].to_numpy()).all()
    assert (back["Date"] == table["Date"]).all()
    assert back["Risk"].to_numpy() == pytest.approx(table["Risk"].to_numpy(), rel=1e-15)
    assert np.array_equal(np.isnan(back["Chart"]), np.isnan(table["Chart"]))
