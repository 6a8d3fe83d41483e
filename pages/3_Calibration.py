"""Calibration: do the list's probabilities match what happened to the patients?

For the current list (from Train) on the prepared data (from the landing page): the paper's
Figure 1 (outcome against total score with isotonic, beta and sigmoid calibration), a reliability
diagram with the expected calibration error, the calibration hierarchy (O/E, intercept and
slope with intervals, a flexible calibration curve with its bootstrap band beside every
total's observed rate, ICI, E50, E90, Emax; evidence_ui.calibration_section), the Brier score
split into calibration and refinement loss for every stage, and the ROC curve with its
convex hull. All numbers come
from :mod:`psl_core.evaluation` and :mod:`psl_triage.plots`; this page reads widgets, calls
them and renders, with a CSV download of the numbers behind every plot.

Session state read: ``"trained_model"``, ``"trained_metadata"`` (Train) and ``"prepared"``
(landing page). Written: ``"calibration_held_out"`` ((model, prepared, HeldOut): the
train/test rows, recovered or refitted once per list and data) and the widget keys
``"calibration_rows"``, ``"calibration_stage"``, ``"calibration_bins"`` and
``"calibration_download_*"``; ``"calibration_evidence"`` keeps the flexible curve per list,
rows and stage.
For a list of the risk within a horizon (follow-up data) the page shows, on the Train page's
held-out rows, the predicted risk against the Kaplan-Meier risk by the horizon per total and
per tenth of predicted risk (psl_triage.follow_up.horizon_calibration), and nothing else.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from evidence_ui import calibration_section, kept
from psl_core.calibration_measures import flexible_calibration, intercept_and_slope, observed_expected
from psl_core.evaluation import expected_calibration_error, hull_segments
from psl_core.metrics import auc
from psl_core.validation import stage_totals
from psl_triage.card import card_stage
from psl_triage.evidence import hierarchy_table
from psl_triage.follow_up import horizon_calibration, horizon_page_note
from psl_triage.held_out import held_out_rows
from psl_triage.plots import (
    brier_figure,
    calibration_curve_table,
    calibration_figure,
    reliability_figure,
    roc_figure,
    total_points_table,
)
from ui import class_names, csv_download, required_data, required_list, shown_errors

ROWS = {"test": "Held-out test rows", "train": "Training rows"}

ss = st.session_state




def held_out(model, metadata, prepared):
    """The list's train/test rows, computed once per list and dataset."""
    cached = ss.get("calibration_held_out")
    if cached is None or cached[0] is not model or cached[1] is not prepared:
        cached = (model, prepared, held_out_rows(model, metadata, prepared.X, prepared.y))
        ss.calibration_held_out = cached
    return cached[2]


st.set_page_config(page_title="Calibration · PSL Triage", page_icon="🩺", layout="wide")
st.title("Calibration")
st.markdown(
    "Can the list's probabilities be taken at face value? If the list says 30 %, about 30 in "
    "100 such patients should have the outcome. Judge it on rows it never saw: the held-out "
    "test rows."
)

model = required_list()
prepared = required_data("judge the list on")
if (note := horizon_page_note(model, "Calibration")) is not None:
    at_horizon = horizon_calibration(model, ss.get("trained_metadata") or {}, prepared)
    if at_horizon is None:
        st.info(note)
        st.stop()
    st.markdown(
        f"Risk within the horizon ({model.horizon:g}) on the {at_horizon['n_test']} test rows the Train page "
        "held out: the mean predicted risk against the Kaplan-Meier risk observed by the horizon, per total "
        "and per tenth of predicted risk (censoring respected). "
        f"Observed / expected {at_horizon['observed_expected']:.2f}, Brier score {at_horizon['brier']:.3f}, "
        f"AUC {at_horizon['auc']:.3f} at the horizon."
    )
    percent = st.column_config.NumberColumn(format="%.3f")
    config = {"predicted": percent, "observed": percent}
    left, right = st.columns(2)
    left.dataframe(at_horizon["totals"].rename(columns={"group": "total"}), hide_index=True, column_config=config)
    right.dataframe(at_horizon["deciles"].rename(columns={"group": "tenth"}), hide_index=True, column_config=config)
    st.stop()

split = None
with shown_errors("splitting the data into training and test rows"):
    split = held_out(model, ss.get("trained_metadata") or {}, prepared)
if split is None:
    st.stop()
st.caption(split.description)

left, right = st.columns(2)
with left:
    rows = st.radio("Rows", list(ROWS), format_func=ROWS.get, key="calibration_rows", horizontal=True,
                    persist_state="session")
with right:
    last = split.model.n_stages_ - 1
    if ss.get("calibration_stage", last) > last:
        del ss["calibration_stage"]
    stage = st.slider("Stage (number of features asked)", 0, max(last, 1), min(card_stage(split.model), last),
                      key="calibration_stage", disabled=last == 0, persist_state="session",
                      help="Starts at the length the internal cross-validation recommends, if the list has one.")
    stage = min(stage, last)
