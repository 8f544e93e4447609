"""An agent's session for the page: its log as entries, followed while it runs, then done."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.support import SAMPLE
from tests.polling import eventually
from tests.session.helpers import Recorder, Sessions, call, script, text
from tether.mcp import StdioServer
from tether.session import Session, SessionConfig
from tether.session.log.events import ParentLink
from tether.session.replay import replay
from tether.session.updates import ToolCallFinished, ToolCallStarted
from tether.tools.defaults import default_tools
from tether.views import TaskResultView, dump_view
from tether.web.children import ChildEntries, ChildWatches
from tether.web.enrich import enrich_tool_call, enrich_update
from tether.web.protocol import SERVER_MESSAGE, ServerMessage


@pytest.fixture
def sessions(tmp_path: Path) -> Iterator[Sessions]:
    """Sessions in a data directory of the test's own, closed when it ends."""
    with Sessions(tmp_path / "home") as opened:
        yield opened


def child_of(sessions: Sessions, ws: Path, model: Any) -> Session:
    """A session whose header names a parent, as an agent's does."""
    config = SessionConfig(model=model, tools=default_tools(), mode="auto")
    link = ParentLink(id="parent", call_id="t1")
    return sessions.add(Session.create(sessions.store, ws, config, parent=link, title="x"))


async def test_a_childs_log_becomes_updates_with_each_messages_markdown(
    ws: Path, sessions: Sessions
) -> None:
    (ws / "a.py").write_text("x = 1\n")
    child = child_of(
        sessions,
        ws,
        script(
            {"text": "Reading **it**.", "toolCalls": [call("r", "read", {"path": "a.py"})]},
            {"text": "It sets `x`."},
        ),
    )
    await child.prompt(text("look"), lambda _u: None)
    updates = replay(child.events, default_tools(), str(ws))
    running = ChildEntries(ws).add(updates)
    made = ChildEntries(ws)
    # Made as the log grows, one update at a time: the same entries as made at once.
    piecewise = sum((made.add([update]) for update in updates), ())
    assert piecewise == running
    ended = running + made.end()
    # A message's Markdown comes once it is over.
    kinds = [e.update["sessionUpdate"] if e.update else f"markdown {e.markdown}" for e in ended]
    assert kinds == [
        "session_info_update",  # its title, set as it started
        "user_message_chunk",
        "agent_message_chunk",
        "agent_message_chunk",
        "markdown <p>Reading <strong>it</strong>.</p>\n",
        "tool_call",
        "tool_call_update",
        "agent_message_chunk",
        "agent_message_chunk",
        "agent_message_chunk",
        "markdown <p>It sets <code>x</code>.</p>\n",
        "session_info_update",
    ]
    read = next(e.update for e in ended if e.update and e.update.get("status") == "completed")
    assert read["_meta"]["tether"]["view"]["tokens"]  # enriched as the agent's own cards are


