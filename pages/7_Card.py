"""Card: a list on one printed page, and its model report.

The page reads widgets, calls :mod:`psl_triage.judging.card` and renders: which list (the Train
page's or any saved one, ui.list_picker), how many questions the
card holds (the recommended length by default) and M (the list's saved M by default), the
card as the browser will print it, and two downloads: the card (HTML, print it from the
browser or save it as PDF) and the model report (HTML, the TRIPOD items the app knows, with
the calibration hierarchy, decision curves and subgroups the Evaluation and Validate pages
computed for this list in this session).

Session state read: ``"training_session"`` (its current list),
``"evaluation_result"`` (Evaluation), ``"evaluation_subgroup_report"`` and
``"validate_subgroup_report"`` (ui.evidence.subgroup_section) and ``"validate_site_report"``
(ui.evidence.site_evidence), ``"monitor_result"`` (the Monitor page, ui.monitoring). Written: the
widget keys ``"card_model_choice"`` (with ``"card_seen_trained"``), ``"card_stage_v<N>"`` (a new list starts
at its recommended stage: ui.stage_slider), ``"card_cost_ratio_v<N>"`` (ui.cost_ratio_input, with
``"card_cost_ratio_list"`` and ``"card_cost_ratio_version"``), ``"card_view"``,
``"card_download_card"`` and ``"card_download_report"``, and the export's ``"card_export_prepare"``,
``"card_export_for"`` (what it was built for) and ``"card_export_<file>"`` (ui.export).
"""

from __future__ import annotations

import streamlit as st

from psl_triage.judging.card import card_html, report_html
from psl_triage.judging.evidence import report_evidence
from psl_triage.model_file.files import download_file_name
from psl_triage.model_file.writer import list_identity
from psl_triage.words import card as words
from psl_triage.words import md
from psl_triage.words.common import page_title
from ui import cost_ratio_input, list_picker, shown_errors, stage_slider
from ui.export import export_downloads
from ui.monitoring import monitoring_of
from ui.state_keys import EVALUATION_HORIZON, EVALUATION_RESULT
from ui.ward import approval_line, export_click

ss = st.session_state


def session_evidence(model, stage: int) -> dict:
    """What the Evaluation and Validate pages computed for this list in this session."""
    stored = EVALUATION_RESULT.get(ss)
    evaluation = stored["result"] if stored and stored.get("model") is model else None
    reports = [(where, column, table) for owner, where, column, table in
               (ss.get(f"{prefix}_subgroup_report") or (None,) * 4 for prefix in ("evaluation", "validate"))
               if owner is model and table is not None]
    site = ss.get("validate_site_report")
    horizon = EVALUATION_HORIZON.get(ss)
    return report_evidence(stage, evaluation, reports, site if site and site["owner"] is model else None,
                           horizon if horizon and horizon.get("model") is model and "n_splits" in horizon else None)

st.set_page_config(page_title=page_title("card"), page_icon="🩺", layout="wide")
st.title(words.TITLE)
st.markdown(words.INTRO)

model, metadata, _, _ = list_picker("card", words.NO_LIST, words.LIST_LABEL)
st.markdown(list_identity(metadata))
approval = approval_line(ss.get("card_model_choice"))
if approval:
    st.caption(md(approval))

left, right = st.columns(2)
stage = stage_slider("card", model, words.questions_on_card(len(model.literals_)), container=left)
cost_ratio = cost_ratio_input("card", model, metadata, container=right)

card = report = None
with shown_errors(words.BUILDING_CARD):
    card = card_html(model, metadata, int(stage), cost_ratio, approval=approval)
    report = report_html(model, metadata, int(stage), cost_ratio,
                         {**session_evidence(model, int(stage)), "monitoring": monitoring_of(model)}, approval=approval)
if card is None:
    st.stop()
stem = download_file_name(metadata.default_name).removesuffix(".json")
download_card, download_report = st.columns(2)
download_card.download_button(
    words.DOWNLOAD_CARD, data=card.encode(), file_name=f"{stem}-card.html",
    mime="text/html", key="card_download_card", type="primary", **export_click(f"{stem}-card.html", ss.get("card_model_choice")),
)
download_report.download_button(
    words.DOWNLOAD_REPORT, data=report.encode(), file_name=f"{stem}-report.html",
    mime="text/html", key="card_download_report", **export_click(f"{stem}-report.html", ss.get("card_model_choice")),
)
export_downloads(model, metadata, int(stage), cost_ratio, stem)
# Every text from the list or its file is HTML-escaped in psl_triage.judging.card and the page has no script.
with st.container(key="card_view"):
    st.iframe(card, height=900)
