"""Streamlit helpers shared by the pages (the app's only UI module outside the pages).

Kept out of ``pages/`` because Streamlit turns every file there into a page, and out of
``psl_core`` because the library never imports Streamlit.
"""

import logging
from contextlib import contextmanager

import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

from psl_core import PSLError

logger = logging.getLogger("psl_triage")


@contextmanager
def shown_errors(doing: str):
    """Show psl_core's message for bad input and a plain sentence for anything else.

    Never a traceback in the browser: an unexpected error's traceback goes to the server
    log, where whoever maintains the app can read it.
    """
    try:
        yield
    except PSLError as exc:
        st.error(str(exc))
    except Exception as exc:
        logger.exception("unexpected error while %s", doing)
        st.error(
            f"Something unexpected went wrong while {doing} ({type(exc).__name__}). Nothing was "
            "changed; try again, and if it happens again, tell whoever maintains the app (the "
            "details are in the server log)."
        )


def link(page: str, label: str, fallback: str) -> None:
    """A link to another page; plain text when the page runs on its own (as in tests)."""
    try:
        st.page_link(page, label=label)
    except StreamlitPageNotFoundError:
        st.markdown(fallback)


def csv_download(table, name: str, key: str) -> None:
    """A button that downloads the numbers behind a plot as CSV."""
    st.download_button(
        "Download the numbers (CSV)", table.to_csv(index=False).encode(), file_name=f"{name}.csv",
        mime="text/csv", key=key,
    )


def required_list(reason: str = ""):
    """The list on the Train page, or a hint with a link to Train and a stop of the page."""
    model = st.session_state.get("trained_model")
    if model is None:
        st.info(f"There is no list yet. Train one (or load a model file) on the **Train** page{reason}.")
        link("pages/1_Train.py", "Go to Train", "Open **Train** in the sidebar.")
        st.stop()
    return model


def required_data(purpose: str):
    """The prepared data, or a hint with a link to the start page and a stop of the page."""
    prepared = st.session_state.get("prepared")
    if prepared is None:
        st.info(f"There are no data to {purpose}. Load and prepare a table on the start page.")
        link("pages/0_Data.py", "Go to the start page", "Open the start page (**Data**) in the sidebar.")
        st.stop()
    return prepared
