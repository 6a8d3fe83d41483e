"""The landing page's choices (outcome, positive class, column types) survive quick clicks.

Found by the upload tests: a click that reran the landing page before Streamlit had drawn its
lazily loaded selectboxes (right after the page opened) sometimes reset the widgets whose value
the landing page wrote into st.session_state before drawing them (a former ``bind`` helper) to their
first option: the outcome silently became "age" (the first column), or the positive class
"0 (no heart disease)" and the ignored diagnosis code "num" a numeric feature; roughly one
attempt in five went wrong.

The landing page (pages/0_Data.py) now never writes a widget's key: the stored choices are only the widgets' defaults
(``index=`` / ``default=``) and are read back from the widgets, and the widgets for a dataset's
choices are keyed by the dataset version (``w_outcome_v<N>``...), so a new dataset still gets
fresh widgets with its own defaults (see its docstring).
"""

from __future__ import annotations

from playwright.sync_api import expect
from psl_flows import demo, demo_prepared

ATTEMPTS = 6  # with session-state writes, each went wrong with a probability of roughly 1/5


def test_demo_choices_survive_switching_source_right_after_opening(new_app, streamlit_server):
    _, meta = demo()
    prepared = demo_prepared(missing="drop")  # the choice the test clicks
    for _attempt in range(ATTEMPTS):
        app = new_app()
        page = app.page
        page.goto(streamlit_server)
        app.wait_idle()  # idle, but not necessarily drawn: no wait_for_render on purpose
        app.widget("w_source").get_by_text("Upload my own table").click()
        app.wait_idle()
        app.widget("w_source").get_by_text("Demo").click()
        app.wait_for_render()
        app.choice_widget("w_missing").get_by_text("Drop rows").click()  # a rerun shows the server's state
        app.wait_for_render()
        outcome = app.choice_widget("w_outcome").get_by_role("combobox")
        expect(outcome).to_have_value(f"{meta.columns[meta.outcome].label} ({meta.outcome})", timeout=5_000)
        ready = app.alerts("success").filter(has_text="Ready")
        expect(ready).to_contain_text(
            f"{prepared.n_rows_after} rows and {len(prepared.columns)} features. "
            f"{prepared.n_positive} rows with {prepared.positive_label} (positive)",
            timeout=5_000,
        )
