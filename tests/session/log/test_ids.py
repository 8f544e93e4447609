"""Session ids handed out before the session exists: unique, time-ordered, then used as given."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import pytest

from tests.session.helpers import script
from tether.errors import CorruptLog, SessionNotFound
from tether.session import Session, SessionConfig, SessionStore
from tether.tools import ToolRegistry

_ID = re.compile(r"[0-9a-f]{12}[0-9a-f]{8}")
"""Milliseconds since the epoch in 12 hex digits, then 4 random bytes."""


def _millis() -> int:
    return time.time_ns() // 1_000_000


def test_ids_are_unique_and_ordered_by_time_across_threads(home: Path, ws: Path) -> None:
    store = SessionStore(home)
    threads, per_thread = 8, 200
    handed: list[list[tuple[int, str, int]]] = [[] for _ in range(threads)]
    start = threading.Barrier(threads)

    def allocate(mine: list[tuple[int, str, int]]) -> None:
        start.wait()
        for _ in range(per_thread):
            before = _millis()
            session_id = store.new_id()
            mine.append((before, session_id, _millis()))

    workers = [threading.Thread(target=allocate, args=(mine,)) for mine in handed]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    ids = [session_id for mine in handed for _, session_id, _ in mine]
    assert len(set(ids)) == threads * per_thread
    assert all(_ID.fullmatch(session_id) for session_id in ids)
    for mine in handed:
        # Each id carries the time it was handed out, so ids sort by creation.
        assert all(before <= int(sid[:12], 16) <= after for before, sid, after in mine)
        prefixes = [sid[:12] for _, sid, _ in mine]
        assert prefixes == sorted(prefixes)


def test_sessions_created_at_once_get_their_own_logs(home: Path, ws: Path) -> None:
    store = SessionStore(home)
    created: list[str] = []
    start = threading.Barrier(8)

    def create() -> None:
        start.wait()
        for _ in range(10):
            log = store.create(ws, store.new_id())
            log.close()
            created.append(log.header.id)

    workers = [threading.Thread(target=create) for _ in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(set(created)) == 80
    assert {info.id for info in store.list_sessions()} == set(created)


def test_a_session_is_created_under_the_id_handed_out(home: Path, ws: Path) -> None:
    store = SessionStore(home)
    session_id = store.new_id()
    assert not store.path(session_id).exists()
    config = SessionConfig(model=script(), tools=ToolRegistry([]))
    session = Session.create(store, ws, config, session_id)
    session.close()
    assert session.id == session_id
    assert store.read(session_id).header.id == session_id
    logged = store.path(session_id).read_bytes()
    # An id already taken is never reused: the first log stays as it was.
    with pytest.raises(FileExistsError):
        Session.create(store, ws, config, session_id)
    assert store.path(session_id).read_bytes() == logged


def test_the_header_is_read_alone(home: Path, ws: Path) -> None:
    store = SessionStore(home)
    log = store.create(ws)
    log.close()
    assert store.header(log.header.id) == log.header
    with pytest.raises(SessionNotFound):
        store.header(store.new_id())
    (home / "sessions" / "broken.jsonl").write_text('{"type":"session"}\n')
    with pytest.raises(CorruptLog, match="not a session header"):
        store.header("broken")
