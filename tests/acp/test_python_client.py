"""`tether acp` driven by the official Python SDK's client (`acp.spawn_agent_process`):
config options, a model switch, commands, a plan, an MCP server and a permission request."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from acp import PROTOCOL_VERSION, spawn_agent_process, text_block
from acp.schema import (
    AgentPlanUpdate,
    AllowedOutcome,
    AvailableCommandsUpdate,
    CurrentModeUpdate,
    McpServerStdio,
    RequestPermissionResponse,
    ToolCallProgress,
    ToolCallStart,
)

from tests.acp.wire import tether_command
from tests.mcp.support import SAMPLE


class Recorder:
    """A client that records every update and allows every request once."""

    def __init__(self) -> None:
        self.updates: list[Any] = []
        self.permissions: list[Any] = []

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        """Keep the update."""
        self.updates.append(update)

    async def request_permission(
        self, options: Any, session_id: str, tool_call: Any, **kwargs: Any
    ) -> RequestPermissionResponse:
        """Allow once."""
        self.permissions.append(tool_call)
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id="allow_once")
        )

    def of(self, kind: type) -> list[Any]:
        """The updates of one type."""
        return [u for u in self.updates if isinstance(u, kind)]


async def test_python_sdk_client(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "a.py").write_text("x = 1\ny = 2\n")
    models = tmp_path / "models"
    models.mkdir()
    (models / "first.json").write_text(json.dumps({"turns": [{"text": "unused"}]}))
    todos = [{"content": "Edit a.py", "status": "in_progress"}]
    second = {
        "turns": [
            {
                "toolCalls": [
                    {"id": "t", "name": "todo", "arguments": {"todos": todos}},
                    {"id": "r", "name": "read", "arguments": {"path": "a.py"}},
                    {"id": "m", "name": "mcp__sample__add", "arguments": {"a": 1, "b": 2}},
                ]
            },
            {
                "toolCalls": [
                    {
                        "id": "e",
                        "name": "edit",
                        "arguments": {"path": "a.py", "old_string": "y = 2", "new_string": "y = 3"},
                    }
                ]
            },
            {"text": "done"},
        ]
    }
    (models / "second.json").write_text(json.dumps(second))
    client = Recorder()
    command, *args = tether_command()
    env = {**os.environ, "TETHER_HOME": str(tmp_path / "home")}
    async with spawn_agent_process(
        client, command, *args, "acp", "--model", f"script:{models / 'first.json'}", env=env
    ) as (conn, _process):
        init = await conn.initialize(protocol_version=PROTOCOL_VERSION)
        assert init.agent_capabilities.mcp_capabilities.http
        sample = McpServerStdio(
            name="sample", command=sys.executable, args=[str(SAMPLE), "stdio"], env=[]
        )
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[sample])
        options = {o.id: o for o in session.config_options or ()}
        assert options["model"].current_value == f"script:{models / 'first.json'}"
        to = f"script:{models / 'second.json'}"
        switched = await conn.set_config_option(
            config_id="model", session_id=session.session_id, value=to
        )
        current = {o.id: o for o in switched.config_options}
        assert current["model"].current_value == to
        await conn.prompt(session_id=session.session_id, prompt=[text_block("/mode accept-edits")])
        reply = await conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
        assert reply.stop_reason == "end_turn"

    [commands] = client.of(AvailableCommandsUpdate)
    assert {c.name for c in commands.available_commands} >= {"compact", "init", "mode"}
    assert [u.current_mode_id for u in client.of(CurrentModeUpdate)] == ["accept-edits"]
    [plan] = client.of(AgentPlanUpdate)
    assert [(e.content, e.status) for e in plan.entries] == [("Edit a.py", "in_progress")]
    starts = {u.tool_call_id: u for u in client.of(ToolCallStart)}
    assert starts["m"].title == "Add numbers (sample)"
    done = {u.tool_call_id: u for u in client.of(ToolCallProgress) if u.status == "completed"}
    assert done["m"].content[0].content.text == "3"
    assert [(loc.path, loc.line) for loc in done["r"].locations] == [(str(workspace / "a.py"), 1)]
    assert [(loc.path, loc.line) for loc in done["e"].locations] == [(str(workspace / "a.py"), 1)]
    # accept-edits: the edit inside the workspace did not ask.
    assert client.permissions == []
    assert (workspace / "a.py").read_text() == "x = 1\ny = 3\n"
