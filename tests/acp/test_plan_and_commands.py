"""The plan and slash commands over real pipes: `plan` updates, `available_commands_update`."""

from __future__ import annotations

import json
from pathlib import Path

from tests.acp.memory import InMemoryAgents
from tests.acp.support import prompt_params, script_spec, updates_of

TODOS = [
    {"content": "Read the code", "status": "completed"},
    {"content": "Fix the bug", "status": "in_progress", "priority": "high"},
    {"content": "Add a test", "status": "pending"},
    {"content": "Rewrite the lexer", "status": "cancelled"},
]


async def test_todo_calls_are_plan_updates_live_and_on_load(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    model = script_spec(
        tmp_path,
        {"toolCalls": [{"id": "t1", "name": "todo", "arguments": {"todos": TODOS}}]},
        {"text": "planned"},
    )
    home, workspace = tmp_path / "home", tmp_path / "ws"
    workspace.mkdir()
    agent = await agents.start(home, "--model", model)
    await agent.initialize()
    try:
        reply, _ = await agent.request("session/new", {"cwd": str(workspace), "mcpServers": []})
        session_id = reply["result"]["sessionId"]
        reply, notes = await agent.request("session/prompt", prompt_params(session_id, "plan it"))
        assert reply["result"] == {"stopReason": "end_turn"}
    finally:
        assert await agent.close() == 0
    kinds = [n["params"]["update"]["sessionUpdate"] for n in notes]
    # The plan follows the todo call's own card.
    assert kinds.index("plan") == kinds.index("tool_call_update") + 1
    [plan] = updates_of(notes, "plan")
    assert plan["entries"] == [
        {"content": "Read the code", "status": "completed", "priority": "medium"},
        {"content": "Fix the bug", "status": "in_progress", "priority": "high"},
        {"content": "Add a test", "status": "pending", "priority": "medium"},
        # ACP's statuses stop at completed: the text and tether's `_meta` say what happened.
        {
            "content": "Rewrite the lexer (cancelled)",
            "status": "completed",
            "priority": "medium",
            "_meta": {"tether": {"status": "cancelled"}},
        },
    ]
    [done] = updates_of(notes, "tool_call_update")
    assert done["_meta"]["tether"]["view"]["content"].splitlines() == [
        "[x] Read the code",
        "[~] Fix the bug (high)",
        "[ ] Add a test",
        "[-] Rewrite the lexer",
    ]
    log = (home / "sessions" / f"{session_id}.jsonl").read_text()
    assert '"todos"' in log  # stored in the log as the result's meta

    again = await agents.start(home, "--model", model)
    await again.initialize()
    try:
        _, loaded = await again.request(
            "session/load", {"sessionId": session_id, "cwd": str(workspace), "mcpServers": []}
        )
    finally:
        assert await again.close() == 0
    assert updates_of(loaded, "plan") == [plan]


async def test_commands_are_advertised_expanded_and_replayed_as_typed(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    (home / "commands").mkdir(parents=True)
    (home / "commands" / "standup.md").write_text("Write a standup note.")
    (workspace / ".tether" / "commands").mkdir(parents=True)
    (workspace / ".tether" / "commands" / "review.md").write_text(
        "---\ndescription: Review one file\nargument-hint: PATH\n---\nReview $ARGUMENTS now.\n"
    )
    model = script_spec(tmp_path, {"text": "reviewed"}, {"text": "second"})
    agent = await agents.start(home, "--model", model)
    await agent.initialize()
    try:
        reply, _ = await agent.request("session/new", {"cwd": str(workspace), "mcpServers": []})
        session_id = reply["result"]["sessionId"]
        # Sent once the session is known: right after the answer.
        advert = await agent.read()
        update = advert["params"]["update"]
        assert update["sessionUpdate"] == "available_commands_update"
        commands = {c["name"]: c for c in update["availableCommands"]}
        assert list(commands) == [
            "compact",
            "init",
            "mode",
            "permissions",
            "skills",
            "agents",
            "rewind",
            "undo",
            "redo",
            "fork",
            "review",
            "standup",
        ]
        assert commands["review"]["description"] == "Review one file"
        assert commands["review"]["input"] == {"hint": "PATH"}
        assert commands["mode"]["input"] == {"hint": "ask | accept-edits | auto | plan"}
        assert "input" not in commands["standup"]

        reply, notes = await agent.request(
            "session/prompt", prompt_params(session_id, "/mode auto")
        )
        assert reply["result"] == {"stopReason": "end_turn"}
        assert [u["currentModeId"] for u in updates_of(notes, "current_mode_update")] == ["auto"]
        assert not updates_of(notes, "agent_message_chunk")  # the model was not asked

        reply, _ = await agent.request("session/prompt", prompt_params(session_id, "/mode yolo"))
        assert reply["error"]["message"].startswith("Usage: /mode ask | accept-edits | auto | plan")

        reply, notes = await agent.request(
            "session/prompt", prompt_params(session_id, "/review a.py")
        )
        text = "".join(u["content"]["text"] for u in updates_of(notes, "agent_message_chunk"))
        assert text == "reviewed"
    finally:
        assert await agent.close() == 0
    log = (home / "sessions" / f"{session_id}.jsonl").read_text().splitlines()
    events = [json.loads(line) for line in log]
    [said] = [e for e in events if e["type"] == "user/message"]
    assert said["content"] == [{"type": "text", "text": "Review a.py now."}]
    assert said["shown"] == [{"type": "text", "text": "/review a.py"}]

    again = await agents.start(home, "--model", model)
    await again.initialize()
    try:
        _, loaded = await again.request(
            "session/load", {"sessionId": session_id, "cwd": str(workspace), "mcpServers": []}
        )
        assert (await again.read())["params"]["update"]["sessionUpdate"] == (
            "available_commands_update"
        )
    finally:
        assert await again.close() == 0
    assert [u["content"]["text"] for u in updates_of(loaded, "user_message_chunk")] == [
        "/review a.py"
    ]


async def test_plan_mode_asks_to_approve_the_plan_and_switches_the_mode(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    plan = "1. Change a.py.\n2. Run the tests."
    edit = {"path": "a.py", "old_string": "x = 1", "new_string": "x = 2"}
    model = script_spec(
        tmp_path,
        {
            "toolCalls": [
                {"id": "r", "name": "read", "arguments": {"path": "a.py"}},
                {"id": "e1", "name": "edit", "arguments": edit},
            ]
        },
        {"toolCalls": [{"id": "p", "name": "ExitPlanMode", "arguments": {"plan": plan}}]},
        {"toolCalls": [{"id": "e2", "name": "edit", "arguments": edit}]},
        {"text": "done"},
    )
    home, workspace = tmp_path / "home", tmp_path / "ws"
    workspace.mkdir()
    (workspace / "a.py").write_text("x = 1\n")
    agent = await agents.start(home, "--model", model)
    await agent.initialize()
    asked: list[dict[str, object]] = []

    def approve(request: dict[str, object]) -> dict[str, object]:
        asked.append(request)
        return {"outcome": {"outcome": "selected", "optionId": "allow_once"}}

    try:
        reply, _ = await agent.request("session/new", {"cwd": str(workspace), "mcpServers": []})
        session_id = reply["result"]["sessionId"]
        assert "plan" in [m["id"] for m in reply["result"]["modes"]["availableModes"]]
        reply, _ = await agent.request(
            "session/set_mode", {"sessionId": session_id, "modeId": "plan"}
        )
        assert "error" not in reply
        reply, notes = await agent.request(
            "session/prompt", prompt_params(session_id, "make x 2"), approve
        )
        assert reply["result"] == {"stopReason": "end_turn"}
    finally:
        assert await agent.close() == 0
    [request] = asked
    params = request["params"]
    assert isinstance(params, dict)
    assert params["toolCall"]["toolCallId"] == "p"
    assert params["toolCall"]["content"][0]["content"]["text"] == plan
    assert [(o["optionId"], o["name"]) for o in params["options"]] == [
        ("allow_once", "Yes, and accept edits"),
        ("allow_always", "Yes, and run in auto mode"),
        ("reject_once", "No, keep planning"),
    ]
    # The client's mode menu follows the session out of plan mode.
    assert [u["currentModeId"] for u in updates_of(notes, "current_mode_update")] == [
        "accept-edits"
    ]
    finals = {u["toolCallId"]: u for u in updates_of(notes, "tool_call_update") if "status" in u}
    assert finals["e1"]["status"] == "failed"
    assert finals["e2"]["status"] == "completed"
    assert (workspace / "a.py").read_text() == "x = 2\n"
