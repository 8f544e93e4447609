"""Checkpoints over ACP through the official Python SDK's client: `/rewind` lists, `/undo` asks
about a file the person changed (the answer decides), `/redo`, and the unstable session
methods `session/fork`, `session/resume` and `session/close`; a restore's notice comes back on
`session/load` in another agent as it was shown live. The agents run in process, the SDK's
client speaking to them over in-memory streams."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from acp import PROTOCOL_VERSION, text_block
from acp.schema import (
    AgentMessageChunk,
    AllowedOutcome,
    RequestPermissionResponse,
    UserMessageChunk,
)

from tests.acp.memory import InMemoryAgents
from tests.acp.snapshots import checked_on_load
from tether.session import SessionStore
from tether.session.log.workspace_events import CommandEvent, RestoreEvent


class Client:
    """Records updates; answers each permission request with the next of `answers`."""

    def __init__(self, answers: list[str]) -> None:
        self.updates: list[Any] = []
        self.asked: list[Any] = []
        self.answers = answers

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        self.updates.append((session_id, update))

    async def request_permission(
        self, options: Any, session_id: str, tool_call: Any, **kwargs: Any
    ) -> RequestPermissionResponse:
        self.asked.append((tool_call, [o.option_id for o in options]))
        chosen = self.answers.pop(0)
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=chosen)
        )

    def texts(self, session_id: str) -> str:
        return "".join(
            u.content.text
            for s, u in self.updates
            if s == session_id and isinstance(u, AgentMessageChunk)
        )

    def notices(self, session_id: str) -> list[dict[str, Any]]:
        return [
            u.field_meta["tether"]["notice"]
            for s, u in self.updates
            if s == session_id and isinstance(u, AgentMessageChunk) and u.field_meta
        ]


def _workspace_and_model(tmp_path: Path) -> tuple[Path, Path]:
    """A workspace with `a.py`, and a script that reads it, edits it and writes `b.txt`."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.py").write_text("x = 1\n")
    model = tmp_path / "model.json"
    turns = [
        {"toolCalls": [{"id": "r", "name": "read", "arguments": {"path": "a.py"}}]},
        {
            "toolCalls": [
                {"id": "e", "name": "edit",
                 "arguments": {"path": "a.py", "old_string": "1", "new_string": "2"}},
                {"id": "w", "name": "write", "arguments": {"path": "b.txt", "content": "b\n"}},
            ]
        },
        {"text": "done"},
    ]  # fmt: skip
    model.write_text(json.dumps({"turns": turns}))
    return ws, model


async def test_rewind_undo_redo_fork_resume_close(tmp_path: Path, agents: InMemoryAgents) -> None:
    ws, model = _workspace_and_model(tmp_path)
    home = tmp_path / "home"
    client = Client(["keep_mine", "take_checkpoint"])
    flags = ["--model", f"script:{model}", "--mode", "auto"]
    async with agents.connect(client, home, *flags) as (conn, _agent):
        init = await conn.initialize(protocol_version=PROTOCOL_VERSION)
        capabilities = init.agent_capabilities.session_capabilities
        assert capabilities.fork and capabilities.resume and capabilities.close
        sid = (await conn.new_session(cwd=str(ws))).session_id
        await conn.prompt(session_id=sid, prompt=[text_block("change a.py")])
        assert (ws / "a.py").read_text() == "x = 2\n" and (ws / "b.txt").exists()
        assert client.notices(sid)[-1] == {
            "kind": "checkpoint", "prompt": 1, "files": ["a.py", "b.txt"],
            "skipped": [], "partial": False,
        }  # fmt: skip

        await conn.prompt(session_id=sid, prompt=[text_block("/rewind")])
        assert "1  change a.py" in client.texts(sid)
        assert "a.py +1 -1, b.txt +1 -0" in client.texts(sid)

        # The person changes a.py: /undo asks, "keep mine" keeps it, b.txt goes.
        (ws / "a.py").write_text("x = 'mine'\n")
        await conn.prompt(session_id=sid, prompt=[text_block("/undo")])
        [(asked, options)] = client.asked
        assert asked.title == "Restore a.py?" and options == ["take_checkpoint", "keep_mine"]
        assert "-x = 'mine'" in asked.content[0].content.text
        assert (ws / "a.py").read_text() == "x = 'mine'\n" and not (ws / "b.txt").exists()
        assert client.notices(sid)[-1] == {
            "kind": "restore", "action": "undo", "prompt": 1,
            "restored": ["b.txt"], "kept": ["a.py"],
        }  # fmt: skip
        await conn.prompt(session_id=sid, prompt=[text_block("/redo")])
        assert (ws / "b.txt").read_text() == "b\n"
        await conn.prompt(session_id=sid, prompt=[text_block("/undo")])
        assert "Cannot undo" not in client.texts(sid)
        await conn.prompt(session_id=sid, prompt=[text_block("/undo")])
        assert "Cannot undo: nothing to undo" in client.texts(sid)

        # A fork before prompt 1 is an empty conversation; one of everything has prompt 1.
        empty = await conn.fork_session(session_id=sid, cwd=str(ws), tether={"prompt": 1})
        await conn.prompt(session_id=empty.session_id, prompt=[text_block("/rewind")])
        assert "has no prompts yet" in client.texts(empty.session_id)
        whole = (await conn.fork_session(session_id=sid, cwd=str(ws))).session_id
        await conn.prompt(session_id=whole, prompt=[text_block("/rewind")])
        assert "1  change a.py" in client.texts(whole)

        # Closing releases the lock: another process could open the session now.
        await conn.close_session(session_id=sid)
        SessionStore(home).open(sid).close()
        # Resuming opens it again without replaying anything.
        before = len(client.updates)
        await conn.resume_session(session_id=sid, cwd=str(ws))
        replayed = [u for s, u in client.updates[before:] if isinstance(u, UserMessageChunk)]
        assert replayed == []
        await conn.prompt(session_id=sid, prompt=[text_block("/rewind")])

    _check_logs(SessionStore(home), sid, empty.session_id, whole)


