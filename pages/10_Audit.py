"""Audit: the record of who did what to which list (a shared ward's page, for administrators).

The chain's check first (psl_triage.ward.audit.AuditLog.verify: intact, or which entry was
changed or deleted), then the entries filtered by user, action, list and dates, and the
entries shown as CSV or as a FHIR R4 Bundle of AuditEvents (psl_triage.ward.audit_export);
each download is itself recorded as an export.

Session state: widget keys ``"audit_user"``, ``"audit_action"``, ``"audit_text"``,
``"audit_dates"``, ``"audit_download_csv"`` and ``"audit_download_fhir"``.
"""

from __future__ import annotations

import json
from datetime import date

import streamlit as st

from psl_core.errors import PSLError
from psl_triage.ward.audit import AuditLog
from psl_triage.ward.audit_export import audit_bundle, entries_table, filtered
from psl_triage.words import md
from psl_triage.words import ward as words
from psl_triage.words.common import page_title
from ui import csv_download
from ui.ward import record_export

st.set_page_config(page_title=page_title("audit"), page_icon="🩺", layout="wide")
st.title(words.AUDIT_TITLE)
st.markdown(words.AUDIT_INTRO)

log = AuditLog()
try:
    entries = log.entries()
except PSLError as exc:
    st.error(md(exc))
    st.stop()
if not entries:
    st.info(words.NO_ENTRIES)
    st.stop()
problems = log.verify()
if problems:
    for problem in problems:
        st.error(problem)  # numbers only: no name from a file
else:
    st.success(words.CHAIN_INTACT.format(n=len(entries)))

left, middle, right, dates_column = st.columns(4)
user = left.selectbox(words.FILTER_USER, ["", *sorted({e.user for e in entries})], key="audit_user",
                      format_func=lambda name: name or words.EVERYONE)
action = middle.selectbox(words.FILTER_ACTION, ["", *words.ACTION_NAMES], key="audit_action",
                          format_func=lambda code: words.ACTION_NAMES.get(code, words.EVERY_ACTION))
text = right.text_input(words.FILTER_TEXT, key="audit_text")
first = date.fromisoformat(entries[0].at[:10])
dates = dates_column.date_input(words.FILTER_DATES, (first, date.today()), key="audit_dates")
since, until = (tuple(dates) + (None, None))[:2] if isinstance(dates, (tuple, list)) else (dates, None)
shown = filtered(entries, user, action, text, since, until)
st.caption(words.ENTRIES_SHOWN.format(shown=len(shown), total=len(entries)))
st.dataframe(entries_table(shown), hide_index=True)

csv_column, fhir_column = st.columns(2)
with csv_column:
    csv_download(entries_table(shown), "audit", "audit_download_csv", words.DOWNLOAD_CSV, record_export, ("audit.csv",))
fhir_column.download_button(words.DOWNLOAD_FHIR, json.dumps(audit_bundle(shown), indent=1), file_name="audit-fhir.json",
                            mime="application/fhir+json", key="audit_download_fhir", on_click=record_export,
                            args=("audit-fhir.json",))
