"""The audit trail (psl_triage.ward.audit): a hash chain that finds an edited or deleted entry,
whole entries after kill -9, nothing lost when ten sessions write at once, and its exports."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from datetime import date

import pytest
from fhir.resources.auditevent import AuditEvent

from psl_triage.model_file.csv_export import csv_bytes
from psl_triage.model_file.store import list_models
from psl_triage.ward.access import NotAllowed, User
from psl_triage.ward.approval import record, save_list, states, step, visible_lists
from psl_triage.ward.audit import FILE_NAME, GENESIS, AuditLog, AuditUnavailable
from psl_triage.ward.audit_export import audit_bundle, entries_table, filtered
from tests.paths import ROOT

RESEARCHER = User("rhea@ward.example", frozenset({"researcher"}), "10.0.0.7")
APPROVER = User("abel@ward.example", frozenset({"approver"}))


def _five_entries(directory):
    log = AuditLog(directory)
    for n in range(5):
        log.append(RESEARCHER, "export", model=f"List {n}", version=n + 1)
    return log


def test_an_intact_chain_verifies_and_links_each_entry_to_the_one_before(tmp_path):
    entries = _five_entries(tmp_path).entries()
    assert [e.seq for e in entries] == [1, 2, 3, 4, 5] and entries[0].previous == GENESIS
    assert all(later.previous == earlier.hash for earlier, later in zip(entries, entries[1:]))
    assert AuditLog(tmp_path).verify() == []


def test_an_edited_entry_is_found_and_named(tmp_path):
    log = _five_entries(tmp_path)
    with sqlite3.connect(log.path) as connection:
        connection.execute("UPDATE audit SET user = 'someone else' WHERE seq = 3")
    assert log.verify() == ["Entry 3 was changed after it was written (its content no longer matches its hash)."]


def test_an_entry_edited_with_its_hash_recomputed_breaks_the_link_of_the_next(tmp_path):
    from psl_triage.ward.audit import entry_hash

    log = _five_entries(tmp_path)
    third = log.entries()[2]
    values = (*[getattr(third, c) for c in ("seq", "at", "user")], "admin", *[
        getattr(third, c) for c in ("action", "model", "version", "sha256", "file", "source", "outcome", "detail", "previous")])
    forged_previous = entry_hash(values)
    with sqlite3.connect(log.path) as connection:
        connection.execute("UPDATE audit SET role = 'admin', hash = ? WHERE seq = 3", (forged_previous,))
    assert log.verify() == ["Entry 4 does not follow entry 3: an entry between them was removed or replaced."]


def test_a_deleted_entry_is_found_and_named(tmp_path):
    log = _five_entries(tmp_path)
    with sqlite3.connect(log.path) as connection:
        connection.execute("DELETE FROM audit WHERE seq IN (2, 3)")
    assert log.verify() == ["Before entry 4, entries 2 to 3 are missing (deleted)."]


def test_the_record_survives_a_restart(tmp_path, small_list):
    save_list(RESEARCHER, small_list, "List", None, tmp_path)
    again = AuditLog(tmp_path)  # a new process reads the same file
    assert [e.action for e in again.entries()] == ["save"] and again.verify() == []


KILLED_SAVER = textwrap.dedent("""
    import sys
    import numpy as np
    from psl_core import ProbabilisticScoringList
    from psl_triage.ward.access import User
    from psl_triage.ward.approval import save_list, step

    rng = np.random.default_rng(1)
    X = rng.integers(0, 2, size=(80, 3)).astype(float)
    model = ProbabilisticScoringList().fit(X, (X[:, 1] + rng.random(80) > 1).astype(int))
    user = User("rhea@ward.example", frozenset({"researcher"}))
    print("ready", flush=True)
    while True:
        stored = save_list(user, model, "Killed", None, sys.argv[1])
        step(user, "propose", stored.path, directory=sys.argv[1])
