"""The export for the hospital's systems on the pages: the Card page's specification and scorers,
the Triage page's FHIR RiskAssessment (psl_triage.bedside.export, psl_triage.model_file.export).

Nothing is sent anywhere: every file is built here and downloaded to the user's computer.
"""

from __future__ import annotations

import json

import streamlit as st

from psl_triage.bedside.export import model_sha256, risk_assessment_of, specification
from psl_triage.bedside.session import TriageSession, TriageSettings
from psl_triage.model_file.export import dumps, javascript_scorer, python_scorer, sql_scorer
from psl_triage.model_file.store import read_model_file
from psl_triage.words import export as words
from ui import TRAINED, shown_errors
from ui.ward import export_click

FILES = (  # (the key of the built files, the file name's end, its type)
    ("specification", "-specification.json", "application/json"),
    ("python", "-scorer.py", "text/x-python"),
    ("javascript", "-scorer.js", "text/javascript"),
    ("sql", "-scorer.sql", "application/sql"),
)


def model_file(prefix: str, model, metadata) -> bytes:
    """The bytes of the model file of the list a page's picker chose (``"<prefix>_model_choice"``):
    the saved file, or the Train page's list as it would be saved (kept in ``"<prefix>_model_file"``)."""
    choice = st.session_state.get(f"{prefix}_model_choice")
    if choice is not None and choice != TRAINED:
        return read_model_file(choice)
    # Written once per list and metadata (the Triage page's record reruns on every answer).
    key = (id(model), json.dumps(metadata.to_dict(), sort_keys=True, default=str))
    kept = st.session_state.get(f"{prefix}_model_file")
    if kept is None or kept[0] != key or kept[1] is not model:
        kept = st.session_state[f"{prefix}_model_file"] = (key, model, model.to_json(metadata.to_dict()).encode())
    return kept[2]


@st.cache_data(max_entries=8, show_spinner=False)
def exported_files(model_bytes: bytes, cost_ratio: float, length: int) -> dict:
    """The specification and its three scorers as texts, by the keys of :data:`FILES`."""
    spec = specification(model_bytes, TriageSettings(cost_ratio=cost_ratio, length=length))
    return {"specification": dumps(spec), "python": python_scorer(spec), "javascript": javascript_scorer(spec),
            "sql": sql_scorer(spec)}


def _prepare(wanted):
    st.session_state["card_export_for"] = wanted


def export_downloads(model, metadata, length: int, cost_ratio: float, stem: str) -> None:
    """The Card page's export: a button that builds it, then a download per file."""
    st.subheader(words.EXPORT_TITLE)
    st.markdown(words.EXPORT_INTRO)
    model_bytes = model_file("card", model, metadata)
    wanted = (model_sha256(model_bytes), float(cost_ratio), int(length))
    if st.session_state.get("card_export_for") != wanted:
        st.button(words.PREPARE_EXPORT, key="card_export_prepare", icon=":material/build:", on_click=_prepare,
                  args=(wanted,))
        return
    files = None
    with shown_errors(words.BUILDING_EXPORT), st.spinner(words.BUILDING_EXPORT_SPINNER):
        files = exported_files(model_bytes, float(cost_ratio), int(length))
    if files is None:
        return
    st.caption(words.export_ready(json.loads(files["specification"])))
    for column, (key, ending, mime) in zip(st.columns(len(FILES)), FILES):
        column.download_button(words.EXPORT_LABELS[key], files[key].encode(), file_name=f"{stem}{ending}", mime=mime,
                               key=f"card_export_{key}", icon=":material/download:", width="stretch",
                               **export_click(f"{stem}{ending}", st.session_state.get("card_model_choice")))


def risk_assessment_download(session: TriageSession, column) -> None:
    """The Triage page's download of the patient's FHIR RiskAssessment, in ``column``."""
    with shown_errors(words.BUILDING_FHIR):
        resource = risk_assessment_of(session, model_file("triage", session.model, session.metadata))
        column.download_button(words.DOWNLOAD_FHIR, json.dumps(resource, indent=2, ensure_ascii=False),
                               file_name="psl-triage-risk-assessment.json", mime="application/fhir+json",
                               key="triage_download_fhir", help=words.FHIR_HELP, on_click="ignore",
                               width="stretch", icon=":material/download:")
