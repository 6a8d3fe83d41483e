"""The Audit page (pages/10_Audit.py): the chain's check says which entry was changed or deleted,
the filters narrow the entries, and both downloads hold the entries shown."""

import sqlite3

import pytest
from streamlit.testing.v1 import AppTest

from psl_triage.ward.access import User
from psl_triage.ward.audit import AuditLog
from tests.paths import ROOT

ADA = User("ada@ward.example", frozenset({"admin"}))
RHEA = User("rhea@ward.example", frozenset({"researcher"}))


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))
    log = AuditLog(tmp_path)
    for user, action in ((ADA, "sign_in"), (RHEA, "sign_in"), (RHEA, "export"), (RHEA, "export")):
        log.append(user, action, model="Chest pain" if action == "export" else None)
    return log


def audit_page():
    return AppTest.from_file(str(ROOT / "pages" / "10_Audit.py"), default_timeout=60).run()


def test_an_intact_record_is_said_intact_and_filtered_by_user_and_action(store):
    at = audit_page()
    assert not at.exception
    assert [s.value for s in at.success] == ["The audit trail is intact: 4 entries, each linked to the one before."]
    at.selectbox(key="audit_user").set_value(RHEA.name).run()
    at.selectbox(key="audit_action").set_value("export").run()
    assert at.caption[0].value == "2 of 4 entries shown."
    assert list(at.dataframe[0].value["action"]) == ["export", "export"]


def test_the_page_names_the_entry_changed_and_the_entries_deleted(store):
    with sqlite3.connect(store.path) as connection:
        connection.execute("UPDATE audit SET user = 'mallory' WHERE seq = 1")
        connection.execute("DELETE FROM audit WHERE seq = 3")
    at = audit_page()
    assert not at.exception and not at.success
    assert [e.value for e in at.error] == [
        "Entry 1 was changed after it was written (its content no longer matches its hash).",
        "Before entry 4, entry 3 is missing (deleted).",
    ]


def test_an_empty_record_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))
    at = audit_page()
    assert not at.exception and at.info[0].value == "Nothing is recorded yet."
