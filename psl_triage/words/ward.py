"""The words of a shared ward (:mod:`psl_triage.ward`): roles, the approval of a list, the
audit trail and its checks, the sign-in page. Names from files and from the identity provider
(a user's name, a list's name) are plain text here; the pages show them with
:func:`psl_triage.words.md`.
"""

ROLE_NAMES = {"clinician": "clinician", "researcher": "researcher", "approver": "approver", "admin": "administrator"}
"""Each role as a sentence names it."""

STATE_NAMES = {
    "draft": "draft", "proposed": "proposed for approval", "approved": "approved for clinical use",
    "sent_back": "sent back", "withdrawn": "withdrawn", "archived": "archived",
}
"""Each approval state of a saved list as a sentence names it."""

ACTION_NAMES = {
    "sign_in": "sign-in", "save": "save", "recalibrate": "recalibration", "propose": "proposal",
    "approve": "approval", "send_back": "sent back", "withdraw": "withdrawal", "delete": "deletion",
    "export": "export",
}
"""Each recorded action as the audit page names it."""

NOT_ALLOWED = "A {role_list} may not {action}: this needs the role {roles}. Ask an administrator for the role if you need it."
NO_ROLE = ("You are signed in as {user}, but your account has none of this app's roles ({roles}). "
           "Ask an administrator to add you to one of the groups that give a role.")
FOUR_EYES = "{user} saved or proposed this list and so cannot approve it: another approver must (four eyes)."
WRONG_STATE = "This list is {state}: it cannot be given {action} now."
REASON_NEEDED = "Say why the list is sent back: the researcher reads the reason."
NOT_IN_STORE = "{name} is not a saved list of the model folder (it may have been archived meanwhile)."
NOT_ARCHIVED = "{name} was not archived: the folder {folder} cannot take it ({reason}). Check the model folder's permissions."
ARCHIVE_FULL = "ten thousand archived files of that name"
UNKNOWN_ROLE_SETTING = "The role setting {key} names {value!r}, which is not one of the roles {roles}; fix the setting and restart."

CHAIN_INTACT = "The audit trail is intact: {n} entries, each linked to the one before."
ENTRY_CHANGED = "Entry {seq} was changed after it was written (its content no longer matches its hash)."
ENTRY_MISSING = "Before entry {seq}, entries {first} to {last} are missing (deleted)."
ENTRY_UNLINKED = "Entry {seq} does not follow entry {before}: an entry between them was removed or replaced."

SIGN_IN_TITLE = "Sign in"
SIGN_IN_TEXT = "PSL Triage is shared on this ward: sign in with your hospital account to use it."
SIGN_IN = "Sign in"
SIGN_OUT = "Sign out"
SIGNED_IN_AS = "Signed in as {user} ({roles})"
PAGE_REFUSED = "Your role ({roles}) does not include this page."


def role_list(roles):
    """The roles of a user, "clinician and approver"."""
    names = [ROLE_NAMES.get(role, role) for role in sorted(roles)]
    if not names:
        return "user without a role"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def not_allowed(roles, action, allowed):
    """Why a user with ``roles`` may not take ``action``."""
    return NOT_ALLOWED.format(role_list=role_list(roles), action=ACTION_VERBS.get(action, action),
                              roles=" or ".join(ROLE_NAMES.get(role, role) for role in sorted(allowed)))


ACTION_VERBS = {
    "save": "save a list", "recalibrate": "save a recalibrated list", "propose": "propose a list for approval",
    "approve": "approve a list", "send_back": "send a list back", "withdraw": "withdraw a list",
    "delete": "archive a list", "export": "export", "read_audit": "read the audit trail",
    "see_drafts": "see lists not approved for clinical use", "train": "train a list",
}
"""What an action lets a user do, as the refusal says it."""
