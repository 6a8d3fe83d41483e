"""The audit trail: an append-only record, beside the store, of who did what to which list.

Every sign-in, save, recalibration, proposal, approval, sending back, withdrawal, archiving
(deletion) and export is one entry: when, who, in which role, the action, the list (name,
version, SHA-256 of its file, the file's name), from where, the outcome ("done", or "refused"
with the reason) and a detail. Never a patient's answers or identity: the record names lists
and users, never a table's rows.

Each entry carries the hash of the one before, and its own hash covers its content and that
link: :meth:`AuditLog.verify` recomputes the chain and says which entry was changed, which
were deleted (the entries are numbered 1, 2, 3... without gaps) and where the chain breaks.

Why SQLite in WAL mode rather than JSON lines: a transaction is written whole or not at all,
so a process killed in the middle of a write (kill -9) leaves the record as it was before that
entry, never a torn line that every reader would have to recognise and skip; reading the last
hash and appending the next entry happen in one ``BEGIN IMMEDIATE`` transaction, so sessions
appending at once, in threads or in processes, never link two entries to the same one (JSON
lines would need a lock file of its own for that); and the approval state of a list is a query
of the same record by file (:mod:`psl_triage.ward.approval`), cheap enough for every rerun,
while WAL lets readers read as a writer writes. ``synchronous=FULL``: a committed entry is on
disk. The file is hidden (``.psl-audit.sqlite3``), so the store's listing does not offer it.
"""

import contextlib
import hashlib
import json
import sqlite3
from dataclasses import astuple, dataclass, fields
from datetime import UTC, datetime

from psl_core.errors import PSLError
from psl_triage.model_file.store import model_dir
from psl_triage.words import ward as words

FILE_NAME = ".psl-audit.sqlite3"
GENESIS = "0" * 64
"""The link of the first entry: the hash of no entry."""
BUSY_TIMEOUT_S = 60
"""How long a writer waits for another's transaction before giving up."""
DONE, REFUSED = "done", "refused"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS audit (
    seq INTEGER PRIMARY KEY, at TEXT NOT NULL, user TEXT NOT NULL, role TEXT NOT NULL,
    action TEXT NOT NULL, model TEXT, version INTEGER, sha256 TEXT, file TEXT, source TEXT,
    outcome TEXT NOT NULL, detail TEXT, previous TEXT NOT NULL, hash TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS audit_file ON audit (file, seq);
"""


class AuditUnavailable(PSLError):
    """The record cannot be read or written (its folder or file unusable): nothing that must be
    recorded is done."""


@contextlib.contextmanager
def _usable(path):
    """Turn SQLite's and the file system's errors on the record into :class:`AuditUnavailable`."""
    try:
        yield
    except (sqlite3.Error, OSError) as exc:
        raise AuditUnavailable(words.AUDIT_UNAVAILABLE.format(path=path, reason=exc)) from None


@dataclass(frozen=True)
class Entry:
    """One entry of the record, in the order of its columns."""

    seq: int
    at: str
    user: str
    role: str
    action: str
    model: str | None
    version: int | None
    sha256: str | None
    file: str | None
    source: str | None
    outcome: str
    detail: str | None
    previous: str
    hash: str


COLUMNS = tuple(f.name for f in fields(Entry))


def entry_hash(values):
    """The hash of an entry: SHA-256 of its columns before ``hash`` (the link included), as
    canonical JSON."""
    text = json.dumps(list(values), ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Writer:
    """Appends inside one transaction of :meth:`AuditLog.writing` (and reads what it needs to
    decide, under the same lock)."""

    def __init__(self, connection):
        self.connection = connection

    def append(self, user, action, outcome=DONE, *, model=None, version=None, sha256=None, file=None, detail=None,
               role=None):
        """Append an entry by ``user`` (a :class:`~psl_triage.ward.access.User`); its role is the
        one that allows ``action`` unless ``role`` says; returns the :class:`Entry`."""
        last = self.connection.execute("SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1").fetchone()
        seq, previous = (last[0] + 1, last[1]) if last else (1, GENESIS)
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        values = (seq, at, user.name, role or user.role_for(action), action, model, version, sha256, file,
                  user.source, outcome, detail, previous)
        entry = Entry(*values, entry_hash(values))
        self.connection.execute(f"INSERT INTO audit VALUES ({', '.join('?' * len(COLUMNS))})", astuple(entry))
        return entry

    def history(self, file):
        """The entries done on ``file``, oldest first."""
        return _rows(self.connection, "WHERE file = ? AND outcome = ? ORDER BY seq", (file, DONE))


class AuditLog:
    """The record of the store folder ``directory`` (default: the store's, :func:`model_dir`)."""

    def __init__(self, directory=None):
        self.path = model_dir(directory) / FILE_NAME

    def _connect(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.executescript(_SCHEMA)
        return connection

    @contextlib.contextmanager
    def writing(self):
        """A :class:`Writer` in one exclusive write transaction, committed on leaving (rolled
        back on an exception); :class:`AuditUnavailable` if the record cannot be written."""
        with _usable(self.path):
            connection = self._connect()
            try:
                connection.execute("BEGIN IMMEDIATE")
                try:
                    yield Writer(connection)
                except BaseException:
                    connection.execute("ROLLBACK")
                    raise
                connection.execute("COMMIT")
            finally:
                connection.close()

    def append(self, user, action, outcome=DONE, **details):
        """Append one entry in a transaction of its own (:meth:`Writer.append`)."""
        with self.writing() as writer:
            return writer.append(user, action, outcome, **details)

    def entries(self, where="", parameters=()):
        """The entries, oldest first (``where``: an SQL condition on the columns, with
        ``parameters``); none while nothing was recorded."""
        if not self.path.exists():
            return []
        with _usable(self.path), contextlib.closing(self._connect()) as connection:
            return _rows(connection, f"{'WHERE ' + where if where else ''} ORDER BY seq", parameters)

    def verify(self):
        """Sentences naming every entry changed, missing or out of the chain; [] if intact."""
        problems, expected_seq, expected_link = [], 1, GENESIS
        for entry in self.entries():
            values = astuple(entry)
            if entry.seq != expected_seq:
                problems.append(words.entries_missing(entry.seq, expected_seq, entry.seq - 1))
            elif entry.previous != expected_link:
                problems.append(words.ENTRY_UNLINKED.format(seq=entry.seq, before=entry.seq - 1))
            if entry_hash(values[:-1]) != entry.hash:
                problems.append(words.ENTRY_CHANGED.format(seq=entry.seq))
            expected_seq, expected_link = entry.seq + 1, entry.hash
        return problems


def _rows(connection, clause, parameters):
    return [Entry(*row) for row in connection.execute(f"SELECT {', '.join(COLUMNS)} FROM audit {clause}", parameters)]
