"""A saved list's way to clinical use: draft, proposed, approved, sent back, withdrawn, archived.

The state of a list is read from the audit trail (:mod:`psl_triage.ward.audit`), not kept in
the model file (whose checksum must not change) nor in a second table that could disagree
with the record: the last entry done on the list's file says it (:data:`STATE_AFTER`). A
state is read on every rerun of a page, so a withdrawal takes a list off Triage at once for
every session. A list is approved for its file's SHA-256: a file changed on disk after its
approval is not approved.

Each step checks, inside the record's write transaction, that the user's role allows it
(:func:`psl_triage.ward.access.refusal`), that the list is in a state the step leaves
(:data:`STEPS`) and, for an approval, that the approver neither saved nor proposed the list
(four eyes); it is then recorded, or the refusal is recorded and raised
(:class:`~psl_triage.ward.access.NotAllowed`). Two approvers at once cannot both act on one
state: the second finds the first one's step.

Saves never overwrite: :func:`save_list` saves the next version (:func:`psl_triage.model_file.store.save_model`)
and records it as a draft; archiving moves the file into the store's ``.archive`` folder, which
the record names, and nothing is ever deleted.
"""

import functools
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from psl_triage.model_file.store import StoreError, model_dir, open_model, save_model
from psl_triage.ward.access import NotAllowed, refusal
from psl_triage.ward.audit import DONE, REFUSED, AuditLog
from psl_triage.words import ward as words

ARCHIVE = ".archive"
"""The folder of archived (deleted) lists, inside the store's folder."""
STATE_AFTER = {"save": "draft", "recalibrate": "draft", "propose": "proposed", "approve": "approved",
               "send_back": "sent_back", "withdraw": "withdrawn", "delete": "archived"}
"""The state a list is in after each recorded action."""
STEPS = {"propose": {"draft", "sent_back"}, "approve": {"proposed"}, "send_back": {"proposed"},
         "withdraw": {"approved"}, "delete": {"draft", "proposed", "sent_back", "withdrawn"}}
"""Each step and the states it may leave (an approved list is withdrawn before it is archived)."""


@dataclass(frozen=True)
class ListState:
    """Where a saved list stands: its ``state``, who saved it (``author``), proposed it,
    approved it, the reason it was last sent back, and the file's SHA-256 at its approval."""

    state: str = "draft"
    author: str | None = None
    proposer: str | None = None
    approver: str | None = None
    reason: str | None = None
    approved_sha256: str | None = None


def state_of(history):
    """The :class:`ListState` after ``history`` (the entries done on one file, oldest first)."""
    state = ListState()
    for entry in history:
        change = {"state": STATE_AFTER.get(entry.action, state.state)}
        if entry.action in ("save", "recalibrate"):
            change = {"state": "draft", "author": entry.user, "proposer": None, "approver": None, "reason": None}
        elif entry.action == "propose":
            change |= {"proposer": entry.user}
        elif entry.action == "approve":
            change |= {"approver": entry.user, "approved_sha256": entry.sha256}
        elif entry.action == "send_back":
            change |= {"reason": entry.detail}
        state = ListState(**{**state.__dict__, **change})
    return state


def states(directory=None):
    """File name -> :class:`ListState` of every list the record names (one query)."""
    entries = AuditLog(directory).entries("file IS NOT NULL AND outcome = ?", (DONE,))
    by_file = {}
    for entry in entries:
        by_file.setdefault(entry.file, []).append(entry)
    return {file: state_of(history) for file, history in by_file.items()}


def is_approved(path, state):
    """Whether the file at ``path`` is the one approved (its SHA-256 unchanged since)."""
    if state is None or state.state != "approved":
        return False
    info = Path(path).stat()
    return file_sha256(Path(path), info.st_size, info.st_mtime_ns) == state.approved_sha256


