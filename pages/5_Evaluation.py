"""Evaluation: how good is a list learned this way, against logistic regression?

The paper's evaluation on the prepared data: many random stratified train/test splits; on
each, a list with the current list's settings is learned on the training part and every
stage is measured on the test part (expected entropy, Brier score, AUC, expected loss),
next to logistic regressions on the same features. The page shows the stagewise mean over
the splits with a 95 % confidence band (the paper's Figures 3, 4, 6, 8) and the three-way
view: how many test patients the list decides at each confidence level, and how well; then
the evidence a researcher reports: decision curves of a chosen stage (the list, the
baselines, treat all and none, M's threshold, the bedside stop rule's point), the held-out
calibration hierarchy and curve, and subgroups of the held-out rows (ui.evidence,
psl_triage.judging.evidence). All numbers come from :func:`psl_core.evaluation.monte_carlo_cv`;
this page reads widgets, runs it with a progress bar when asked (ui.evaluation; its sentences:
psl_triage.words.evaluation), and renders, with a CSV download behind every plot.

Session state read: ``"training_session"`` (its current list: its settings are evaluated,
its saved M) and ``"dataset_session"`` (landing page: its prepared
data and table). Written: ``"evaluation_result"`` (dict: the model and data it belongs to,
``"result"``: CVResult), and the widget keys ``"evaluation_splits"`` (starting at the paper's 100
unless the list's training time says they would take long; the time a run should take is said
before it: ui.evaluation.splits_input and run_estimate),
``"evaluation_test_size"``, ``"evaluation_cost_ratio_v<N>"`` (M, starting at the list's saved
M; a new list gets a new N: ui.cost_ratio_input, with ``"evaluation_cost_ratio_list"`` and
``"evaluation_cost_ratio_version"``), ``"evaluation_confidence"``, ``"evaluation_run"``,
``"evaluation_rule"``, ``"evaluation_stage_v<N>"`` and ``"evaluation_download_*"``; the evidence
sections (ui.evidence): ``"evaluation_evidence_stage_v<N>"`` (stages: ui.stage_slider, a new list
starts afresh), ``"evaluation_threshold_range"``,
``"evaluation_every_stage"``, ``"evaluation_subgroup_column"``, ``"evaluation_subgroup_bands"``,
``"evaluation_evidence"`` (results kept per result, list and choice) and
``"evaluation_subgroup_report"`` (the last subgroup table, for the Card page's report).
For a list of the risk within a horizon (follow-up data) the page compares the list's settings
with a Cox model on all features and the naive yes/no list at the horizon instead
(psl_triage.judging.horizon.horizon_comparison; ``"evaluation_horizon"`` keeps the table).
"""

from __future__ import annotations

import streamlit as st

from psl_core.evaluation import MEASURE_LABELS, MEASURES, band_summary
from psl_triage.judging.evidence import held_out_calibration_curve, held_out_decision_curves, held_out_hierarchy
from psl_triage.judging.horizon import horizon_page_note
from psl_triage.plots import stagewise_figure
from psl_triage.words import evaluation as words
from psl_triage.words.common import PAGE_NAMES, page_title
from psl_triage.words.trade_off import where_m_matters
from ui import cost_ratio_input, csv_download, required_list_and_data, shown_errors, stage_slider, trained_metadata
from ui.evaluation import (
    held_out_patients,
    horizon_section,
    last_stage,
    run,
    run_estimate,
    splits_input,
    three_way_section,
)
from ui.evidence import calibration_section, decision_curve_section, kept, subgroup_section, threshold_range
from ui.state_keys import DATASET, EVALUATION_RESULT

ss = st.session_state

st.set_page_config(page_title=page_title("evaluation"), page_icon="🩺", layout="wide")
st.title(words.TITLE)
intro = st.empty()  # the yes/no lists' introduction; a horizon list's section says what it compares
intro.markdown(words.INTRO)

model, prepared = required_list_and_data(words.DATA_PURPOSE, words.NEEDS_LIST)
metadata = trained_metadata()
if horizon_page_note(model, PAGE_NAMES["evaluation"]) is not None:
    intro.empty()
    horizon_section(model, prepared)
    st.stop()

