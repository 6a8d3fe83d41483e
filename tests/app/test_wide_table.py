"""A wide table on the Data page (issue 31, item 6): its column widgets come a page at a time,
and its column summary is computed once per table and choices, not on every rerun."""


import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

import psl_triage.data.session
from tests.paths import ROOT
from ui import COLUMNS_PER_PAGE


def wide_csv(n_columns=120, n_rows=80):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(n_rows, n_columns)).round(2), columns=[f"lab{i}" for i in range(n_columns)])
    frame["outcome"] = rng.integers(0, 2, n_rows)
    return frame.to_csv(index=False).encode()


def test_a_wide_tables_column_widgets_are_paged_and_its_summary_computed_once(monkeypatch):
    calls = []
    summary = psl_triage.data.session.column_summary
    monkeypatch.setattr(psl_triage.data.session, "column_summary", lambda *a, **k: calls.append(1) or summary(*a, **k))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.radio(key="w_source").set_value("upload").run()
    at.file_uploader(key="w_upload").set_value(("wide.csv", wide_csv(), "text/csv")).run()
    assert not at.exception
    at.selectbox(key=next(w.key for w in at.selectbox if w.key.startswith("w_outcome"))).set_value("outcome").run()
    type_widgets = [w for w in at.selectbox if w.key.startswith("w_type_v")]
    assert len(type_widgets) == COLUMNS_PER_PAGE
    pager = next(w for w in at.selectbox if w.key.startswith("w_type_page"))
    assert pager.options[-1] == "91–120 of 120"
    before = len(calls)
    assert before >= 1
    pager.set_value(90).run()  # another page: the same table and choices
    assert {w.key.split("::")[-1] for w in at.selectbox if w.key.startswith("w_type_v")} == {
        f"lab{i}" for i in range(90, 120)}
    assert len(calls) == before  # the summary was not computed again
    assert not at.exception
