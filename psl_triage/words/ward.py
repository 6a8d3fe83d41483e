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

AUDIT_UNAVAILABLE = ("The audit trail {path} cannot be used ({reason}), so nothing that must be recorded is "
                     "done. Ask whoever runs the server to check the model folder (PSL_MODEL_DIR) and its permissions.")
CHAIN_INTACT = "The audit trail is intact: {n} entries, each linked to the one before."
ENTRY_CHANGED = "Entry {seq} was changed after it was written (its content no longer matches its hash)."


def entries_missing(seq, first, last):
    """Entries ``first`` to ``last`` are gone from before entry ``seq``."""
    gone = f"entry {first} is" if first == last else f"entries {first} to {last} are"
    return f"Before entry {seq}, {gone} missing (deleted)."


ENTRY_UNLINKED = "Entry {seq} does not follow entry {before}: an entry between them was removed or replaced."

SIGN_IN_TITLE = "Sign in"
NO_ROLE_TITLE = "No role"
SIGN_IN_TEXT = "PSL Triage is shared on this ward: sign in with your hospital account to use it."
SIGN_IN = "Sign in"
SIGN_OUT = "Sign out"
SIGNED_IN_AS = "Signed in as {user} ({roles})"


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

APPROVAL_TITLE = "Approval"
APPROVAL_INTRO = (
    "A saved list is a draft. A researcher proposes it for clinical use with its evidence (open it on "
    "**Card** for its report); an approver who neither saved nor proposed it approves it or sends it "
    "back with a reason. Only approved lists appear on **Triage** for clinicians; withdrawing one "
    "takes it off at once, for every session. Archiving moves a list out of use into the model "
    "folder's archive; nothing is deleted.")
NO_APPROVED_LIST = ("No list is approved for clinical use yet. A list appears here as soon as an approver "
                    "approves it; ask the team that builds the lists.")
NO_SAVED_LISTS = "No list is saved yet: train one and save it on **Train**."
PROPOSE, APPROVE, SEND_BACK, WITHDRAW, ARCHIVE = "Propose for approval", "Approve", "Send back", "Withdraw", "Archive"
REASON = "Why it is sent back"
OPEN_CARD = "Read its card and report"
STEP_DONE = "{action} of {name} recorded: it is now {state}."


def list_state_line(state):
    """Where a list stands, who saved, proposed and approved it, and why it was sent back."""
    parts = [f"**{STATE_NAMES[state.state]}**"]
    if state.author:
        parts.append(f"saved by {state.author}")
    if state.proposer:
        parts.append(f"proposed by {state.proposer}")
    if state.approver and state.state in ("approved", "withdrawn"):
        parts.append(f"approved by {state.approver}")
    line = "; ".join(parts)
    return line + (f". Sent back: {state.reason}" if state.state == "sent_back" and state.reason else "")


def trained_and_approved(state):
    """The Card's line of who saved a list and who approved it, or None for a list the record
    does not name."""
    if state is None or not state.author:
        return None
    approved = f"; approved for clinical use by {state.approver}" if state.state == "approved" else f"; {STATE_NAMES[state.state]}"
    return f"Saved by {state.author}{approved}."


AUDIT_TITLE = "Audit"
AUDIT_INTRO = (
    "Every sign-in, save, recalibration, proposal, approval, withdrawal, archiving and export: who, "
    "in which role, when, which list (name, version, SHA-256 of its file), from where, and the outcome. "
    "No patient's answers or identity are recorded. Each entry carries the hash of the one before, so "
    "an entry changed or deleted afterwards is found below.")
NO_ENTRIES = "Nothing is recorded yet."
FILTER_USER, FILTER_ACTION, FILTER_TEXT, FILTER_DATES = "User", "Action", "List name or file contains", "Recorded between"
EVERYONE, EVERY_ACTION = "everyone", "every action"
DOWNLOAD_CSV, DOWNLOAD_FHIR = "Download the entries shown (CSV)", "Download the entries shown (FHIR AuditEvent JSON)"
ENTRIES_SHOWN = "{shown} of {total} entries shown."
