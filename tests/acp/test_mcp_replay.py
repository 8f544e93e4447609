"""An MCP tool's cards replayed without its server are the cards shown live: ACP `session/load`
with no server, `tether show`'s replay and the web page following the log all agree."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from tests.acp.memory import InMemoryAgents
from tests.acp.support import prompt_params, script_spec, session_updates
from tests.acp.wire import Message
from tests.mcp.support import SAMPLE
from tether.acp.calls import SessionCalls
from tether.cli import main
from tether.session import SessionStore
from tether.session.log.eventlog import read_log
from tether.session.replay import replay
from tether.tools.defaults import default_tools
from tether.web.client import PageClient
from tether.web.enrich import enrich_update
from tether.web.follow import LogFollower
from tether.web.protocol import AgentUpdate, ReadOnly, ServerMessage

CALLS = {
    "add": ("mcp__sample__add", {"a": 2, "b": 3}),  # read-only: kind read
    "note": ("mcp__sample__write_note", {"text": "hello"}),  # open world: kind fetch
    "picture": ("mcp__sample__picture", {}),  # an image: an attachment on the result card
    "document": ("mcp__sample__document", {}),  # a resource and a link
    "fail": ("mcp__sample__fail", {"reason": "not today"}),  # kind other, failed
}


def _cards(updates: list[Message]) -> dict[str, tuple[Message, Message]]:
    """Each call's first card (`tool_call`) and its last update, by call id."""
    started = {u["toolCallId"]: u for u in updates if u["sessionUpdate"] == "tool_call"}
    last = {u["toolCallId"]: u for u in updates if u["sessionUpdate"] == "tool_call_update"}
    return {call_id: (started[call_id], last[call_id]) for call_id in started}


async def test_mcp_cards_replay_as_they_were_shown_live(
    tmp_path: Path,
    agents: InMemoryAgents,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    calls = [{"id": i, "name": name, "arguments": args} for i, (name, args) in CALLS.items()]
    model = script_spec(tmp_path, {"toolCalls": calls}, {"text": "done"})
    agent = await agents.start(tmp_path / "home", "--model", model)
    server = {"name": "sample", "command": sys.executable, "args": [str(SAMPLE), "stdio"]}
    try:
        await agent.initialize()
        reply, _ = await agent.request(
            "session/new", {"cwd": str(workspace), "mcpServers": [{**server, "env": []}]}
        )
        session_id = reply["result"]["sessionId"]
        reply, live_notes = await agent.request(
            "session/prompt",
            prompt_params(session_id, "use the tools"),
            lambda _: {"outcome": {"outcome": "selected", "optionId": "allow_always"}},
        )
        assert reply["result"] == {"stopReason": "end_turn"}
        # Loaded again with no server: nothing connected knows these tools.
        loaded, load_notes = await agent.request(
            "session/load", {"sessionId": session_id, "cwd": str(workspace), "mcpServers": []}
        )
        assert "result" in loaded
    finally:
        assert await agent.close() == 0
    live = _cards(session_updates(live_notes))
    assert sorted(live) == sorted(CALLS)
    assert (live["add"][0]["title"], live["add"][0]["kind"]) == ("Add numbers (sample)", "read")
    assert live["note"][0]["kind"] == "fetch" and live["fail"][1]["status"] == "failed"
    picture_view = live["picture"][1]["_meta"]["tether"]["view"]
    assert picture_view["attachments"][0]["type"] == "image"

    assert _cards(session_updates(load_notes)) == live

    # `tether show` replays the log with the default tools alone.
    store = SessionStore(tmp_path / "home")
    contents = read_log(store.path(session_id))
    mapper = SessionCalls(workspace)
    shown = [
        acp.model_dump(mode="json", by_alias=True, exclude_none=True)
        for update in replay(contents.events, default_tools(), contents.header.cwd)
        for acp in mapper.acp(update)
    ]
    assert _cards(shown) == live
    # And as `tether show` draws them in the terminal.
    monkeypatch.setenv("TETHER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NO_COLOR", "1")
    capsys.readouterr()
    assert main(["show", session_id]) == 0
    drawn = capsys.readouterr().out
    for title in ("Add numbers (sample)", "write_note (sample)", "picture (sample)"):
        assert title in drawn
    headings = [line for line in drawn.splitlines() if line.startswith("╭")]
    assert headings and not [line for line in headings if "mcp__sample__" in line]

    # The web page following the log, as a tab does while another holds the session.
    assert _cards(await _followed(store, session_id)) == {
        call_id: (enrich_update(first), enrich_update(last))
        for call_id, (first, last) in live.items()
    }


async def _followed(store: SessionStore, session_id: str) -> list[Message]:
    """The session updates a page following the session's log is sent."""
    sent: list[ServerMessage] = []

    async def send(message: ServerMessage) -> None:
        sent.append(message)

    follower = LogFollower(store, session_id, PageClient(send), send)
    following = asyncio.create_task(follower.run())
    try:
        async with asyncio.timeout(15):
            while not any(isinstance(m, ReadOnly) for m in sent):
                await asyncio.sleep(0.05)
    finally:
        following.cancel()
        await asyncio.gather(following, return_exceptions=True)
    return [m.update for m in sent if isinstance(m, AgentUpdate)]
