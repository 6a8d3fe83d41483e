"""Small tables the data package's tests build (tests/logic/test_data_*.py)."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd


def balanced_table(n: int = 40, **extra) -> pd.DataFrame:
    """A small table with a balanced 0/1 outcome and a numeric feature, plus ``extra`` columns."""
    rng = np.random.default_rng(0)
    table = {"outcome": [0, 1] * (n // 2), "value": rng.normal(size=n).round(3)}
    table.update(extra)
    return pd.DataFrame(table)


def xlsx_bytes(sheets: dict[str, pd.DataFrame]) -> bytes:
    buffer = io.BytesIO()
    with pd.ExcelWriter(buffer, engine="openpyxl") as writer:
        for name, frame in sheets.items():
            frame.to_excel(writer, sheet_name=name, index=False)
    return buffer.getvalue()
