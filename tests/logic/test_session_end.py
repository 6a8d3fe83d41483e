"""A disconnected session is shut down once its time for a reconnect is up (issue 40, item 5):
Streamlit 1.67's own storage only forgot it, so its uploads stayed in the server's memory. And
a shut-down session's state is emptied, since Streamlit itself may still hold the session."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from streamlit.runtime.app_session import AppSession
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.script_data import ScriptData
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.runtime.session_manager import SessionInfo
from streamlit.runtime.state.common import WidgetMetadata

from ui.session_end import EndingSessionStorage


@dataclass
class FakeSession:
    id: str
    shut_down: list = field(default_factory=list)
    _scriptrunner = "running"  # never emptied: these tests are about shutting down

    def shutdown(self) -> None:
        self.shut_down.append(self.id)


def stored(storage, *names):
    ended = []
    for name in names:
        storage.save(SessionInfo(client=None, session=FakeSession(name, ended)))
    return ended


def test_a_session_whose_time_is_up_is_shut_down():
    storage = EndingSessionStorage(ttl_seconds=0.05)
    ended = stored(storage, "closed")
    assert storage.end_expired() == 0 and storage.get("closed") is not None  # still kept for a reconnect
    time.sleep(0.1)
    assert storage.end_expired() == 1 and ended == ["closed"]
    assert storage.get("closed") is None and storage.end_expired() == 0  # once


def test_a_session_taken_back_by_a_reconnect_is_not_shut_down():
    storage = EndingSessionStorage(ttl_seconds=0.05)
    ended = stored(storage, "blip")
    storage.delete("blip")
    time.sleep(0.1)
    assert storage.end_expired() == 0 and ended == []


def test_beyond_the_most_sessions_kept_the_least_recently_used_is_shut_down():
    storage = EndingSessionStorage(ttl_seconds=60, maxsize=2)
    ended = stored(storage, "first", "second", "third")
    assert storage.end_expired() == 1 and ended == ["first"]
    assert [info.session.id for info in storage.list()] == ["second", "third"]


class Table:
    """Stands for an uploaded table: something a test can watch being freed."""


class StoppingRunner:
    """A script runner asked to stop whose script has not reached its stop yet."""

    def request_stop(self) -> None:
        pass


def ended_session_holding(table: Table, tmp_path):
    """A real Streamlit session (never run) whose state holds ``table`` twice: as a value, and
    through a widget's metadata as a page's ``format_func`` holds the page's globals."""
    script = tmp_path / "page.py"
    script.write_text("")
    session = AppSession(ScriptData(str(script), is_hello=False), MemoryUploadedFileManager("/upload"),
                         ScriptCache(), message_enqueued_callback=None, user_info={})
    state = session.session_state
    state["dataset"] = table
    page_globals = {"table": table}
    state.register_widget(WidgetMetadata("w_outcome", deserializer=lambda value: page_globals["table"] and value,
                                         serializer=str, value_type="string_value"), user_key="w_outcome")
    return session


def run_alone(scenario):
    """``asyncio.run(scenario())`` on a thread of its own: a test before this one (Playwright's
    synchronous API in the browser tests) may leave an event loop running on this thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, scenario()).result()


def swept(storage, session, running=None):
    """``session`` closed, its time up, and the sweep run (with a script runner ``running``)."""
    session._scriptrunner = running
    storage.save(SessionInfo(client=None, session=session))
    time.sleep(0.1)
    storage.end_expired()


def test_an_ended_session_holds_no_table_even_while_something_still_holds_the_session(tmp_path):
    # Streamlit's runtime loop keeps the last session it sent messages to (a local variable):
    # the test keeps ``session`` the same way.
    async def scenario():
        table = Table()
        session = ended_session_holding(table, tmp_path)
        swept(EndingSessionStorage(ttl_seconds=0.05), session)
        return session, weakref.ref(table)

    session, table = run_alone(scenario)
    gc.collect()
    assert table() is None
    assert len(session.session_state) == 0


def test_a_session_whose_script_is_still_stopping_is_emptied_at_a_later_sweep(tmp_path):
    async def scenario():
        table, storage = Table(), EndingSessionStorage(ttl_seconds=0.05)
        session = ended_session_holding(table, tmp_path)
        swept(storage, session, running=StoppingRunner())  # its script has not reached its stop yet
        kept = session.session_state["dataset"] is table
        session._scriptrunner = None  # Streamlit drops the runner once its script has stopped
        storage.end_expired()
        return session, kept, weakref.ref(table)

    session, kept, table = run_alone(scenario)
    gc.collect()
    assert kept and table() is None and len(session.session_state) == 0
