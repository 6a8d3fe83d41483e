"""Sessions that end give their memory back: what :mod:`serve` adds to Streamlit's sessions.

A browser tab that closes leaves its session on the server for ``server.disconnectedSessionTTL``
seconds (``.streamlit/config.toml``), so that a reconnect after a network blip finds its table
and list again. Streamlit 1.67 keeps those sessions in a cache that only *forgets* one whose
time is up, when the cache is next written: the session is never shut down, so its uploaded
files stay in the server's upload manager and its tables in its dataframe sources, held for as
long as the server runs (issue 40: 283 MB of uploads and 1.9 GB of server memory with no
session open).

:class:`EndingSessionStorage` keeps the disconnected sessions as Streamlit's own storage does,
and :meth:`~EndingSessionStorage.end_expired` shuts each expired one down (Streamlit's own
:meth:`AppSession.shutdown`: its uploads, media and table sources go), then empties its state
once its script has stopped (:func:`forget_state`), and hands the freed memory back to the
system (:func:`release_memory`). Shutting down is not enough: Streamlit's runtime loop keeps
the last session it sent messages to in a local variable until another session connects, and
with it that session's state (its table, the prepared table, the upload's bytes: about 200 MB
for a 45 MB upload). :func:`ending_sessions`, the lifespan :mod:`serve` gives ``st.App``, puts
this storage in place and calls it every :data:`SWEEP_S` seconds.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import functools
import gc
import sys
from contextlib import asynccontextmanager

from streamlit import config
from streamlit.runtime import Runtime
from streamlit.runtime.app_session import AppSession
from streamlit.runtime.caching.ttl_cache import TTLCache
from streamlit.runtime.session_manager import SessionInfo, SessionStorage
from streamlit.runtime.state import SessionState

SWEEP_S = 5.0
"""How often the server looks for disconnected sessions whose time is up (seconds)."""
MAX_DISCONNECTED = 128
"""Disconnected sessions kept for a reconnect at most (Streamlit's own number); beyond it the
least recently used one is shut down."""


class _EndingCache(TTLCache):
    """Streamlit's TTL cache that hands every entry it drops by itself (expired, or evicted to
    make room) to ``ended`` instead of only forgetting it."""

    def __init__(self, maxsize, ttl, ended):
        super().__init__(maxsize=maxsize, ttl=ttl)
        self._ended = ended

    def expire(self, at_time=None):
        expired = super().expire(at_time)
        for _, value in expired:
            self._ended(value)
        return expired

    def _evict_lru(self, reason):
        value = super()._evict_lru(reason)
        self._ended(value)
        return value


class EndingSessionStorage(SessionStorage):
    """The disconnected sessions, kept ``ttl_seconds`` for a reconnect and then shut down.

    ``get``, ``save``, ``delete`` and ``list`` are Streamlit's ``SessionStorage``: a session
    taken back by a reconnect (``delete``) is not shut down. Sessions dropped by the cache are
    shut down by :meth:`end_expired` (the server calls it every :data:`SWEEP_S` seconds), on
    the server's event loop, as Streamlit shuts down a closed session; their state is emptied
    at that sweep or, while a script of theirs is still stopping, at a later one.
    """

    def __init__(self, ttl_seconds: float, maxsize: int = MAX_DISCONNECTED):
        self._dropped: list[SessionInfo] = []
        self._stopping: list[AppSession] = []  # shut down, state not emptied yet
        self._cache = _EndingCache(maxsize, ttl_seconds, self._dropped.append)

    def get(self, session_id: str) -> SessionInfo | None:
        return self._cache.get(session_id, None)

    def save(self, session_info: SessionInfo) -> None:
        self._cache[session_info.session.id] = session_info

    def delete(self, session_id: str) -> None:
        del self._cache[session_id]

    def list(self) -> list[SessionInfo]:
        return list(self._cache.values())

    def end_expired(self) -> int:
        """Shut down every session whose time is up (or that was evicted), and empty the state
        of each shut-down session whose script has stopped; the number shut down. After either,
        the freed memory goes back to the system (:func:`release_memory`)."""
        self._cache.expire()
        count = len(self._dropped)
        while self._dropped:
            session = self._dropped.pop().session
            session.shutdown()
            self._stopping.append(session)
        stopping = len(self._stopping)
        self._stopping = [session for session in self._stopping if not forget_state(session)]
        if count or len(self._stopping) < stopping:
            release_memory()
        return count


def forget_state(session: AppSession) -> bool:
    """Give a shut-down session an empty state once its script has stopped; whether it did.

    Whatever still holds the session (Streamlit's runtime loop keeps the last one it sent
    messages to) then holds no table of it. The state is replaced, not cleared: Streamlit 1.67's
    ``SessionState.clear`` keeps the widgets' metadata, whose functions (a page's
    ``format_func``) hold that page's globals and through them its tables. The session's
    fragments go too. A script still stopping may read its state, so a session whose script
    runner is not gone yet waits for a later sweep.
    """
    if session._scriptrunner is not None:
        return False
    session._session_state = SessionState()
    session._fragment_storage.clear()
    return True


def release_memory() -> None:
    """Collect the Python objects the ended sessions leave in reference cycles, and return the
    C heap's free pages to the system (glibc's ``malloc_trim``): without it the server's
    resident memory stays at its peak, freed or not."""
    gc.collect()
    if "pyarrow" in sys.modules:  # Streamlit's tables pass through Arrow, which pools memory
        sys.modules["pyarrow"].default_memory_pool().release_unused()
    if (trim := _malloc_trim()) is not None:
        trim(0)


@functools.cache
def _malloc_trim():
    """glibc's ``malloc_trim``, looked up once (finding the C library runs ``ldconfig``); None
    where there is none."""
    libc = ctypes.util.find_library("c") if sys.platform.startswith("linux") else None
    return getattr(ctypes.CDLL(libc), "malloc_trim", None) if libc is not None else None


async def _sweep(storage: EndingSessionStorage) -> None:
    while True:
        await asyncio.sleep(SWEEP_S)
        storage.end_expired()


@asynccontextmanager
async def ending_sessions(_app):
    """``st.App``'s lifespan (:mod:`serve`): the runtime keeps its disconnected sessions in an
    :class:`EndingSessionStorage` with ``server.disconnectedSessionTTL``, swept every
    :data:`SWEEP_S` seconds while the server runs. The runtime has started, and no session
    connected yet, when a lifespan begins."""
    storage = EndingSessionStorage(config.get_option("server.disconnectedSessionTTL"))
    # Streamlit 1.67 has no setting for this storage: its session manager is given this one.
    Runtime.instance()._session_mgr._session_storage = storage
    task = asyncio.create_task(_sweep(storage))
    try:
        yield None
    finally:
        task.cancel()
