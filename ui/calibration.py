"""The Calibration page's parts (Streamlit): the stage slider, and a horizon list's calibration
at the horizon.

Kept out of ``pages/`` because Streamlit turns every file there into a page. Every sentence
is :mod:`psl_triage.words.calibration`'s; the numbers are :mod:`psl_triage.follow_up`'s.
"""

from __future__ import annotations

import streamlit as st

from psl_triage.card import card_stage
from psl_triage.follow_up import horizon_calibration, horizon_page_note, horizon_span
from psl_triage.plots import horizon_calibration_figure
from psl_triage.words import calibration as words
from psl_triage.words.common import PAGE_NAMES
from ui import csv_download, per_list_key, shown_errors, trained_metadata


def stage_slider(model, fitted=None) -> int:
    """The stage the page judges (``"calibration_stage_v<N>"``, one per list): a new list
    starts at the recommended stage (:func:`psl_triage.card.card_stage`), the one Triage and
    the card use, of ``fitted`` (the list judged, when the page refitted it) or the list."""
    state, fitted = st.session_state, model if fitted is None else fitted
    last, stage_key = fitted.n_stages_ - 1, per_list_key("calibration_stage", model)
    if state.get(stage_key, last) > last:
        del state[stage_key]
    stage = st.slider(words.STAGE, 0, max(last, 1), min(card_stage(fitted), last), key=stage_key,
                      disabled=last == 0, persist_state="session", help=words.STAGE_HELP)
    return min(stage, last)


def horizon_section(model, prepared) -> None:
    """A horizon list's calibration at the horizon on the Train page's held-out rows, at the
    chosen stage: the measures, the figure and the tables per total and per tenth; the
    page's note when the held-out rows are unknown. Stops the page (nothing else applies)."""
    metadata = trained_metadata()
    stage = stage_slider(model)
    at_horizon = None
    with shown_errors(words.DRAWING_CALIBRATION):
        at_horizon = horizon_calibration(model, metadata, prepared, stage)
    if at_horizon is None:
        st.info(horizon_page_note(model, PAGE_NAMES["calibration"], metadata))
        st.stop()
    st.markdown(words.horizon_summary(horizon_span(model, metadata), at_horizon))
    st.plotly_chart(horizon_calibration_figure(at_horizon["totals"], at_horizon["deciles"]),
                    key="calibration_horizon_figure")
    risk = st.column_config.NumberColumn(format=words.MEASURE_FORMAT)
    config = {"predicted": risk, "observed": risk}
    left, right = st.columns(2)
    left.dataframe(at_horizon["totals"].rename(columns={"group": words.HORIZON_TOTAL}), hide_index=True,
                   column_config=config)
    right.dataframe(at_horizon["deciles"].rename(columns={"group": words.HORIZON_TENTH}), hide_index=True,
                    column_config=config)
    csv_download(at_horizon["totals"], f"risk_at_horizon_stage_{stage}", "calibration_download_horizon")
    st.stop()
