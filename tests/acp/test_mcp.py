"""MCP servers over ACP: from `session/new` and from the workspace's `.mcp.json` (approved once)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.acp.memory import InMemoryAgents
from tests.acp.support import prompt_params, script_spec, updates_of
from tests.acp.wire import Message
from tests.mcp.support import SAMPLE
from tests.processes import process_gone
from tests.settings.support import trust


def _stdio(name: str) -> dict[str, object]:
    return {"name": name, "command": sys.executable, "args": [str(SAMPLE), "stdio"], "env": []}


def _call(call_id: str, name: str, **arguments: object) -> dict[str, object]:
    return {"id": call_id, "name": name, "arguments": arguments}


async def test_client_servers_are_tools_with_cards_and_policy(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    model = script_spec(
        tmp_path,
        {
            "toolCalls": [
                _call("add", "mcp__sample__add", a=2, b=3),
                _call("pid", "mcp__sample__pid"),
                _call("note1", "mcp__sample__write_note", text="first"),
            ]
        },
        {
            "toolCalls": [
                _call("note2", "mcp__sample__write_note", text="second"),
                _call("fail", "mcp__sample__fail", reason="not today"),
            ]
        },
        {"text": "done"},
    )
    agent = await agents.start(tmp_path / "home", "--model", model)
    asked: list[Message] = []

    def allow_always(request: Message) -> Message:
        asked.append(request["params"])
        return {"outcome": {"outcome": "selected", "optionId": "allow_always"}}

    try:
        init = await agent.initialize()
        assert init["agentCapabilities"]["mcpCapabilities"] == {"http": True, "sse": True}
        broken = {"name": "broken", "command": str(tmp_path / "missing"), "args": [], "env": []}
        reply, notes = await agent.request(
            "session/new", {"cwd": str(workspace), "mcpServers": [_stdio("sample"), broken]}
        )
        session_id = reply["result"]["sessionId"]
        reply, notes = await agent.request(
            "session/prompt", prompt_params(session_id, "use the tools"), allow_always
        )
        assert reply["result"] == {"stopReason": "end_turn"}
    finally:
        assert await agent.close() == 0
    calls = {u["toolCallId"]: u for u in updates_of(notes, "tool_call")}
    assert (calls["add"]["title"], calls["add"]["kind"]) == ("Add numbers (sample)", "read")
    assert calls["add"]["rawInput"] == {"a": 2, "b": 3}
    assert calls["note1"]["kind"] == "fetch"
    assert calls["fail"]["kind"] == "other"
    done = {u["toolCallId"]: u for u in updates_of(notes, "tool_call_update")}
    assert done["add"]["status"] == "completed"
    assert done["add"]["content"][0]["content"]["text"] == "5"
    assert done["fail"]["status"] == "failed"
    assert "refusing: not today" in done["fail"]["content"][0]["content"]["text"]
    # Read-only tools pass; others ask, and "always" covers that one tool afterwards.
    assert [a["toolCall"]["toolCallId"] for a in asked] == ["note1", "fail"]
    assert asked[0]["toolCall"]["title"] == "write_note (sample)"
    assert (workspace / "notes.txt").read_text() == "first\nsecond\n"
    # A server that failed to start is a notice naming it; the session went on.
    text = "".join(u["content"]["text"] for u in updates_of(notes, "agent_message_chunk"))
    assert "MCP server broken failed to start" in text
    # The servers stopped with the session.
    assert process_gone(int(done["pid"]["content"][0]["content"]["text"]))


async def test_project_servers_start_once_approved_until_they_change(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    # The server is a script in the workspace: what the approval covers includes its content.
    (workspace / "srv.py").write_text(SAMPLE.read_text())
    (workspace / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"proj": {"command": sys.executable, "args": ["srv.py"]}}})
    )
    model = script_spec(
        tmp_path, {"toolCalls": [_call("add", "mcp__proj__add", a=1, b=1)]}, {"text": "ok"}
    )
    home = tmp_path / "home"
    asked: list[Message] = []

    def approve(request: Message) -> Message:
        asked.append(request["params"])
        return {"outcome": {"outcome": "selected", "optionId": "allow_always"}}

    for run in range(3):
        if run == 2:  # the model (say) rewrites the script: asked again before it runs
            with (workspace / "srv.py").open("a") as script:
                script.write("# changed\n")
        agent = await agents.start(home, "--model", model, "--mode", "auto")
        try:
            await agent.initialize()
            reply, _ = await agent.request("session/new", {"cwd": str(workspace), "mcpServers": []})
            session_id = reply["result"]["sessionId"]
            reply, notes = await agent.request(
                "session/prompt", prompt_params(session_id, "add"), approve
            )
            [done] = updates_of(notes, "tool_call_update")
            assert done["status"] == "completed", done
            assert done["content"][0]["content"]["text"] == "2"
        finally:
            assert await agent.close() == 0
    # Asked in the first process, not the second (the approval is kept for the workspace),
    # and again once the script had changed: in auto mode too.
    first, again = asked
    assert first["toolCall"]["toolCallId"] == "mcp-approval"
    assert "proj: " in first["toolCall"]["content"][0]["content"]["text"]
    said = again["toolCall"]["content"][0]["content"]["text"]
    assert said.startswith("The project configures (changed since they were approved):")


async def test_claude_settings_approve_or_keep_stopped_a_projects_servers(
    tmp_path: Path, agents: InMemoryAgents
) -> None:

    workspace = (tmp_path / "ws").resolve()
    (workspace / ".claude").mkdir(parents=True)
    server = {"command": "${PYTHON_FOR_MCP:-" + sys.executable + "}", "args": [str(SAMPLE)]}
    (workspace / ".mcp.json").write_text(json.dumps({"mcpServers": {"proj": server}}))
    local = workspace / ".claude/settings.local.json"
    local.write_text(json.dumps({"enableAllProjectMcpServers": True}))
    home = tmp_path / "home"
    trust(workspace, home)
    model = script_spec(
        tmp_path, {"toolCalls": [_call("add", "mcp__proj__add", a=1, b=1)]}, {"text": "ok"}
    )
    asked: list[Message] = []

    def refuse(request: Message) -> Message:
        asked.append(request["params"])
        return {"outcome": {"outcome": "selected", "optionId": "reject_once"}}

    for disabled in (False, True):
        if disabled:  # from a file the workspace does not even need trusted for
            (workspace / ".claude/settings.json").write_text(
                json.dumps({"disabledMcpjsonServers": ["proj"]})
            )
            trust(workspace, home)
        agent = await agents.start(home, "--model", model)
        try:
            await agent.initialize()
            reply, _ = await agent.request("session/new", {"cwd": str(workspace), "mcpServers": []})
            session_id = reply["result"]["sessionId"]
            reply, notes = await agent.request(
                "session/prompt", prompt_params(session_id, "add"), refuse
            )
        finally:
            assert await agent.close() == 0
        text = "".join(u["content"]["text"] for u in updates_of(notes, "agent_message_chunk"))
        [done] = updates_of(notes, "tool_call_update")
        if not disabled:
            assert asked == []  # the settings approved them: nobody was asked
            assert done["status"] == "completed" and done["content"][0]["content"]["text"] == "2"
            assert f"approved by enableAllProjectMcpServers in {local}" in text
        else:
            assert done["status"] == "failed"
            assert (
                f"MCP server proj of {workspace}/.mcp.json was not started: "
                "disabledMcpjsonServers in"
            ) in text
