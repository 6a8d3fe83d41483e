"""A disconnected session is shut down once its time for a reconnect is up (issue 40, item 5):
Streamlit 1.67's own storage only forgot it, so its uploads stayed in the server's memory."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from streamlit.runtime.session_manager import SessionInfo

from ui.session_end import EndingSessionStorage


@dataclass
class FakeSession:
    id: str
    shut_down: list = field(default_factory=list)

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