class Page:
    """What the server sends a page, as JSON (the form the socket carries)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def __call__(self, message: ServerMessage) -> None:
        self.sent.append(SERVER_MESSAGE.dump_python(message, mode="json", by_alias=True))


async def test_a_running_child_is_followed_until_it_ends(ws: Path, sessions: Sessions) -> None:
    child = child_of(sessions, ws, script({"text": "first"}, {"text": "second"}))
    await child.prompt(text("one"), lambda _u: None)
    page = Page()
    watches = ChildWatches(lambda: sessions.store, page)
    try:
        watches.watch(child.id)
        await eventually(lambda: page.sent, "the transcript so far")
        first = page.sent[0]
        assert first["type"] == "childUpdates" and first["done"] is False
        await child.prompt(text("two"), lambda _u: None)
        child.close()  # it ended: the lock is free
        await eventually(lambda: page.sent[-1]["done"], "the end of the child")
    finally:
        await watches.close()
    entries = [e for message in page.sent for e in message["entries"]]
    users = [
        e["update"]["content"]["text"]
        for e in entries
        if "update" in e and e["update"]["sessionUpdate"] == "user_message_chunk"
    ]
    assert users == ["one", "two"]
    assert [e["markdown"] for e in entries if "markdown" in e] == [
        "<p>first</p>\n",
        "<p>second</p>\n",
    ]


async def test_only_agents_sessions_that_exist_are_shown(ws: Path, sessions: Sessions) -> None:
    top = sessions.new(ws, script())
    page = Page()
    watches = ChildWatches(lambda: sessions.store, page)
    try:
        watches.watch(top.id)
        watches.watch("../../etc/passwd")
        watches.watch("nothere")
        await eventually(lambda: len(page.sent) == 3, "three answers")
    finally:
        await watches.close()
    errors = sorted(m["error"] for m in page.sent)
    assert all(m["done"] and m["entries"] == [] for m in page.sent)
    assert errors[0].startswith("no session 'nothere'")
    assert errors[1] == "not a session id: '../../etc/passwd'"
    assert errors[2] == f"session {top.id} is not an agent's session"


def test_task_cards_gain_their_reports_html_and_delegated_cards_are_checked() -> None:
    card = dump_view(
        TaskResultView(
            agent="explore",
            description="d",
            session_id="s",
            summary="**found**",
            tool_calls=1,
            stop_reason="end_turn",
        )
    )
    update = {
        "sessionUpdate": "tool_call_update",
        "toolCallId": "t",
        "_meta": {"tether": {"view": card}},
    }
    assert (
        enrich_update(update)["_meta"]["tether"]["view"]["html"]
        == "<p><strong>found</strong></p>\n"
    )
    asked = {
        "toolCallId": "t",
        "title": "general › Write a",
        "_meta": {
            "tether": {
                "reason": "edits need approval in ask mode",
                "delegated": {
                    "agent": "general",
                    "view": {
                        "card": "diff",
                        "title": "Write a",
                        "diffs": [{"path": "/w/a", "oldText": None, "newText": "x\n"}],
                    },
                },
            }
        },
    }
    out = enrich_tool_call(asked, call=True)["_meta"]["tether"]["delegated"]
    assert out["agent"] == "general"
    assert out["view"]["diffs"][0]["hunks"]  # enriched like the agent's own diffs
    asked["_meta"]["tether"]["delegated"]["view"] = {"card": "chart"}
    assert "view" not in enrich_tool_call(asked, call=True)["_meta"]["tether"]["delegated"]
    json.dumps(out)


async def test_an_agents_mcp_calls_show_their_live_cards(ws: Path, sessions: Sessions) -> None:
    from tether.mcp.servers import McpServers  # the SDK, for this test alone

    servers = await McpServers.start([_sample()], ws)
    try:
        child = child_of(
            sessions,
            ws,
            script(
                {
                    "toolCalls": [
                        call("a", "mcp__sample__add", {"a": 2, "b": 3}),
                        call("p", "mcp__sample__picture", {}),
                    ]
                },
                {"text": "done"},
            ),
        )
        for tool in servers.tools():
            child.tools.add(tool)
        live = Recorder()
        await child.prompt(text("use them"), live)
    finally:
        await servers.close()
    cards = [u for u in live.updates if isinstance(u, ToolCallStarted | ToolCallFinished)]
    assert [u.view.title for u in cards if isinstance(u, ToolCallStarted)] == [
        "Add numbers (sample)",
        "picture (sample)",
    ]
    # Replayed with the default tools alone, as the page follows an agent's session.
    replayed = replay(child.events, default_tools(), str(ws))
    assert [u for u in replayed if isinstance(u, ToolCallStarted | ToolCallFinished)] == cards
    entries = ChildEntries(ws).add(replayed)
    titles = [e.update["title"] for e in entries if e.update and "title" in e.update]
    assert titles[-2:] == ["Add numbers (sample)", "picture (sample)"]


def _sample() -> StdioServer:
    return StdioServer(name="sample", command=sys.executable, args=(str(SAMPLE), "stdio"))