X, y = (split.X_test, split.y_test) if rows == "test" else (split.X_train, split.y_train)
fitted = split.model

st.header("Outcome by total score")
st.markdown(
    f"Each dot is a patient of the {ROWS[rows].lower()} at their total score after {stage} "
    "feature(s), at the top if they had the outcome, at the bottom if not (spread out a little "
    "so they do not overlap). The lines are calibrations fitted to these dots: the paper's "
    "isotonic (a staircase that never goes down) and beta (a smooth curve), and the sigmoid "
    "(a logistic curve in the total, the recommended setup's); the diamonds are the list's own "
    "probabilities."
)
with shown_errors("drawing the calibration plot"):
    figure, table = calibration_figure(fitted, X, y, stage, class_names=class_names())
    st.plotly_chart(figure, key="calibration_figure1")
    csv_download(table, f"calibration_stage_{stage}", "calibration_download_figure1")

st.header("Reliability")
st.markdown(
    "Patients grouped by their predicted probability: the observed share with the outcome "
    "against the mean prediction. On the diagonal the list is calibrated; the expected "
    "calibration error (ECE) is the average distance, weighted by group size."
)
with shown_errors("drawing the reliability diagram"):
    n_bins = st.slider("Groups (bins of equal width)", 2, 20, 10, key="calibration_bins",
                       persist_state="session")
    p = fitted.predict_proba(X, stage=stage)[:, 1]
    figure, table = reliability_figure(y, p, n_bins)
    st.metric("Expected calibration error", f"{expected_calibration_error(table):.3f}")
    st.plotly_chart(figure, key="calibration_reliability")
    csv_download(table, f"reliability_stage_{stage}", "calibration_download_reliability")

st.header("Calibration hierarchy: mean, weak and moderate")
st.markdown(
    "O/E (observed over expected events), the calibration intercept and slope with their 95 % "
    "intervals, and a flexible calibration curve with a band that holds the whole true curve "
    "with 95 % confidence, beside the observed rate of every total with its Clopper–Pearson interval."
)
with shown_errors("fitting the flexible calibration curve"):
    if y.min() == y.max() or np.ptp(p) == 0:
        st.info("These rows have one outcome only, or one risk for everyone at this stage: there is no curve to fit.")
    else:
        flexible = kept("calibration", (fitted, X), ("flexible", rows, stage), lambda: flexible_calibration(y, p))
        numbers = {"observed_expected": observed_expected(y, p), **intercept_and_slope(y, p), **flexible.summary}
        totals, _ = stage_totals(fitted, X, stage)
        calibration_section(
            "calibration", hierarchy_table(numbers), calibration_curve_table(flexible),
            total_points_table(totals[:, stage], y, p),
            band_words=f"The band: {flexible.n_boot} bootstrap resamples of these rows (sup-t); ICI, E50, E90 "
                       "and Emax have bootstrap intervals.",
        )

st.header("Brier score: calibration and refinement")
st.markdown(
    "The Brier score (mean squared difference between probability and outcome; lower is "
    "better) of every stage, split exactly into **calibration loss** (the probabilities differ "
    "from the observed rates of their groups) and **refinement loss** (the groups mix patients "
    "with and without the outcome: only more or better features lower it). "
    "*Refinement after monotone recalibration* is the Brier score the stage would reach if its "
    "probabilities were recalibrated on these rows without changing their order."
)
with shown_errors("splitting the Brier score"):
    figure, table = brier_figure(fitted, X, y)
    st.plotly_chart(figure, key="calibration_brier")
    st.dataframe(
        table.rename(columns={
            "stage": "Stage", "brier": "Brier score", "calibration_loss": "Calibration loss",
            "refinement_loss": "Refinement loss",
            "hull_refinement_loss": "Refinement after monotone recalibration",
        }),
        hide_index=True, key="calibration_brier_table",
    )
    csv_download(table, "brier_decomposition", "calibration_download_brier")

st.header("ROC curve")
st.markdown(
    "How well the stage ranks patients with the outcome above those without: each point is a "
    "cut-off on the probability. The convex hull joins the best cut-offs; the share of patients "
    "with the outcome on each of its segments is the isotonic calibration of those probabilities."
)
with shown_errors("drawing the ROC curve"):
    figure, table = roc_figure(y, p)
    st.metric("AUC (area under the ROC curve)", f"{auc(y, p):.3f}")
    st.plotly_chart(figure, key="calibration_roc")
    csv_download(table, f"roc_stage_{stage}", "calibration_download_roc")
    st.dataframe(
        hull_segments(y, p).rename(columns={
            "score_high": "Highest probability", "score_low": "Lowest probability",
            "positives": "With outcome", "negatives": "Without outcome",
            "rate": "Share with outcome", "slope": "Slope",
        }),
        hide_index=True, key="calibration_hull_table",
    )
