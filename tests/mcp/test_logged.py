"""An MCP call replayed from its log without the server: by the card logged with it, by the
generic card for logs from before it was logged, and with a warning when the record is wrong."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.mcp.support import SAMPLE
from tether.errors import ToolError
from tether.mcp import StdioServer
from tether.mcp.card import McpCard
from tether.mcp.presenter import LoggedMcpTool, McpArgs
from tether.mcp.servers import McpServers
from tether.session import SessionStore
from tether.session.calls import prepare
from tether.session.log.eventlog import read_log
from tether.session.log.events import ToolCallEvent
from tether.session.replay import replay
from tether.session.updates import ToolCallFinished, ToolCallStarted
from tether.tools.context import ToolContext
from tether.tools.defaults import default_tools
from tether.tools.workspace import Workspace
from tether.views import GenericCallView, GenericResultView, ImageAttachment

NAME = "mcp__sample__picture"
ARGS = '{"size": 1}'
META = {"text": "a dot", "attachments": [{"type": "image", "mimeType": "image/png", "bytes": 67}]}
"""What the sample server's `picture` call stores beside its result."""


def _log(
    tmp_path: Path, mcp: object = None, *, name: str = NAME, arguments: str = ARGS
) -> list[object]:
    """A log of one call of `name` (with `mcp` as its record, when given) and its result,
    written as lines, replayed with the default tools: the cards of the call."""
    store = SessionStore(tmp_path / "home")
    writer = store.create(tmp_path)
    path = store.path(writer.header.id)
    writer.close()
    call: dict[str, object] = {"toolCallId": "c", "name": name, "arguments": arguments}
    if mcp is not None:
        call["mcp"] = mcp
    result = {"toolCallId": "c", "content": [{"type": "text", "text": "a dot"}], "meta": META}
    with path.open("a") as log:
        for seq, event in enumerate(
            ({"type": "tool/call", **call}, {"type": "tool/result", **result})
        ):
            log.write(json.dumps({**event, "seq": seq + 1, "time": "2026-12-05T10:00:00Z"}) + "\n")
    contents = read_log(path)
    updates = replay(contents.events, default_tools(), contents.header.cwd)
    return [u.view for u in updates if isinstance(u, ToolCallStarted | ToolCallFinished)]


GENERIC = [
    GenericCallView(title=NAME, kind="other", raw_input={"size": 1}),
    GenericResultView(content="a dot"),
]
"""The cards of a call whose tool is unknown: what every MCP call got before cards were logged."""


def test_a_logged_card_replays_without_the_server(tmp_path: Path) -> None:
    record = {"server": "sample", "title": "Picture", "kind": "fetch"}
    assert _log(tmp_path, record) == [
        GenericCallView(title="Picture (sample)", kind="fetch", raw_input={"size": 1}),
        GenericResultView(
            content="a dot", attachments=(ImageAttachment(mime_type="image/png", bytes=67),)
        ),
    ]


def test_a_log_from_before_cards_were_logged_replays_generic(tmp_path: Path) -> None:
    assert _log(tmp_path) == GENERIC


@pytest.mark.parametrize(
    ("record", "said"),
    [
        ({"server": "other", "title": "Picture", "kind": "read"}, "is not the server of"),
        ({"server": "", "title": "Picture", "kind": "read"}, "is not the server of"),
        ({"server": "sample__picture", "title": "P", "kind": "read"}, "is not the server of"),
        ({"server": "sample", "title": "  ", "kind": "read"}, "its title is empty"),
        ({"server": "sample", "title": "Picture", "kind": "edit"}, "its kind 'edit' is not one"),
        ({"server": "sample", "title": 5, "kind": "read"}, "title: Input should be a valid string"),
        ({"server": "sample"}, "title: Field required; kind: Field required"),
        ("sample", "it: Input should be a dictionary"),
        ([1, 2], "it: Input should be a dictionary"),
    ],
)
def test_a_wrong_record_gets_a_warning_and_the_generic_card(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, record: object, said: str
) -> None:
    assert _log(tmp_path, record) == GENERIC  # the call and its result still replay
    [warning] = caplog.messages
    assert warning.startswith(f"call c of {NAME}: its logged MCP card is ignored (")
    assert said in warning


def test_a_record_on_another_tools_call_is_ignored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # A record may only make an MCP call's card, never dress up another tool's call.
    record = {"server": "sample", "title": "Read", "kind": "read"}
    [call, _] = _log(tmp_path, record, name="custom")
    assert call == GenericCallView(title="custom", kind="other", raw_input={"size": 1})
    assert "call c of custom: its logged MCP card is ignored" in caplog.text
    # A tool the replay has keeps its own cards, whatever the call's record says.
    [read, _] = _log(tmp_path / "read", record, name="read", arguments='{"path": "a.txt"}')
    assert isinstance(read, GenericCallView) and (read.title, read.kind) == ("Read a.txt", "read")


async def test_a_logged_tool_is_never_offered_and_cannot_run(tmp_path: Path) -> None:
    card = McpCard(server="sample", title="Picture", kind="read")
    event = ToolCallEvent(tool_call_id="c", name=NAME, arguments=ARGS, mcp=card.record())
    call = prepare(default_tools(), event, str(tmp_path))
    assert isinstance(call.tool, LoggedMcpTool) and call.rejected is None
    assert call.tool.unavailable() == "MCP server sample is not connected"
    with pytest.raises(ToolError, match="MCP server sample is not connected"):
        await call.tool.execute(McpArgs(), ToolContext(workspace=Workspace.at(tmp_path)))
    assert call.tool.render(McpArgs(), None) == []
    # A long log's calls of one tool share one stand-in, as a live session's share one tool.
    again = ToolCallEvent(tool_call_id="d", name=NAME, arguments="{}", mcp=card.record())
    assert prepare(default_tools(), again, str(tmp_path)).tool is call.tool


async def test_a_replay_shows_the_logged_card_even_when_the_server_has_changed(
    tmp_path: Path,
) -> None:
    spec = StdioServer(name="sample", command=sys.executable, args=(str(SAMPLE), "stdio"))
    servers = await McpServers.start([spec], tmp_path)
    try:
        tools = default_tools()
        for tool in servers.tools():
            tools.add(tool)
        # The call was made when the server titled its tool otherwise.
        before = McpCard(server="sample", title="Sum", kind="fetch").record()
        event = ToolCallEvent(tool_call_id="c", name="mcp__sample__add", arguments="{}", mcp=before)
        [started] = replay([event], tools, str(tmp_path))
        assert isinstance(started, ToolCallStarted)
        assert started.view == GenericCallView(title="Sum (sample)", kind="fetch", raw_input={})
        # A call being made now runs on the server's tool, titled as the server says now.
        live = prepare(tools, event, str(tmp_path))
        assert live.tool is tools.get("mcp__sample__add")
        assert live.started().view == GenericCallView(
            title="Add numbers (sample)", kind="read", raw_input={}
        )
    finally:
        await servers.close()
