"""PSL Triage: the entry point (``streamlit run app.py``). Declares the pages and opens one.

Each page is a file in ``pages/``, listed here in the order a clinician meets them; the
sidebar shows their titles. The landing page, Data (``pages/0_Data.py``), is the default
page at the app's root URL; the others keep the URL paths Streamlit derives from their file
names (``/Train``, ``/Triage``...). A page links to another by its file path
(``st.page_link("pages/1_Train.py")``), which resolves against this list.

Declaring the pages with ``st.navigation`` rather than letting Streamlit find them in
``pages/`` is what lets the landing page be called "Data" in the sidebar instead of taking the
entry point's file name. The session-state contract between the pages is documented in each
page's docstring, starting with ``pages/0_Data.py``.
"""

import streamlit as st

PAGES = [
    st.Page("pages/0_Data.py", title="Data", default=True),
    st.Page("pages/1_Train.py", title="Train"),
    st.Page("pages/2_Triage.py", title="Triage"),
    st.Page("pages/3_Calibration.py", title="Calibration"),
    st.Page("pages/4_Intervals.py", title="Intervals"),
    st.Page("pages/5_Evaluation.py", title="Evaluation"),
    st.Page("pages/6_Validate.py", title="Validate"),
    st.Page("pages/7_Card.py", title="Card"),
]

st.navigation(PAGES).run()