with st.form("evaluation_form"):
    columns = st.columns(4)
    n_splits = splits_input(model, columns[0])
    test_size = columns[1].number_input(words.TEST_FRACTION, 0.1, 0.5, 1 / 3, step=0.05, format="%.2f",
                                        key="evaluation_test_size", persist_state="session",
                                        help=words.TEST_FRACTION_HELP)
    cost_ratio = cost_ratio_input("evaluation", model, metadata, container=columns[2])
    confidence = columns[3].number_input(words.CONFIDENCE, 0.5, 0.99, 0.95, step=0.01,
                                         key="evaluation_confidence", persist_state="session")
    submitted = st.form_submit_button(words.RUN, type="primary", key="evaluation_run")
run_estimate(model, int(n_splits))
st.caption(words.expected_loss(metadata.positive_label))
with shown_errors(words.READING_M):
    # Acting where the point risk is above 1/(1+M), as the decision curves below do: on the
    # risk-averse basis the sentence contradicted them (all treated, yet the curve at treat none)
    where_m, one_sided = where_m_matters(model, float(cost_ratio), *metadata.class_names, float(confidence),
                                         basis="point", curves_here=True)
    (st.info if one_sided else st.caption)(where_m)
if submitted:
    with shown_errors(words.RUNNING):
        run(model, prepared, int(n_splits), float(test_size), float(cost_ratio), float(confidence))

stored = EVALUATION_RESULT.get(ss)
if stored is None or stored["model"] is not model or stored["prepared"] is not prepared:
    st.info(words.RUN_FIRST)
    st.stop()
result = stored["result"]
settings = result.settings
st.caption(words.run_settings(settings))

st.header(words.STAGEWISE_HEADER)
with shown_errors(words.SUMMARIZING_SPLITS):
    summary = band_summary(result.measures)
    grid = st.columns(2)
    for index, measure in enumerate(MEASURES):
        with grid[index % 2]:
            figure, _ = stagewise_figure(summary, measure)
            st.plotly_chart(figure, key=f"evaluation_{measure}")
    st.markdown(words.BETTER)
    left, right = st.columns(2)
    with left:
        csv_download(summary.assign(measure_name=summary["measure"].map(MEASURE_LABELS)),
                     "evaluation_summary", "summary")
    with right:
        csv_download(result.measures, "evaluation_splits", "evaluation_download_splits", words.DOWNLOAD_SPLITS)

st.header(words.THREE_WAY_HEADER)
three_way_section(result, model)

st.header(words.UTILITY_HEADER)
st.markdown(words.DECISION_CURVES)
with shown_errors(words.DRAWING_CURVES):
    evidence_stage = stage_slider("evaluation_evidence", model, words.EVIDENCE_STAGE, last=last_stage(result, model))
    shown_range = threshold_range("evaluation")
    every_stage = st.toggle(words.EVERY_STAGE, key="evaluation_every_stage")
    curves = kept("evaluation", (result,), ("curves", evidence_stage, shown_range, every_stage),
                  lambda: held_out_decision_curves(result, evidence_stage, shown_range, every_stage))
    decision_curve_section("evaluation", curves, settings["cost_ratio"])

st.header(words.CALIBRATION_HEADER)
with shown_errors(words.SUMMARIZING_CALIBRATION):
    hierarchy = kept("evaluation", (result,), ("hierarchy", evidence_stage),
                     lambda: held_out_hierarchy(result, evidence_stage))
    curve = kept("evaluation", (result,), ("curve", evidence_stage),
                 lambda: held_out_calibration_curve(result, evidence_stage))
    calibration_section("evaluation", hierarchy, curve, band_words=words.CALIBRATION_BANDS)

st.header(words.SUBGROUPS_HEADER)
st.markdown(words.SUBGROUPS)
raw = DATASET.get(ss).active.df  # required_list_and_data: the data page's session is there
raw = raw if raw is not None and prepared.X.index.isin(raw.index).all() else None
with shown_errors(words.JUDGING_SUBGROUPS):
    subgroup_section("evaluation", (prepared.X if raw is None else raw).columns,
                     held_out_patients(model, prepared, evidence_stage, raw), settings["cost_ratio"], owner=model)
