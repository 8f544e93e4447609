"""Following a held session's log: what it appends, read once, sent once, in order."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tether.content import TextContent
from tether.session import SessionStore
from tether.session.log.eventlog import LogTail
from tether.session.log.events import AssistantChunk, TurnEnd, TurnStart, UserMessageEvent
from tether.session.replay import Replayer, replay
from tether.tools.defaults import default_tools
from tether.web.client import PageClient
from tether.web.follow import LogFollower
from tether.web.protocol import AgentUpdate, ReadOnly, ServerMessage

WAIT_S = 15


def _prompt(words: str) -> list[object]:
    return [
        TurnStart(),
        UserMessageEvent(content=(TextContent(text=words),)),
        AssistantChunk(text=f"About {words}."),
        TurnEnd(stop_reason="end_turn"),
    ]


def test_a_tail_reads_each_appended_line_once_and_waits_for_a_whole_line(
    tmp_path: Path,
) -> None:
    store = SessionStore(tmp_path / "sessions")
    writer = store.create(tmp_path)
    tail = LogTail(store.path(writer.header.id))
    try:
        assert tail.more() == [] and tail.header == writer.header
        for event in _prompt("one"):
            writer.append(event)  # type: ignore[type-var]
        first = tail.more()
        assert [e.seq for e in first] == [1, 2, 3, 4]
        assert tail.more() == []
        with store.path(writer.header.id).open("ab") as log:
            log.write(b'{"type": "turn/start", "seq": 5')  # a line still being written
        assert tail.more() == []
        with store.path(writer.header.id).open("ab") as log:
            log.write(b', "time": "2026-01-01T00:00:00.000Z"}\n')
        assert [e.seq for e in tail.more()] == [5]
    finally:
        writer.close()


def test_a_log_replayed_in_pieces_gives_what_it_gives_whole(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "sessions")
    writer = store.create(tmp_path)
    try:
        for words in ("one", "two"):
            for event in _prompt(words):
                writer.append(event)  # type: ignore[type-var]
        events = LogTail(store.path(writer.header.id)).more()
    finally:
        writer.close()
    replayer = Replayer(default_tools(), str(tmp_path))
    pieces = [update for event in events for update in replayer.feed([event])]
    assert [*pieces, *replayer.end()] == replay(events, default_tools(), str(tmp_path))


async def test_a_follower_reads_only_what_the_log_appended(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "sessions")
    writer = store.create(tmp_path)  # held by this writer: the follower only reads
    session_id = writer.header.id
    sent: list[ServerMessage] = []

    async def send(message: ServerMessage) -> None:
        sent.append(message)

    def said() -> list[str]:
        return [
            m.update["content"]["text"]
            for m in sent
            if isinstance(m, AgentUpdate) and m.update["sessionUpdate"] == "user_message_chunk"
        ]

    async def until(check: object) -> None:
        async with asyncio.timeout(WAIT_S):
            while not check():  # type: ignore[operator]
                await asyncio.sleep(0.05)

    for event in _prompt("one"):
        writer.append(event)  # type: ignore[type-var]
    follower = LogFollower(store, session_id, PageClient(send), send)
    following = asyncio.create_task(follower.run())
    try:
        await until(lambda: any(isinstance(m, ReadOnly) for m in sent))
        assert said() == ["one"]
        # What was read already is not read again: spoiled in place, it changes nothing.
        path = store.path(session_id)
        size = path.stat().st_size
        with path.open("r+b") as log:
            start = log.readline().__len__()
            log.seek(start)
            log.write(b"x" * (size - start - 1))
        for event in _prompt("two"):
            writer.append(event)  # type: ignore[type-var]
        await until(lambda: said() == ["one", "two"])
    finally:
        following.cancel()
        await asyncio.gather(following, return_exceptions=True)
        writer.close()
