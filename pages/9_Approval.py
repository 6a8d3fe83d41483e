"""Approval: the saved lists' way to clinical use (a shared ward's page, offered with sign-in).

Every saved list with where it stands (draft, proposed, approved, sent back with the reason,
withdrawn), who saved, proposed and approved it, and a button per step the user's role may take
on it now (ui.approval): a researcher proposes a draft, an approver approves a proposed list
or sends it back with a reason and withdraws an approved one, a researcher or an administrator
archives a list not in use. Each step is checked again when it is taken (role, state, four
eyes) and recorded (psl_triage.ward.approval). States are read from the record on every run.

Each list also opens on the Card page for its card and report (the evidence an approver reads),
for a role that has the Card page.

Session state: ``"approval_message"`` (the last step's outcome); widget keys
``"approval_<step>_<file>"``, ``"approval_reason_<file>"`` and ``"approval_card_<file>"`` (which
sets the Card page's ``"card_model_choice"``).
"""

from __future__ import annotations

import streamlit as st

from psl_triage.model_file.store import list_models
from psl_triage.ward.approval import ListState, states
from psl_triage.words import md
from psl_triage.words import ward as words
from psl_triage.words.common import page_title
from ui.approval import last_message, list_section
from ui.ward import viewer

st.set_page_config(page_title=page_title("approval"), page_icon="🩺", layout="wide")
st.title(words.APPROVAL_TITLE)
st.markdown(words.APPROVAL_INTRO)
last_message()

stored, problems = list_models()
for problem in problems:
    st.caption(f"{md(problem)}.")
if not stored:
    st.info(words.NO_SAVED_LISTS)
    st.stop()
known = states()
user = viewer()
for entry in stored:
    list_section(entry, known.get(entry.path.name, ListState()), user)
