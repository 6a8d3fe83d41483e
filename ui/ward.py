"""The shared ward in the app: sign-in, the pages of the user's role, sign-out, the acting user.

Sign-in is on only with an ``[auth]`` section in Streamlit's secrets
(:mod:`psl_triage.ward.settings`); without it :func:`acting_user` is None, every page is
offered and nothing is checked or recorded, as before there were roles.

A signed-in user is read from ``st.user`` (the identity token's claims) each time it is asked
for, so a write checks the role the token holds at the moment it writes (:func:`acting_user`),
not the one it held when its page was drawn. A page the role does not allow is not given to
``st.navigation``: it is not in the sidebar, and its address answers "page not found" with the
role's first page instead.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from psl_core.errors import PSLError
from psl_triage.ward.access import LOCAL_USER, NotAllowed, User, pages_of
from psl_triage.ward.settings import WardSettings, ward_settings
from psl_triage.words import md
from psl_triage.words import ward as words
from psl_triage.words.common import PAGE_NAMES

SIGNED_IN = "ward_signed_in"
"""Session state: the user whose sign-in this session recorded."""


def settings() -> WardSettings:
    """The ward's settings from Streamlit's secrets and the environment (read on each run:
    cheap, and a changed secrets file takes effect without a restart)."""
    secrets = st.secrets.to_dict() if st.secrets.load_if_toml_exists() else {}
    try:
        return ward_settings(secrets)
    except ValueError as exc:
        st.error(md(exc))
        st.stop()


def acting_user() -> User | None:
    """The signed-in user now (role from the token's claims now), or None without sign-in."""
    ward = settings()
    if not ward.auth:
        return None
    if not st.user.is_logged_in:
        raise NotAllowed(words.SIGN_IN_TEXT)
    return ward.user(st.user.to_dict(), st.context.ip_address or "")


def viewer() -> User:
    """Whose view a page draws: the signed-in user, or the local user with every role."""
    return acting_user() or LOCAL_USER


def navigation(pages: dict[str, str], ward_pages: dict[str, str]) -> list:
    """The ``st.Page`` list of the user: ``pages`` (name -> file) the role allows, and with
    sign-in the ``ward_pages`` (approval, audit) too; the sign-in page alone when no one is
    signed in; the first allowed page is the default."""
    ward = settings()
    if ward.auth and not st.user.is_logged_in:
        return [st.Page(lambda: _sign_in(ward), title=words.SIGN_IN_TITLE, url_path="sign-in", default=True)]
    files = {**pages, **ward_pages} if ward.auth else pages
    user = viewer()
    allowed = pages_of(user, list(files))
    if ward.auth:
        _signed_in(user)
    if not allowed:
        return [st.Page(lambda: st.warning(md(words.NO_ROLE.format(user=user.name, roles=", ".join(words.ROLE_NAMES.values())))),
                        title=words.NO_ROLE_TITLE, url_path="no-role", default=True)]
    return [st.Page(files[name], title=PAGE_NAMES[name], default=name == allowed[0]) for name in allowed]


def _sign_in(ward: WardSettings) -> None:
    st.title(words.SIGN_IN_TITLE)
    st.markdown(words.SIGN_IN_TEXT)
    st.button(words.SIGN_IN, key="ward_sign_in", type="primary", on_click=st.login,
              args=(ward.provider,) if ward.provider else ())


def _signed_in(user: User) -> None:
    """The sidebar's user line and sign-out; the session's sign-in recorded once."""
    from psl_triage.ward import approval  # here: without sign-in no page need load the learner

    ss = st.session_state
    if ss.get(SIGNED_IN) != user:
        try:
            approval.record(user, "sign_in", detail=words.role_list(user.roles))
        except PSLError as exc:  # no record, no use: a ward's actions must be recorded
            st.error(md(exc))
            st.stop()
        ss[SIGNED_IN] = user
    st.sidebar.caption(md(words.SIGNED_IN_AS.format(user=user.name, roles=words.role_list(user.roles))))
    st.sidebar.button(words.SIGN_OUT, key="ward_sign_out", on_click=st.logout)


def record_export(what: str, choice: str | None = None) -> None:
    """Record a download (``what``: the file's name) as an export, with sign-in only; the list
    it exports is named when ``choice`` (a list picker's choice, or a saved file's name) is a
    saved file."""
    user = acting_user()
    if user is None:
        return
    from psl_triage.model_file.store import model_dir
    from psl_triage.ward import approval  # here: without sign-in no page need load the learner

    path = None if choice is None else model_dir() / choice  # a file's name, or its whole path
    listed = path is not None and path.is_file()
    approval.record(user, "export", detail=what, **(approval.identity_of(path) if listed else {}))


def export_click(what: str, choice: str | None = None) -> dict:
    """A download button's ``on_click``: recording the export with sign-in, else "ignore" (no
    rerun, as without a ward)."""
    if not settings().auth:
        return {"on_click": "ignore"}
    return {"on_click": record_export, "args": (what, choice)}


def approval_line(choice: str | None) -> str | None:
    """Who saved and who approved the saved list of a list picker's ``choice`` (a file's path),
    with sign-in; None otherwise."""
    if not settings().auth or not choice:
        return None
    from psl_triage.ward import approval  # here: without sign-in no page need load the learner

    return words.trained_and_approved(approval.states().get(Path(choice).name))
