"""The Approval page's list sections: each saved list's state, its card and report on the Card
page, and the steps the user may take."""

from __future__ import annotations

import streamlit as st

from psl_core import PSLError
from psl_triage.ward.approval import STEPS, step
from psl_triage.words import md
from psl_triage.words import ward as words
from ui.ward import acting_user

MESSAGE = "approval_message"
"""Session state: (kind, text) of the last step taken on the Approval page."""
BUTTONS = {"propose": words.PROPOSE, "approve": words.APPROVE, "send_back": words.SEND_BACK,
           "withdraw": words.WITHDRAW, "delete": words.ARCHIVE}


def _take(action: str, path: str, name: str, reason_key: str) -> None:
    """A button's step, checked again now (role, state, four eyes) and recorded either way."""
    try:
        state = step(acting_user(), action, path, st.session_state.get(reason_key) or "")
        text = words.STEP_DONE.format(action=words.ACTION_NAMES[action].capitalize(), name=name,
                                      state=words.STATE_NAMES[state.state])
        st.session_state[MESSAGE] = ("success", text)
    except (PSLError, OSError) as exc:
        st.session_state[MESSAGE] = ("error", str(exc))


def last_message() -> None:
    """The outcome of the last step, once."""
    kind, text = st.session_state.pop(MESSAGE, (None, None))
    if kind:
        (st.success if kind == "success" else st.error)(md(text))


def list_section(entry, state, user) -> None:
    """One saved list: its label, where it stands, and a button per step the user may take."""
    with st.container(border=True, key=f"approval_list_{entry.path.name}"):
        st.markdown(f"{md(entry.label)}  \n{md(words.list_state_line(state))}")
        if user.can("page:card") and st.button(words.OPEN_CARD, key=f"approval_card_{entry.path.name}"):
            st.session_state["card_model_choice"] = str(entry.path)  # the Card page's list picker
            st.switch_page("pages/7_Card.py")
        actions = [action for action in BUTTONS if user.can(action) and state.state in STEPS[action]]
        if not actions:
            return
        reason_key = f"approval_reason_{entry.path.name}"
        if "send_back" in actions:
            st.text_input(words.REASON, key=reason_key)
        for column, action in zip(st.columns(len(actions)), actions):
            column.button(BUTTONS[action], key=f"approval_{action}_{entry.path.name}", on_click=_take,
                          args=(action, str(entry.path), entry.name, reason_key),
                          type="primary" if action in ("approve", "propose") else "secondary")