""")


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.05, 0.3, 0.9])
def test_kill_9_during_saves_leaves_a_whole_record_missing_at_most_the_last_entry(tmp_path, delay):
    process = subprocess.Popen([sys.executable, "-c", KILLED_SAVER, str(tmp_path)], cwd=ROOT,
                               stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().strip() == "ready"
        deadline = time.monotonic() + 60
        while not (tmp_path / FILE_NAME).exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(delay)
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    with sqlite3.connect(tmp_path / FILE_NAME) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    log = AuditLog(tmp_path)
    assert log.verify() == []
    saved = {entry.file for entry in log.entries() if entry.action == "save"}
    files = {path.name for path in tmp_path.glob("*.json")}
    assert saved <= files and len(files - saved) <= 1  # a file saved, its entry not yet written
    assert list_models(tmp_path)[1] == []  # every file whole (a killed save leaves a hidden temporary)


class _Sessions:
    """Ten sessions of mixed roles on one store: what each did, and what went wrong."""

    def __init__(self, directory, model):
        self.directory, self.model = directory, model
        self.done, self.seen_unapproved, self.errors = [], [], []
        self.stop = threading.Event()

    def research(self, user):
        for _ in range(3):
            stored = save_list(user, self.model, "Shared list", None, self.directory)
            self.done.append(("save", stored.path.name))
            step(user, "propose", stored.path, directory=self.directory)
            self.done.append(("propose", stored.path.name))

    def approve(self, user):
        while not self.stop.is_set():
            for file, state in states(self.directory).items():
                if state.state == "proposed":
                    try:
                        step(user, "approve", self.directory / file, directory=self.directory)
                        self.done.append(("approve", file))
                    except NotAllowed:  # another approver was first
                        continue

    def triage(self, user):
        while not self.stop.is_set():
            listed, _ = list_models(self.directory)
            visible = visible_lists(user, listed, self.directory)
            known = states(self.directory)
            self.seen_unapproved.extend(e.path.name for e in visible if known[e.path.name].state != "approved")

    def thread(self, work, user):
        def guarded():
            try:
                work(user)
            except Exception as exc:  # noqa: BLE001 - reported by the test's assertion
                self.errors.append(repr(exc))

        return threading.Thread(target=guarded)


def test_ten_sessions_saving_approving_and_triaging_at_once_lose_nothing(tmp_path, small_list):
    sessions = _Sessions(tmp_path, small_list)
    writers = [sessions.thread(sessions.research, User(f"researcher{i}", frozenset({"researcher"}))) for i in range(4)]
    readers = [sessions.thread(sessions.approve, User(f"approver{i}", frozenset({"approver"}))) for i in range(3)]
    readers += [sessions.thread(sessions.triage, User(f"clinician{i}", frozenset({"clinician"}))) for i in range(3)]
    for thread in writers + readers:
        thread.start()
    for thread in writers:
        thread.join()
    deadline = time.monotonic() + 60
    while any(s.state == "proposed" for s in states(tmp_path).values()) and time.monotonic() < deadline:
        time.sleep(0.05)
    sessions.stop.set()
    for thread in readers:
        thread.join()
    assert sessions.errors == []
    files = sorted(path.name for path in tmp_path.glob("*.json"))
    assert len(files) == 12 and {int(name.split("-v")[1][:-5]) for name in files} == set(range(1, 13))
    log = AuditLog(tmp_path)
    entries = log.entries("outcome = 'done'")
    assert sorted((e.action, e.file) for e in entries) == sorted(sessions.done)
    assert [e.seq for e in log.entries()] == list(range(1, len(log.entries()) + 1)) and log.verify() == []
    assert {file: s.state for file, s in states(tmp_path).items()} == dict.fromkeys(files, "approved")
    assert sum(e.action == "approve" for e in entries) == 12  # two approvers of one list: one approves
    assert sessions.seen_unapproved == []


def test_the_exports_hold_every_entry_and_the_fhir_bundle_is_valid_r4(tmp_path, small_list):
    stored = save_list(RESEARCHER, small_list, "=cmd|' /C calc'!A0", None, tmp_path)
    step(RESEARCHER, "propose", stored.path, directory=tmp_path)
    with pytest.raises(NotAllowed):
        step(RESEARCHER, "approve", stored.path, directory=tmp_path)
    record(APPROVER, "sign_in", directory=tmp_path)
    entries = AuditLog(tmp_path).entries()
    text = csv_bytes(entries_table(entries)).decode()  # as the Audit page downloads it
    assert text.count("\n") == 5 and "\"'=cmd|" in text
    bundle = json.loads(json.dumps(audit_bundle(entries)))
    events = [AuditEvent.parse_obj(item["resource"]) for item in bundle["entry"]]
    assert [e.outcome for e in events] == ["0", "0", "4", "0"]
    assert events[0].agent[0].who.display == RESEARCHER.name and events[0].agent[0].network.address == "10.0.0.7"
    assert events[0].entity[0].what.identifier.value == entries[0].sha256
    assert events[3].type.code == "110114" and "may not approve" in events[2].outcomeDesc
    assert filtered(entries, user=APPROVER.name) == entries[3:]
    assert filtered(entries, action="propose", text="CMD") == [entries[1]]
    assert filtered(entries, since=date(2999, 1, 1)) == [] and filtered(entries, until=date.today()) == entries


def test_a_record_that_cannot_be_used_refuses_with_its_path_and_saves_nothing(tmp_path, small_list):
    blocked = tmp_path / "models"
    blocked.write_text("a file where the model folder should be")
    with pytest.raises(AuditUnavailable, match="cannot be used"):
        record(RESEARCHER, "sign_in", directory=blocked)
    folder = tmp_path / "store"
    folder.mkdir()
    (folder / FILE_NAME).write_bytes(b"not a database" * 100)
    with pytest.raises(AuditUnavailable, match="cannot be used"):
        save_list(RESEARCHER, small_list, "List", None, folder)
    assert list(folder.glob("*.json")) == []
    with pytest.raises(AuditUnavailable, match=FILE_NAME):
        AuditLog(folder).entries()
