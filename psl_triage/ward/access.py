"""The roles of a shared ward and the one table of what each may do.

A user holds one or more roles, given by the hospital's identity provider (a claim of the
identity token: :mod:`psl_triage.ward.settings`):

- *clinician*: Triage and the read-only Card of the lists approved for clinical use;
- *researcher*: everything a list's life needs: data, training, saving, validation and
  recalibration, evaluation, proposing a list for approval, archiving a list;
- *approver*: approving a proposed list, sending it back with a reason, withdrawing an approved
  one; never a list the approver saved or proposed (four eyes: :mod:`psl_triage.ward.approval`);
- *admin*: the audit trail, archiving a list.

:data:`PERMISSIONS` is the table; pages are actions too (``"page:train"``), so the navigation
and the refusal of a page reached by its address read the same table as the writes. A write
checks again with :func:`refusal` at the moment it writes, not only when its page was drawn.
"""

from dataclasses import dataclass

from psl_core.errors import PSLError
from psl_triage.words import ward as words

ROLES = ("clinician", "researcher", "approver", "admin")

_EVERYONE = frozenset(ROLES)
PERMISSIONS = {
    **dict.fromkeys(("page:data", "page:train", "page:calibration", "page:intervals", "page:evaluation", "page:validate",
                     "page:monitor", "train", "save", "recalibrate", "propose"), frozenset({"researcher"})),
    **dict.fromkeys(("page:triage", "page:card"), frozenset({"clinician", "researcher", "approver"})),
    **dict.fromkeys(("page:approval", "see_drafts"), frozenset({"researcher", "approver", "admin"})),
    **dict.fromkeys(("approve", "send_back", "withdraw"), frozenset({"approver"})),
    **dict.fromkeys(("page:audit", "read_audit"), frozenset({"admin"})),
    "delete": frozenset({"researcher", "admin"}),
    **dict.fromkeys(("export", "sign_in"), _EVERYONE),
}
"""Action -> the roles that may take it (the one table)."""


class NotAllowed(PSLError):
    """The user's roles do not allow the action, or the list's state or authorship forbids it."""


@dataclass(frozen=True)
class User:
    """Who acts: ``name`` as the record shows it (e-mail, else user name, else the subject),
    the roles held and where the request came from (an address, or "" when unknown)."""

    name: str
    roles: frozenset
    source: str = ""

    def can(self, action):
        """Whether one of the user's roles allows ``action`` (an unknown action: no one)."""
        return bool(self.roles & PERMISSIONS.get(action, frozenset()))

    def role_for(self, action):
        """The role the record names for ``action``: the first of :data:`ROLES` the user holds
        that allows it, else all the user's roles."""
        allowed = [role for role in ROLES if role in self.roles and role in PERMISSIONS.get(action, ())]
        return allowed[0] if allowed else "+".join(sorted(self.roles))


LOCAL_USER = User("local", _EVERYONE)
"""The single user of an app without sign-in: every role, as before there were roles."""


def refusal(user, action) -> str | None:
    """Why ``user`` may not ``action``, saying which role is needed; None when one of the
    user's roles allows it. The caller records the refusal and raises :class:`NotAllowed`."""
    if user.can(action):
        return None
    return words.not_allowed(user.roles, action, PERMISSIONS.get(action, frozenset()))


def pages_of(user, pages):
    """The pages of ``pages`` (names such as ``"train"``) the user may open, in their order."""
    return [page for page in pages if user.can(f"page:{page}")]
