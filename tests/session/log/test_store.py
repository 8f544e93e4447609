"""The store: where logs live and how sessions are listed and found."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.session.crafted import CRAFTED, plant
from tests.session.helpers import Recorder, Sessions, script, text
from tether.errors import SessionNotFound
from tether.session import SessionStore, data_dir
from tether.session.log.store import last_lines


async def test_sessions_are_listed_newest_first_with_titles_and_turns(
    home: Path, ws: Path, sessions: Sessions, caplog: pytest.LogCaptureFixture
) -> None:
    first = sessions.new(ws, script({"text": "a"}, {"text": "b"}))
    await first.prompt(text("first session"), Recorder())
    await first.prompt(text("second prompt"), Recorder())
    second = sessions.new(ws, script())
    (home / "sessions" / "broken.jsonl").write_text("not a log\n")

    infos = SessionStore(home).list_sessions()
    assert [i.id for i in infos] == [second.id, first.id]
    # The broken log is skipped with a warning that names it.
    [skipped] = [r.getMessage() for r in caplog.records if "skipped" in r.getMessage()]
    assert skipped.startswith("session log broken.jsonl skipped: ")
    assert (infos[1].title, infos[1].turns, infos[1].cwd) == ("first session", 2, str(ws))
    assert infos[1].updated_at > infos[1].created_at
    assert (infos[0].title, infos[0].turns, infos[0].updated_at) == (
        None,
        0,
        infos[0].created_at,
    )


async def test_a_torn_tail_does_not_hide_a_session_from_the_list(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    session = sessions.new(ws, script({"text": "a"}))
    await session.prompt(text("kept"), Recorder())
    path = home / "sessions" / f"{session.id}.jsonl"
    ended = json.loads(path.read_text().splitlines()[-1])["time"]
    with path.open("a") as handle:
        handle.write('{"type":"session/title","seq":9,"time":"2099-01-01T00:00:00Z","tit')
    [info] = SessionStore(home).list_sessions()
    assert (info.title, info.turns, info.updated_at) == ("kept", 1, ended)


async def test_lines_nested_too_deeply_do_not_break_the_list(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    session = sessions.new(ws, script({"text": "a"}))
    await session.prompt(text("kept"), Recorder())
    deep = "[" * 100_000
    (home / "sessions" / "deep-header.jsonl").write_text(deep + "\n")
    path = home / "sessions" / f"{session.id}.jsonl"
    tail = home / "sessions" / "deep-tail.jsonl"
    tail.write_bytes(path.read_bytes().replace(session.id.encode(), b"deep-tail") + deep.encode())
    titled = home / "sessions" / "deep-title.jsonl"
    header = path.read_text().splitlines()[0].replace(session.id, "deep-title")
    titled.write_text(header + '\n{"type":"session/title",' + deep + "\n")
    infos = {info.id: info for info in SessionStore(home).list_sessions()}
    assert set(infos) == {session.id, "deep-tail"}
    assert infos["deep-tail"].title == "kept"


def test_an_empty_store_lists_nothing(tmp_path: Path) -> None:
    assert SessionStore(tmp_path / "none").list_sessions() == []


def test_ids_resolve_from_unique_prefixes(home: Path, ws: Path) -> None:
    store = SessionStore(home)
    log = store.create(ws)
    log.close()
    session_id = log.header.id
    assert store.resolve(session_id) == session_id
    assert store.resolve(session_id[:16]) == session_id
    with pytest.raises(SessionNotFound, match="no session 'zzz'"):
        store.resolve("zzz")
    with pytest.raises(SessionNotFound, match="not a session id"):
        store.read("../etc/passwd")


def test_the_data_dir_is_tether_home_when_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TETHER_HOME", str(tmp_path))
    assert data_dir() == tmp_path
    monkeypatch.delenv("TETHER_HOME")
    assert data_dir().name == "tether"


async def test_delete_removes_the_log_unless_a_writer_holds_it(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    from tether.errors import SessionLocked

    store = SessionStore(home)
    held = sessions.new(ws, script())
    with pytest.raises(SessionLocked, match="already open"):
        store.delete(held.id)
    assert store.path(held.id).exists()
    held.close()
    store.delete(held.id)
    assert not store.path(held.id).exists()
    assert not store.path(held.id).with_suffix(".lock").exists()
    with pytest.raises(SessionNotFound):
        store.delete(held.id)


async def test_crafted_logs_are_named_and_the_others_listed(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    session = sessions.new(ws, script({"text": "a"}))
    await session.prompt(text("kept"), Recorder())
    plant(home / "sessions", home / "sessions" / f"{session.id}.jsonl")
    infos, unreadable = SessionStore(home).scan()
    assert {info.id for info in infos} == {session.id, "last-line-list"}
    why = {path.stem: said for path, said in unreadable}
    assert set(why) == {name for name, said in CRAFTED.items() if said}
    for name, said in why.items():
        assert CRAFTED[name] in said, (name, said)
    listed = {info.id: info for info in infos}
    assert listed["last-line-list"].title == "kept"
    # Whoever only wants the list gets it, and a warning for each of the others.
    assert [info.id for info in SessionStore(home).list_sessions()] == [i.id for i in infos]


@given(
    st.binary(max_size=60).map(lambda raw: bytes(b"a\r\n"[byte % 3] for byte in raw)),
    st.integers(1, 3),
    st.integers(1, 8),
)
def test_the_last_lines_cut_from_a_tail_are_the_last_of_the_whole(
    data: bytes, count: int, window: int
) -> None:
    # The listing's update time comes from the last two lines, found without cutting up the
    # whole log; `\r` and `\r\n` end lines too, and may straddle where the tail starts.
    assert last_lines(data, count, window) == data.splitlines()[-count:]
