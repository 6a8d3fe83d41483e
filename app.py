"""PSL Triage: the pages' entry point. Declares the pages and opens one.

Serve it with ``streamlit run serve.py`` (``make run``, the Docker image), which adds the
guards against framing by other sites and the metrics endpoint's exposure;
``streamlit run app.py`` runs it without them, for a computer of one's own (docs/deployment.md).

Each page is a file in ``pages/``, listed here in the order a clinician meets them; the
sidebar shows their titles. The landing page, Data (``pages/0_Data.py``), is the default
page at the app's root URL (for a signed-in user, the first page the role allows); the others keep the URL paths Streamlit derives from their file
names (``/Train``, ``/Triage``...). A page links to another by its file path
(``st.page_link("pages/1_Train.py")``), which resolves against this list.

Declaring the pages with ``st.navigation`` rather than letting Streamlit find them in
``pages/`` is what lets the landing page be called "Data" in the sidebar instead of taking the
entry point's file name. The session-state contract between the pages is documented in each
page's docstring, starting with ``pages/0_Data.py``.

With sign-in configured (an ``[auth]`` section in Streamlit's secrets) the navigation holds
the pages of the signed-in user's role, and the Approval and Audit pages of a shared ward; no
one signed in sees the sign-in page alone (:mod:`ui.ward`).

After the first run's page the server also starts loading psl_core's compiled numba kernels in
a background thread (:func:`psl_core.warmup.warm_kernels`), so that no later page waits for
them. It starts after the page, not before: loading (or, with an empty cache, compiling for
tens of seconds) competes with the page's own script for the interpreter, and the first page
a new user opens is the one that must be quick.
"""

import threading

import streamlit as st

from ui.ward import navigation


def _warm_kernels() -> None:
    from psl_core.warmup import warm_kernels  # imported here: the first page need not wait

    warm_kernels()


@st.cache_resource(show_spinner=False)
def _warm_kernels_in_background() -> threading.Thread:
    """Load psl_core's compiled kernels (or compile what numba's cache lacks) once per server,
    in a thread: the first page does not wait, and the first Train click finds them ready."""
    thread = threading.Thread(target=_warm_kernels, name="psl-warm-kernels", daemon=True)
    thread.start()
    return thread


PAGES = {
    "data": "pages/0_Data.py",
    "train": "pages/1_Train.py",
    "triage": "pages/2_Triage.py",
    "calibration": "pages/3_Calibration.py",
    "intervals": "pages/4_Intervals.py",
    "evaluation": "pages/5_Evaluation.py",
    "validate": "pages/6_Validate.py",
    "card": "pages/7_Card.py",
    "monitor": "pages/8_Monitor.py",
}
# The pages of a shared ward, offered only with sign-in (ui.ward). A bare string here would be
# drawn on every page: Streamlit's magic writes a script's expressions.
WARD_PAGES = {"approval": "pages/9_Approval.py", "audit": "pages/10_Audit.py"}

try:
    st.navigation(navigation(PAGES, WARD_PAGES)).run()
finally:  # after the page, even one that stopped or reran
    _warm_kernels_in_background()
