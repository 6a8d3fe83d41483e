"""The landing page's choices (outcome, positive class, column types) survive quick clicks.

Found by the upload tests: a click that reruns the landing page before Streamlit has drawn its
lazily loaded selectboxes (right after the page opened) sometimes resets widgets whose value
app.py sets through st.session_state (its ``bind`` helper) to their first option: the outcome
silently becomes "age" (the first column), or the positive class "0 (no heart disease)" and
the ignored diagnosis code "num" a numeric feature. Passing the bound value as the widget's
default (``index=`` / ``default=``) instead of setting st.session_state[key] avoids it
(checked on a patched copy: 0 of 40 runs wrong, against 3 to 6 of 20 now).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from psl_flows import demo, demo_prepared

ATTEMPTS = 6  # each goes wrong with a probability of roughly 1/5 on the current app


@pytest.mark.xfail(
    strict=False,
    reason="app.py: bound widgets can revert to their first option on an early rerun (see module docstring)",
)
def test_demo_choices_survive_switching_source_right_after_opening(new_app, streamlit_server):
    _, meta = demo()
    prepared = demo_prepared()
    for attempt in range(ATTEMPTS):
        app = new_app()
        page = app.page
        page.goto(streamlit_server)
        app.wait_idle()  # idle, but not necessarily drawn: no wait_for_render on purpose
        app.widget("w_source").get_by_text("Upload my own table").click()
        app.wait_idle()
        app.widget("w_source").get_by_text("Demo").click()
        app.wait_for_render()
        app.widget("w_missing").get_by_text("Drop rows").click()  # a rerun shows the server's state
        app.wait_for_render()
        outcome = app.widget("w_outcome").get_by_role("combobox")
        expect(outcome).to_have_value(f"{meta.columns[meta.outcome].label} ({meta.outcome})", timeout=5_000)
        ready = app.alerts("success").filter(has_text="Ready")
        expect(ready).to_contain_text(
            f"{prepared.n_rows_after} rows and {len(prepared.columns)} features. "
            f"{prepared.n_positive} rows with {prepared.positive_label} (positive)",
            timeout=5_000,
        )
