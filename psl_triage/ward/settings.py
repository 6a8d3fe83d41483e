"""Whether users sign in, and how the identity token says their roles.

Sign-in is on only when Streamlit's secrets (``.streamlit/secrets.toml``) hold an ``[auth]``
section: Streamlit's own ``st.login`` then signs users in through the hospital's OpenID
Connect provider (Authlib). Without it there is one local user with every role
(:data:`psl_triage.ward.access.LOCAL_USER`) and nothing needs configuring.

The roles come from one claim of the identity token, by default ``groups``; which claim
values give which role is configurable, in the secrets::

    [psl.roles]
    claim = "groups"
    clinician = ["psl-clinicians"]
    researcher = ["psl-researchers"]
    approver = ["psl-approvers"]
    admin = ["psl-admins"]

or in the environment (a Docker container), which wins over the file: ``PSL_ROLE_CLAIM``
and ``PSL_ROLE_CLINICIAN``, ``PSL_ROLE_RESEARCHER``, ``PSL_ROLE_APPROVER``, ``PSL_ROLE_ADMIN``
(values separated by commas). A role not configured is given by a claim value equal to its
own name ("clinician"). The claim may hold a list or one text.

``python -m psl_triage.ward.settings FILE`` writes the ``[auth]`` section into ``FILE`` from
the environment (``PSL_AUTH_REDIRECT_URI``, ``PSL_AUTH_COOKIE_SECRET``, ``PSL_AUTH_CLIENT_ID``,
``PSL_AUTH_CLIENT_SECRET``, ``PSL_AUTH_SERVER_METADATA_URL``), for an image configured by
environment variables alone; it leaves an existing file alone and writes nothing when
``PSL_AUTH_CLIENT_ID`` is not set.
"""

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from psl_triage.ward.access import ROLES, User
from psl_triage.words import ward as words

DEFAULT_CLAIM = "groups"
_NAME_CLAIMS = ("email", "preferred_username", "name", "sub")
"""The claims that name a user in the record, first present first."""
AUTH_ENV = {
    "redirect_uri": "PSL_AUTH_REDIRECT_URI", "cookie_secret": "PSL_AUTH_COOKIE_SECRET",
    "client_id": "PSL_AUTH_CLIENT_ID", "client_secret": "PSL_AUTH_CLIENT_SECRET",
    "server_metadata_url": "PSL_AUTH_SERVER_METADATA_URL",
}
"""Each key of the ``[auth]`` section and the environment variable that gives it."""


@dataclass(frozen=True)
class WardSettings:
    """``auth``: whether users sign in; ``provider``: the name of the ``[auth.NAME]`` provider
    to sign in with (None: the ``[auth]`` section's own); ``claim``: the claim holding the
    roles; ``values``: role -> the claim values that give it."""

    auth: bool = False
    provider: str | None = None
    claim: str = DEFAULT_CLAIM
    values: dict = field(default_factory=lambda: {role: frozenset({role}) for role in ROLES})

    def user(self, claims, source=""):
        """The :class:`~psl_triage.ward.access.User` of a signed-in user's claims."""
        name = next((str(claims[key]) for key in _NAME_CLAIMS if claims.get(key)), "unknown")
        held = claims.get(self.claim) or []
        held = {held} if isinstance(held, str) else {str(value) for value in held}
        return User(name, frozenset(role for role in ROLES if held & self.values[role]), source)


def ward_settings(secrets, environ=os.environ):
    """The settings from Streamlit's secrets (a mapping; empty without a secrets file) and
    the environment; ValueError on a role setting that is not a role or not a list."""
    auth = secrets.get("auth")
    providers = [key for key, value in (auth or {}).items() if isinstance(value, dict)]
    section = dict((secrets.get("psl") or {}).get("roles") or {})
    for key in section:
        if key != "claim" and key not in ROLES:
            raise ValueError(words.UNKNOWN_ROLE_SETTING.format(key="psl.roles", value=key, roles=", ".join(ROLES)))
    values = {}
    for role in ROLES:
        configured = environ.get(f"PSL_ROLE_{role.upper()}")
        if configured is not None:
            values[role] = frozenset(value.strip() for value in configured.split(",") if value.strip())
        else:
            given = section.get(role, [role])
            values[role] = frozenset({given} if isinstance(given, str) else map(str, given))
    claim = environ.get("PSL_ROLE_CLAIM") or section.get("claim") or DEFAULT_CLAIM
    return WardSettings(auth is not None, providers[0] if providers else None, str(claim), values)


def auth_section_from_env(environ=os.environ):
    """The ``[auth]`` section as TOML text from the environment, or None without a client id."""
    if not environ.get(AUTH_ENV["client_id"]):
        return None
    lines = ["[auth]"] + [f"{key} = {json.dumps(environ[var])}" for key, var in AUTH_ENV.items() if environ.get(var)]
    return "\n".join(lines) + "\n"


def write_secrets(path, environ=os.environ):
    """Write :func:`auth_section_from_env` to ``path`` unless it exists; whether it wrote."""
    path = Path(path)
    text = auth_section_from_env(environ)
    if text is None or path.exists():
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o600)
    return True


if __name__ == "__main__":
    write_secrets(sys.argv[1])
