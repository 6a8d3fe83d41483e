"""The Calibration page's parts (Streamlit): a horizon list's calibration at the horizon.

Kept out of ``pages/`` because Streamlit turns every file there into a page. Every sentence
is :mod:`psl_triage.words.calibration`'s; the numbers are :mod:`psl_triage.data.follow_up`'s.
"""

from __future__ import annotations

import streamlit as st

from psl_triage.judging.horizon import horizon_calibration, horizon_page_note, horizon_span
from psl_triage.plots import horizon_calibration_figure
from psl_triage.words import calibration as words
from psl_triage.words.common import PAGE_NAMES
from ui import csv_download, shown_errors, stage_slider, trained_metadata


def horizon_section(model, prepared) -> None:
    """A horizon list's calibration at the horizon on the Train page's held-out rows, at the
    chosen stage: the measures, the figure and the tables per total and per tenth; the
    page's note when the held-out rows are unknown. Stops the page (nothing else applies)."""
    metadata = trained_metadata()
    stage = stage_slider("calibration", model, words.STAGE)
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
