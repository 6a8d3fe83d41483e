"""Validate: a list on another site's table, and recalibration there.

Reads widgets, calls :mod:`psl_triage.judging.validation` and :mod:`psl_core.validation` (larger
widgets: ui.validate; sentences: psl_triage.words.validate) and renders: the list (ui.list_picker),
a second labelled table (kept across pages, ui.kept_upload), the columns matched by name (the user
maps the rest and recodes values coded otherwise), the outcome and its positive values, the
report (calibration-in-the-large and slope, Brier score, AUC with bootstrap intervals, the
reliability plot, every stage) and, if asked, the list recalibrated here and saved as a new version.
A horizon list takes the site's time and event columns and is judged at the horizon, censoring
respected (ui.validate_horizon; keys ``"validate_time"``, ``"validate_horizon_*"``).

Session state: reads ``"training_session"``'s current list; keeps
VALIDATE_REPORT and VALIDATE_SAVED (ui.state_keys); widget keys ``"validate_upload"``,
``"validate_table"``, ``"validate_map_<column>"``, ``"validate_value_<column>_<i>"``,
``"validate_bands_<column>"``, ``"validate_rest_missing_<column>"``, ``"validate_outcome"``,
``"validate_positive"`` (started at the list's outcome and positive values on each new table,
``"validate_defaults_for"``: ui.validate.start_at_defaults), ``"validate_stage"``, ``"validate_keep"``, ``"validate_name"``,
``"validate_recalibrate"``, ``"validate_use"``, ``"validate_download_*"`` and the evidence
sections' (ui.evidence.site_evidence: ``"validate_threshold_range"``, ``"validate_subgroup_*"``,
``"validate_evidence"``, ``"validate_site_report"`` for the Card page's report). Using the
recalibrated list makes it the training session's current list.
"""

from __future__ import annotations

import streamlit as st

from psl_core.survival import is_horizon_list
from psl_core.validation import recalibratable_stages, stagewise_validation, validation_report
from psl_triage.data import count_classes
from psl_triage.judging.validation import (
    looks_like_training,
    outcome_defaults,
    positive_defaults,
    site_table,
    unit_checks,
)
from psl_triage.model_file.writer import list_identity
from psl_triage.plots import reliability_figure
from psl_triage.words import md, visible
from psl_triage.words import validate as words
from psl_triage.words.common import CHOOSE_OUTCOME, page_title
from ui import csv_download, kept_upload, list_picker, shown_errors, shown_upload, stopped_unless, table_uploader
from ui.evidence import site_evidence
from ui.state_keys import VALIDATE_REPORT
from ui.validate import chosen_column, chosen_values, matched_columns, recalibration, start_at_defaults, value_maps
from ui.validate_horizon import horizon_validation

ss = st.session_state


def judged(model, table, stage):
    """validation_report of this list, table and stage, kept until one of them changes: its
    bootstrap is costly on a large table, and the page reruns on every widget change."""
    key = (stage, table.fingerprint)
    kept = VALIDATE_REPORT.get(ss)
    if kept is None or kept[0] is not model or kept[1] != key:
        kept = VALIDATE_REPORT.put(ss, (model, key, validation_report(model, table.X, table.y, stage)))
    return kept[2]


st.set_page_config(page_title=page_title("validate"), page_icon="🩺", layout="wide")
st.title(words.TITLE)
st.markdown(words.INTRO)
model, metadata, _, _ = list_picker("validate", words.NO_LIST, words.LIST_LABEL)
st.markdown(words.validating(list_identity(metadata)))

st.header(words.TABLE_HEADER)
uploaded, limit_mb = table_uploader(words.UPLOAD_WHAT, "validate_upload")
site_name, site_bytes = stopped_unless(kept_upload(uploaded, "validate_table"), words.UPLOAD_FIRST)
if uploaded is None:
    st.caption(words.earlier_upload(site_name))
frame = shown_upload(site_bytes, site_name, limit_mb, words.READING_TABLE, words.table_size)

st.header(words.MATCH_HEADER)
matched = matched_columns(model, metadata, frame)
maps = value_maps(model, metadata, frame, matched)
if is_horizon_list(model):  # time and event columns, measures at the horizon
    horizon_validation(model, metadata, frame, matched, maps, site_name, site_bytes)
    st.stop()
columns = [str(c) for c in frame.columns]
outcome_default, positive_default = outcome_defaults(metadata, frame)
start_at_defaults(model, site_bytes, {"validate_outcome": outcome_default,
                                      "validate_positive": positive_default if outcome_default else None})
outcome = chosen_column(words.OUTCOME_COLUMN, columns, outcome_default, "validate_outcome", words.OUTCOME_PLACEHOLDER,
                        CHOOSE_OUTCOME)
values = [value for value, _ in count_classes(frame[outcome])]
positive = chosen_values(words.positive_values_label(outcome, metadata.positive_label), values,
                         positive_defaults(metadata, frame[outcome]))
table = None
with shown_errors(words.CODING_TABLE):
    table = site_table(model, metadata, frame, matched, outcome, positive, maps)
for note in stopped_unless(table).notes:
    st.caption(md(note))
if same := looks_like_training(metadata, table):
    st.warning(same, icon=":material/warning:")
for warning in unit_checks(metadata, table):
    st.warning(md(warning))

st.header(words.REPORT_HEADER)
stages = stagewise_validation(model, table.X, table.y)
usable = [int(k) for k in stages.index if stages.loc[k, "n_rows"] > 0]
supported = recalibratable_stages(model, table.X, table.y)
recommended = getattr(model, "recommended_stages_", None)
start = max(supported, 0) if recommended is None else min(recommended, max(supported, 0))
stage = st.selectbox(
    words.STAGE_LABEL, usable, index=usable.index(start) if start in usable else 0,
    format_func=lambda k: words.stage_option(k, int(stages.loc[k, "n_rows"])), key="validate_stage",
)
report = None
with shown_errors(words.JUDGING_LIST):
    report = judged(model, table, stage)
for sentence in words.report_sentences(stopped_unless(report)):
    st.markdown(f"- {sentence}")
st.table(words.measures_table(report))
st.caption(words.REPORT_CAPTION.format(n_boot=report.n_boot))
figure, reliability = reliability_figure(report.y, report.p)
st.plotly_chart(figure, key="validate_reliability")
csv_download(reliability, "reliability-at-new-site", "validate_download_reliability")
with st.expander(words.EVERY_STAGE):
    st.dataframe(stages, key="validate_stages")
    csv_download(stages.reset_index(), "validation-by-stage", "validate_download_stages")
with shown_errors(words.JUDGING_EVIDENCE):
    site_evidence("validate", model, table, frame, report, metadata.cost_ratio, site_name,
                  caveat=looks_like_training(metadata, table, visible))

st.header(words.RECALIBRATE_HEADER)
recalibration(model, metadata, table, site_name, stage, supported)