@functools.lru_cache(maxsize=1024)
def file_sha256(path, size, modified_ns):
    """SHA-256 of a file, kept per (path, size, modification time)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def visible_lists(user, stored, directory=None):
    """The stored lists (:class:`~psl_triage.model_file.store.StoredModel`) ``user`` may open: all for a
    role that sees drafts, else those approved for clinical use."""
    if user.can("see_drafts"):
        return list(stored)
    known = states(directory)
    return [entry for entry in stored if _approved(entry.path, known.get(entry.path.name))]


def _approved(path, state):
    try:
        return is_approved(path, state)
    except OSError:
        return False


def identity_of(path):
    """What the record says of the saved file at ``path``: its list's name and version, the
    file's SHA-256 and name."""
    path = Path(path)
    info = path.stat()
    metadata = open_model(path).metadata
    return {"model": metadata.name, "version": metadata.version,
            "sha256": file_sha256(path, info.st_size, info.st_mtime_ns), "file": path.name}


def save_list(user, model, name, metadata=None, directory=None, action="save"):
    """Save ``model`` as the next version of ``name`` (``action``: "save" or "recalibrate"),
    checked and recorded as a draft of ``user``; returns the StoredModel. ``user`` None: an app
    without sign-in, where there is nothing to check or record (the store's save alone)."""
    if user is None:
        return save_model(model, name, metadata, directory)
    # The file is saved inside the record's transaction: a record that cannot be written saves
    # nothing, and a save killed before its entry commits leaves at most that one entry missing.
    with AuditLog(directory).writing() as writer:
        refused = refusal(user, action)
        if refused is None:
            stored = save_model(model, name, metadata, directory)
            writer.append(user, action, **identity_of(stored.path))
        else:
            writer.append(user, action, REFUSED, detail=refused)
    if refused is not None:
        raise NotAllowed(refused)
    return stored


def saver(user, action="save"):
    """A function with the store's ``save_model`` signature that saves as ``user`` through
    :func:`save_list` (the role checked when it saves, the save recorded as ``action``); the
    store's own save for ``user`` None (no sign-in)."""
    if user is None:
        return save_model
    return functools.partial(_save_as, user, action)


def _save_as(user, action, model, name, metadata=None, directory=None):
    return save_list(user, model, name, metadata, directory, action)


def step(user, action, path, reason="", directory=None):
    """Take ``action`` ("propose", "approve", "send_back", "withdraw" or "delete") on the saved
    list at ``path``; returns its new :class:`ListState`. Raises NotAllowed (recorded)."""
    path = Path(path)
    folder = model_dir(directory)
    if path.parent.resolve() != folder.resolve() or not path.is_file():
        raise NotAllowed(words.NOT_IN_STORE.format(name=path.name))
    details = identity_of(path)
    log = AuditLog(directory)
    with log.writing() as writer:
        current = state_of(writer.history(path.name))
        problem = _refusal(user, action, current, reason)
        if problem is None:
            detail = reason.strip() or None
            if action == "delete":
                detail = str(Path(ARCHIVE) / _archive(path, folder))
            writer.append(user, action, detail=detail, **details)
            return state_of(writer.history(path.name))
        writer.append(user, action, REFUSED, detail=problem, **details)
    raise NotAllowed(problem)


def _refusal(user, action, current, reason):
    """Why ``user`` may not take ``action`` on a list in state ``current``, or None."""
    if (refused := refusal(user, action)) is not None:
        return refused
    if current.state not in STEPS[action]:
        return words.WRONG_STATE.format(state=words.STATE_NAMES[current.state], action=words.ACTION_NAMES[action])
    if action == "approve" and user.name in (current.author, current.proposer):
        return words.FOUR_EYES.format(user=user.name)
    if action == "send_back" and not reason.strip():
        return words.REASON_NEEDED
    return None


def _archive(path, folder):
    """Move ``path`` into the archive folder under a name no other archived file has; the name."""
    archive = folder / ARCHIVE
    archive.mkdir(exist_ok=True)
    for n in range(1, 10_000):
        target = archive / (path.name if n == 1 else f"{path.stem}.{n}{path.suffix}")
        try:
            os.link(path, target)
        except FileExistsError:
            continue
        except OSError as exc:
            raise StoreError(words.NOT_ARCHIVED.format(name=path.name, folder=archive, reason=exc.strerror or exc)) from None
        path.unlink()
        return target.name
    raise StoreError(words.NOT_ARCHIVED.format(name=path.name, folder=archive, reason=words.ARCHIVE_FULL))


def record(user, action, **details):
    """Record an action with no state change (a sign-in, an export) as done."""
    return AuditLog(details.pop("directory", None)).append(user, action, **details)
