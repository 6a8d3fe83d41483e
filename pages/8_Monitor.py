"""Monitor: a list in use, watched over the patients seen since it went live.

Reads widgets, calls :mod:`psl_triage.judging.monitoring` (larger widgets and sections:
ui.monitoring; columns matched and values mapped as on Validate: ui.validate; sentences:
psl_triage.words.monitoring) and renders: the list (ui.list_picker), the patients' table (kept
across pages, ui.kept_upload), the list's columns matched by name (the user maps the rest), the
date column, the outcome and its values (a horizon list: the event and the follow-up time, its outcome
by the horizon censoring weighted), the period; then per period the patients, outcome rate,
O/E, calibration intercept and slope with intervals, Brier score, AUC, net benefit at 1/(1+M), the
shares ruled in / out / uncertain and stopped at each question; the risk-adjusted CUSUM with its
limit and the date it signals; the closed test's update since a chosen date (recalibrate: one click
hands those patients to Validate's recalibration); and each question's answers against training.
Every table downloads as CSV.

Session state: keeps ``"monitor_result"`` (ui.monitoring.KEPT) and ``"monitor_table"``; widget keys
``"monitor_upload"``, ``"monitor_date"``, ``"monitor_outcome"``, ``"monitor_time"``, ``"monitor_positive_<column>"``,
``"monitor_period"``, ``"monitor_test_from"``, ``"monitor_recalibrate"``, ``"monitor_download_*"``
and the Validate page's column maps (``"validate_map_<column>"``, ``"validate_value_*"``...); the
recalibration link writes ``"validate_table"``.
"""

from __future__ import annotations

import streamlit as st

from psl_triage.judging.monitoring import monitored_table
from psl_triage.model_file.writer import list_identity
from psl_triage.words import md
from psl_triage.words import monitoring as words
from psl_triage.words.common import page_title
from ui import kept_upload, list_picker, shown_errors, shown_upload, stopped_unless, table_uploader
from ui.monitoring import answers_section, cusum_section, kept_monitoring, periods_section, settings, update_section
from ui.validate import matched_columns, value_maps

st.set_page_config(page_title=page_title("monitor"), page_icon="🩺", layout="wide")
st.title(words.TITLE)
st.markdown(words.INTRO)
model, metadata, _, _ = list_picker("monitor", words.NO_LIST, words.LIST_LABEL)
st.markdown(list_identity(metadata))

st.header(words.TABLE_HEADER)
uploaded, limit_mb = table_uploader(words.UPLOAD_WHAT, "monitor_upload")
name, data = stopped_unless(kept_upload(uploaded, "monitor_table"), words.UPLOAD_FIRST)
frame = shown_upload(data, name, limit_mb, words.READING_TABLE, words.table_size)

st.header(words.MATCH_HEADER)
matched = matched_columns(model, metadata, frame)
maps = value_maps(model, metadata, frame, matched)

st.header(words.SETTINGS_HEADER)
date, outcome, positive, time, period = settings(model, metadata, frame)
monitored = None
with shown_errors(words.CODING_TABLE):
    monitored = monitored_table(model, metadata, frame, matched, outcome, positive, date, maps, time)
for note in stopped_unless(monitored).table.notes:
    st.caption(md(note))
first, last = monitored.dates.iloc[0].date(), monitored.dates.iloc[-1].date()
test_from = st.date_input(words.TEST_FROM, value=first, min_value=first, max_value=last, key="monitor_test_from")

result = None
with shown_errors(words.MONITORING), st.spinner(words.MONITORING_NOW):
    result = kept_monitoring(model, metadata, monitored, period, test_from)
stopped_unless(result)

st.header(words.PERIODS_HEADER)
periods_section(result)
st.header(words.CUSUM_HEADER)
cusum_section(result)
st.header(words.UPDATE_HEADER)
update_section(result, frame, name, monitored.dates)
st.header(words.ANSWERS_HEADER)
answers_section(model, metadata, result)
