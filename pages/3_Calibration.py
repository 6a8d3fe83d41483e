"""Calibration: do the list's probabilities match what happened to the patients?

For the current list (from Train) on the prepared data (from the landing page): the paper's
Figure 1 (outcome against total score with isotonic, beta and sigmoid calibration), a reliability
diagram with the expected calibration error, the calibration hierarchy (O/E, intercept and
slope with intervals, a flexible calibration curve with its bootstrap band beside every
total's observed rate, ICI, E50, E90, Emax; ui.evidence.calibration_section), the Brier score
split into calibration and refinement loss for every stage, and the ROC curve with its
convex hull. All numbers come
from :mod:`psl_core.evaluation` and :mod:`psl_triage.plots`; this page reads widgets, calls
them and renders, with a CSV download of the numbers behind every plot.

Session state read: ``"training_session"`` (its current list) and ``"dataset_session"``
(landing page: its prepared data). Written: the widget keys ``"calibration_rows"``, ``"calibration_stage_v<N>"`` (a new list
gets a new N and starts at its recommended stage: ui.per_list_key),
``"calibration_bins"`` and ``"calibration_download_*"``; ``"calibration_evidence"``
(ui.evidence.kept) keeps the train/test rows per list and data (recovered or refitted once)
and the flexible curve per list, rows and stage. Words: :mod:`psl_triage.words.calibration`.
For a list of the risk within a horizon (follow-up data) the page shows, on the Train page's
held-out rows at the chosen stage (the same slider), the predicted risk against the
Kaplan-Meier risk by the horizon per total and per tenth of predicted risk, as a figure and
tables (ui.calibration.horizon_section, psl_triage.judging.horizon.horizon_calibration), and
nothing else.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from psl_core.calibration_measures import flexible_calibration
from psl_core.evaluation import expected_calibration_error, hull_segments
from psl_core.metrics import auc
from psl_core.validation import stage_totals
from psl_triage.judging.evidence import hierarchy_of
from psl_triage.judging.horizon import horizon_page_note
from psl_triage.plots import (
    brier_figure,
    calibration_curve_table,
    calibration_figure,
    reliability_figure,
    roc_figure,
    total_points_table,
)
from psl_triage.training.held_out import held_out_rows
from psl_triage.words import calibration as words
from psl_triage.words.common import PAGE_NAMES, page_title
from ui import csv_download, required_list_and_data, shown_errors, stage_slider, trained_metadata
from ui.calibration import horizon_section
from ui.evidence import calibration_section, kept

st.set_page_config(page_title=page_title("calibration"), page_icon="🩺", layout="wide")
st.title(PAGE_NAMES["calibration"])
st.markdown(words.INTRO)

model, prepared = required_list_and_data(words.DATA_PURPOSE)
if horizon_page_note(model, PAGE_NAMES["calibration"]) is not None:
    horizon_section(model, prepared)

split = None
with shown_errors(words.SPLITTING):
    split = kept("calibration", (model, prepared), "held_out",
                 lambda: held_out_rows(model, trained_metadata(), prepared))
if split is None:
    st.stop()
st.caption(split.description)

left, right = st.columns(2)
with left:
    rows = st.radio(words.ROWS_LABEL, list(words.ROWS), format_func=words.ROWS.get, key="calibration_rows",
                    horizontal=True, persist_state="session")
with right:
    stage = stage_slider("calibration", model, words.STAGE, of=split.model)
X, y = (split.X_test, split.y_test) if rows == "test" else (split.X_train, split.y_train)
fitted = split.model

st.header(words.OUTCOME_BY_TOTAL)
st.markdown(words.outcome_by_total(rows, stage))
with shown_errors(words.DRAWING_CALIBRATION):
    figure, table = calibration_figure(fitted, X, y, stage, class_names=trained_metadata().class_names)
    st.plotly_chart(figure, key="calibration_figure1")
    csv_download(table, f"calibration_stage_{stage}", "calibration_download_figure1")

st.header(words.RELIABILITY)
st.markdown(words.RELIABILITY_TEXT)
with shown_errors(words.DRAWING_RELIABILITY):
    n_bins = st.slider(words.BINS, 2, 20, 10, key="calibration_bins", persist_state="session")
    p = fitted.predict_proba(X, stage=stage)[:, 1]
    figure, table = reliability_figure(y, p, n_bins)
    st.metric(words.ECE, words.measure_text(expected_calibration_error(table)))
    st.plotly_chart(figure, key="calibration_reliability")
    csv_download(table, f"reliability_stage_{stage}", "calibration_download_reliability")

st.header(words.HIERARCHY)
st.markdown(words.HIERARCHY_TEXT)
with shown_errors(words.FITTING_FLEXIBLE):
    if y.min() == y.max() or np.ptp(p) == 0:
        st.info(words.NO_CURVE)
    else:
        flexible = kept("calibration", (fitted, X), ("flexible", rows, stage), lambda: flexible_calibration(y, p))
        totals, _ = stage_totals(fitted, X, stage)
        calibration_section(
            "calibration", hierarchy_of(y, p, flexible), calibration_curve_table(flexible),
            total_points_table(totals[:, stage], y, p),
            band_words=words.band_words(flexible.n_boot),
        )

st.header(words.BRIER)
st.markdown(words.BRIER_TEXT)
with shown_errors(words.SPLITTING_BRIER):
    figure, table = brier_figure(fitted, X, y)
    st.plotly_chart(figure, key="calibration_brier")
    st.dataframe(table.rename(columns=words.BRIER_COLUMNS), hide_index=True, key="calibration_brier_table")
    csv_download(table, "brier_decomposition", "calibration_download_brier")

st.header(words.ROC)
st.markdown(words.ROC_TEXT)
with shown_errors(words.DRAWING_ROC):
    figure, table = roc_figure(y, p)
    st.metric(words.AUC, words.measure_text(auc(y, p)))
    st.plotly_chart(figure, key="calibration_roc")
    csv_download(table, f"roc_stage_{stage}", "calibration_download_roc")
    st.dataframe(hull_segments(y, p).rename(columns=words.HULL_COLUMNS), hide_index=True, key="calibration_hull_table")
