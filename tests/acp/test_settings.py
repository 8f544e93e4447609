"""Settings over ACP: per-session rules and problems, trust asked at the first prompt,
`/permissions` and `_tether/permissions`, and an unusable settings file refused."""

from __future__ import annotations

import json
from pathlib import Path

from tests.acp.memory import InMemoryAgents
from tests.acp.support import prompt_params, script_spec, updates_of
from tests.acp.wire import AgentWire, Message

PROJECT = {
    "permissions": {"allow": ["bash(*)"], "deny": ["read(secret.txt)"], "defaultMode": "auto"},
    "colour": "blue",
}


def _answer(option: str, asked: list[Message]) -> object:
    def answer(request: Message) -> Message:
        asked.append(request["params"])
        return {"outcome": {"outcome": "selected", "optionId": option}}

    return answer


def _text(notes: list[Message]) -> str:
    return "".join(u["content"]["text"] for u in updates_of(notes, "agent_message_chunk"))


async def test_trust_is_asked_at_the_first_prompt_and_rules_apply(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    ws = (tmp_path / "ws").resolve()
    (ws / ".tether").mkdir(parents=True)
    (ws / ".tether/settings.json").write_text(json.dumps(PROJECT))
    (ws / "secret.txt").write_text("the secret\n")
    bash = {"id": "c1", "name": "bash", "arguments": {"command": "touch ran"}}
    read = {"id": "c2", "name": "read", "arguments": {"path": "secret.txt"}}
    model = script_spec(tmp_path, {"toolCalls": [bash]}, {"toolCalls": [read]}, {"text": "done"})
    home = tmp_path / "home"
    agent = await agents.start(home, "--model", model, "--sandbox", "off")
    try:
        await agent.initialize()
        # Not trusted: the session starts in ask mode; the file's problem is shown.
        reply, notes = await agent.request("session/new", {"cwd": str(ws), "mcpServers": []})
        first = reply["result"]["sessionId"]
        assert reply["result"]["modes"]["currentModeId"] == "ask"
        asked: list[Message] = []
        reply, notes = await agent.request(
            "session/prompt", prompt_params(first, "go"), _answer("reject_once", asked)
        )
        assert reply["result"] == {"stopReason": "end_turn"}
        # Posted after the answer that made the session known.
        assert f"{ws}/.tether/settings.json: colour: unknown key" in _text(notes)
        trust, command = asked
        assert trust["toolCall"]["toolCallId"] == "workspace-trust"
        assert trust["toolCall"]["title"] == f"Trust the workspace {ws}"
        assert [(o["optionId"], o["name"]) for o in trust["options"]] == [
            ("allow_once", "Trust it for this session"),
            ("allow_always", "Trust this workspace"),
            ("reject_once", "Do not trust it"),
        ]
        listed = trust["toolCall"]["content"][0]["content"]["text"]
        assert "- allow bash(*) (.tether/settings.json)" in listed
        assert command["toolCall"]["toolCallId"] == "c1"  # bash(*) did not apply
        assert not (ws / "ran").exists()
        assert "is not trusted, so only its deny and ask rules apply" in _text(notes)
        done = {u["toolCallId"]: u for u in updates_of(notes, "tool_call_update")}
        denial = done["c2"]["content"][0]["content"]["text"]
        assert "denied by the deny rule read(secret.txt)" in denial  # deny applies untrusted
        # A second session asks again; trusted now, its rules and mode apply at once.
        reply, _ = await agent.request("session/new", {"cwd": str(ws), "mcpServers": []})
        second = reply["result"]["sessionId"]
        asked.clear()
        reply, notes = await agent.request(
            "session/prompt", prompt_params(second, "go"), _answer("allow_always", asked)
        )
        assert [a["toolCall"]["toolCallId"] for a in asked] == ["workspace-trust"]
        assert (ws / "ran").exists()
        modes = updates_of(notes, "current_mode_update")
        assert modes and modes[0]["currentModeId"] == "auto"
        assert json.loads((home / "trusted.json").read_text())["workspaces"][str(ws)]
        await _listed_when_trusted(agent, ws)
    finally:
        assert await agent.close() == 0


async def test_trust_for_this_session_holds_when_the_session_is_loaded_again(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    ws = (tmp_path / "ws").resolve()
    (ws / ".tether").mkdir(parents=True)
    (ws / ".tether/settings.json").write_text(json.dumps(PROJECT))
    bash = {"id": "c1", "name": "bash", "arguments": {"command": "touch ran"}}
    # Each process plays the script from its start: the load's prompt runs `touch ran` again.
    model = script_spec(tmp_path, {"toolCalls": [bash]}, {"text": "one"})
    home = tmp_path / "home"
    flags = ("--model", model, "--sandbox", "off")
    agent = await agents.start(home, *flags)
    asked: list[Message] = []
    try:
        await agent.initialize()
        reply, _ = await agent.request("session/new", {"cwd": str(ws), "mcpServers": []})
        sid = reply["result"]["sessionId"]
        _, live = await agent.request(
            "session/prompt", prompt_params(sid, "go"), _answer("allow_once", asked)
        )
    finally:
        assert await agent.close() == 0
    assert [a["toolCall"]["toolCallId"] for a in asked] == ["workspace-trust"]
    assert (ws / "ran").exists()  # bash(*) applied: trusted for the session
    [notice] = _trust_notices(live)
    assert notice["_meta"]["tether"]["notice"] == {
        "kind": "trust", "root": str(ws), "decision": "allow_once",
    }  # fmt: skip
    assert f"{ws} is trusted for this session" in notice["content"]["text"]
    (ws / "ran").unlink()
    # Loaded in another process (a page reloaded): the answer is shown where it was given,
    # and holds: the next prompt is not asked again, and the project's rule applies.
    agent = await agents.start(home, *flags)
    asked.clear()
    try:
        await agent.initialize()
        params = {"sessionId": sid, "cwd": str(ws), "mcpServers": []}
        _, loaded = await agent.request("session/load", params)
        assert _trust_notices(loaded) == [notice]
        await agent.request(
            "session/prompt", prompt_params(sid, "again"), _answer("reject_once", asked)
        )
    finally:
        assert await agent.close() == 0
    assert asked == []
    assert (ws / "ran").exists()


def _trust_notices(notes: list[Message]) -> list[Message]:
    return [
        u
        for u in updates_of(notes, "agent_message_chunk")
        if u.get("_meta", {}).get("tether", {}).get("notice", {}).get("kind") == "trust"
    ]


async def _listed_when_trusted(agent: AgentWire, ws: Path) -> None:
    """A third session is trusted from the start: `/permissions` and the report say so."""
    reply, _ = await agent.request("session/new", {"cwd": str(ws), "mcpServers": []})
    third = reply["result"]["sessionId"]
    assert reply["result"]["modes"]["currentModeId"] == "auto"
    reply, notes = await agent.request("session/prompt", prompt_params(third, "/permissions"))
    listing = _text(notes)
    assert f"Workspace {ws}: trusted" in listing
    assert "Mode: auto (from project" in listing
    assert "read(secret.txt)  project" in listing
    reply, _ = await agent.request("_tether/permissions", {"sessionId": third})
    report = reply["result"]
    assert report["trusted"] is True
    assert [(r["kind"], r["rule"]) for r in report["rules"]] == [
        ("deny", "read(secret.txt)"),
        ("allow", "bash(*)"),
    ]
    assert report["problems"][0]["key"] == "colour"
    reply, _ = await agent.request("_tether/permissions", {"sessionId": "nope"})
    assert reply["error"]["code"] == -32002


async def test_an_unusable_settings_file_refuses_the_session(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    ws = (tmp_path / "ws").resolve()
    (ws / ".tether").mkdir(parents=True)
    (ws / ".tether/settings.json").write_text('{"permissions": {"deny": "read(.env)"}}')
    agent = await agents.start(tmp_path / "home", "--model", script_spec(tmp_path))
    try:
        await agent.initialize()
        reply, _ = await agent.request("session/new", {"cwd": str(ws), "mcpServers": []})
        assert reply["error"]["code"] == -32602
        assert reply["error"]["message"] == (
            f"Cannot use the settings of {ws}: {ws}/.tether/settings.json: permissions.deny: "
            "expected a list of rules, got a string"
        )
    finally:
        assert await agent.close() == 0


async def test_a_claude_code_deny_rule_holds_over_acp_in_auto_mode(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    ws = (tmp_path / "ws").resolve()
    (ws / ".claude").mkdir(parents=True)
    (ws / ".claude/settings.json").write_text(
        "{\n  // Claude Code project settings\n"
        '  "permissions": {"deny": ["Read(./.env*)"], "allow": ["Bash"],},\n}\n'
    )
    (ws / ".env.production").write_text("API_KEY=the-secret\n")
    read = {"id": "c1", "name": "read", "arguments": {"path": ".env.production"}}
    model = script_spec(tmp_path, {"toolCalls": [read]}, {"text": "done"})
    agent = await agents.start(tmp_path / "home", "--model", model, "--mode", "auto")
    try:
        await agent.initialize()
        reply, notes = await agent.request("session/new", {"cwd": str(ws), "mcpServers": []})
        session = reply["result"]["sessionId"]
        assert reply["result"]["modes"]["currentModeId"] == "auto"
        asked: list[Message] = []
        reply, notes = await agent.request(
            "session/prompt", prompt_params(session, "go"), _answer("reject_once", asked)
        )
        said = _text(notes)
        assert f"Claude Code settings {ws}/.claude/settings.json: read 1 allow rule, 1 deny" in said
        done = {u["toolCallId"]: u for u in updates_of(notes, "tool_call_update")}
        denial = done["c1"]["content"][0]["content"]["text"]
        assert f"denied by the deny rule read(./.env*) in {ws}/.claude/settings.json" in denial
        assert "the-secret" not in json.dumps(notes)
        reply, _ = await agent.request("_tether/permissions", {"sessionId": session})
        report = reply["result"]
        assert [(r["kind"], r["text"], r["source"]["scope"]) for r in report["rules"]] == [
            ("deny", "Read(./.env*)", "claude")
        ]
        assert report["withheld"] == ["allow bash (.claude/settings.json)"]
        reply, notes = await agent.request("session/prompt", prompt_params(session, "/permissions"))
        assert "Claude Code's files:" in _text(notes)
    finally:
        assert await agent.close() == 0