def _check_logs(store: SessionStore, sid: str, empty: str, whole: str) -> None:
    original = store.read(sid)
    first, every = store.read(empty).header.forked_from, store.read(whole).header.forked_from
    assert first is not None and (first.id, first.seq) == (sid, 0)
    assert every is not None and every.id == sid and every.seq > 0
    # The whole fork holds the original's events as they were, up to where it was made, then
    # the `/rewind` it was asked (with its listing, as a load shows it).
    forked = store.read(whole).events
    assert forked[:-1] == original.events[: every.seq]
    assert isinstance(forked[-1], CommandEvent) and forked[-1].text == "/rewind"
    assert forked[-1].said is not None and "1  change a.py" in forked[-1].said
    restores = [e for e in original.events if isinstance(e, RestoreEvent)]
    assert [(r.action, r.kept) for r in restores] == [
        ("undo", ("a.py",)),
        ("redo", ()),
        ("undo", ()),
    ]


async def test_a_restore_replays_on_load_as_it_was_shown(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    ws, model = _workspace_and_model(tmp_path)
    home = tmp_path / "home"
    flags = ["--model", f"script:{model}", "--mode", "auto"]
    live = Client(["keep_mine"])
    async with agents.connect(live, home, *flags) as (conn, _):
        await conn.initialize(protocol_version=PROTOCOL_VERSION)
        sid = (await conn.new_session(cwd=str(ws))).session_id
        await conn.prompt(session_id=sid, prompt=[text_block("change a.py")])
        # The person changes a.py too: /undo keeps it (asked), /redo puts b.txt back.
        (ws / "a.py").write_text("x = 'mine'\n")
        await conn.prompt(session_id=sid, prompt=[text_block("/undo")])
        await conn.prompt(session_id=sid, prompt=[text_block("/redo")])
    assert [n["kind"] for n in live.notices(sid)] == ["checkpoint", "restore", "restore"]
    assert "undo: restored 1 file to before prompt 1: b.txt; kept as they are: a.py" in (
        live.texts(sid)
    )

    loaded = Client([])
    async with agents.connect(loaded, home, *flags) as (conn, _):
        await conn.initialize(protocol_version=PROTOCOL_VERSION)
        await conn.load_session(session_id=sid, cwd=str(ws), mcp_servers=[])
    # The same cards, text and notices, in the same order, as the live run showed.
    shown = _shown(live, sid)
    assert [u["toolCallId"] for u in shown if u["sessionUpdate"] == "tool_call"] == ["r", "e", "w"]
    assert _shown(loaded, sid) == shown
    assert live.notices(sid) == loaded.notices(sid)
    # The commands come back as the person's messages, each before its notice.
    replayed = [u.content.text for s, u in loaded.updates if isinstance(u, UserMessageChunk)]
    assert replayed == ["change a.py", "/undo", "/redo"]


def _shown(client: Client, session_id: str) -> list[dict[str, Any]]:
    """The updates a load repeats, as they were on the wire."""
    return checked_on_load(
        [
            u.model_dump(mode="json", by_alias=True, exclude_none=True)
            for s, u in client.updates
            if s == session_id
        ]
    )
