"""Intervals: how sure is the list at each total score, and when can it decide?

For the current list (from Train): the probability of every reachable total of a stage with
its confidence interval, against the decision threshold 1/(1+M) (the paper's
Figure 5), and the same for every stage side by side, so the widening of the intervals as
the list grows is visible. Only the list is needed: the intervals come from its training
counts. The Data page's table is not read, so it is neither checked against the list nor
mentioned (Calibration and Evaluation, which use it, check it: ui.required_list_and_data). Figures and tables come from :mod:`psl_triage.plots`; this page reads widgets, calls
them and renders.

Session state read: ``"training_session"`` (its current list). Written: the
widget keys ``"intervals_cost_ratio_v<N>"`` (M, starting at the list's saved M; a new list
gets a new N: ui.cost_ratio_input, with ``"intervals_cost_ratio_list"`` and
``"intervals_cost_ratio_version"``), ``"intervals_confidence"``, ``"intervals_stage_v<N>"`` (a new
list starts at its recommended stage, as on Triage and Calibration: ui.stage_slider), ``"intervals_evidence"`` (the every-stage figure per list, M and
level, not drawn again when only the stage moves: ui.evidence.kept) and
``"intervals_download_*"``.
"""

from __future__ import annotations

import streamlit as st

from psl_core.cost_ratio import decision_threshold
from psl_triage.plots import interval_figure, interval_grid_figure
from psl_triage.words import calibration as words
from psl_triage.words.common import PAGE_NAMES, page_title
from ui import class_names, cost_ratio_input, csv_download, required_list, shown_errors, stage_slider, trained_metadata
from ui.evidence import kept

st.set_page_config(page_title=page_title("intervals"), page_icon="🩺", layout="wide")
st.title(PAGE_NAMES["intervals"])
st.markdown(words.INTERVALS_INTRO)

model = required_list()

left, middle, right = st.columns(3)
with left:
    cost_ratio = cost_ratio_input("intervals", model, trained_metadata(), help=words.INTERVALS_M_HELP)
with middle:
    confidence = st.slider(
        words.INTERVALS_CONFIDENCE, 0.50, 0.99, 0.95, step=0.01, key="intervals_confidence",
        persist_state="session", help=words.INTERVALS_CONFIDENCE_HELP,
    )
with right:
    stage = stage_slider("intervals", model, words.STAGE)
st.markdown(words.interval_colours(decision_threshold(cost_ratio)))

st.header(words.stage_heading(stage))
with shown_errors(words.DRAWING_INTERVALS):
    figure, table = interval_figure(model, stage, cost_ratio, confidence, positive_label=class_names()[0])
    st.plotly_chart(figure, key="intervals_stage_figure")
    st.dataframe(table, hide_index=True, key="intervals_stage_table")
    csv_download(table, f"intervals_stage_{stage}", "intervals_download_stage")

st.header(words.EVERY_STAGE)
st.markdown(words.EVERY_STAGE_TEXT)
with shown_errors(words.DRAWING_EVERY_STAGE):
    figure, table = kept("intervals", (model,), ("grid", cost_ratio, confidence),
                         lambda: interval_grid_figure(model, cost_ratio, confidence))
    st.plotly_chart(figure, key="intervals_grid_figure")
    csv_download(table, "intervals_all_stages", "intervals_download_grid")
