"""What an editor gets on the wire: bounded bash streaming, whole permission requests, one title."""

from __future__ import annotations

import time
from pathlib import Path

from tests.acp.memory import InMemoryAgents
from tests.acp.support import opened_session, prompt_params, script_spec, started_agent, updates_of
from tests.acp.wire import Message
from tether.tools.bash.tool import REPORT_INTERVAL

WIRE_BUDGET = 1_000_000
"""At most this many bytes of `session/update` for a command printing 100k lines."""


async def test_a_command_printing_100k_lines_stays_under_a_megabyte(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    command = 'for i in $(seq 1 100000); do echo "line $i of the build log"; done'
    model = script_spec(
        tmp_path,
        {"toolCalls": [{"id": "b1", "name": "bash", "arguments": {"command": command}}]},
        {"text": "done"},
    )
    agent = await started_agent(agents, tmp_path, model, mode="auto")
    try:
        session_id = await opened_session(agent, tmp_path / "ws")
        first = len(agent.received)
        reply, notes = await agent.request("session/prompt", prompt_params(session_id, "build"))
        assert reply["result"] == {"stopReason": "end_turn"}
        sent = [
            size
            for message, size in zip(agent.received[first:], agent.sizes[first:], strict=True)
            if message.get("method") == "session/update"
        ]
        total = sum(sent)
        print(f"session/update bytes for 100k lines: {total}")
        assert total <= WIRE_BUDGET, total
        updates = updates_of(notes, "tool_call_update")
        running = [u for u in updates if u["status"] == "in_progress"]
        final = updates[-1]
        assert final["status"] == "completed"
        # While it runs, each update carries a bounded tail, never the whole output so far.
        for update in running:
            assert len(update["_meta"]["tether"]["view"]["output"]) < 5000
        # The end carries the whole capped output: its first and its last line.
        output = final["_meta"]["tether"]["view"]["output"]
        assert output.startswith("line 1 of the build log\n")
        assert output.endswith("line 100000 of the build log\n")
        assert "characters truncated" in output
        assert final["rawOutput"] == {"exitCode": 0}
    finally:
        assert await agent.close() == 0


async def test_live_updates_come_at_most_four_a_second(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    command = "for i in $(seq 1 12); do echo tick $i; sleep 0.1; done"
    model = script_spec(
        tmp_path,
        {"toolCalls": [{"id": "b1", "name": "bash", "arguments": {"command": command}}]},
        {"text": "done"},
    )
    agent = await started_agent(agents, tmp_path, model, mode="auto")
    try:
        session_id = await opened_session(agent, tmp_path / "ws")
        started = time.monotonic()
        _, notes = await agent.request("session/prompt", prompt_params(session_id, "tick"))
        took = time.monotonic() - started
        running = [u for u in updates_of(notes, "tool_call_update") if u["status"] == "in_progress"]
        # At least 1.2 s of output (longer on a busy machine, where each `sleep` starts late):
        # at most 4 updates a second of the prompt, and at least one while it ran.
        assert took >= 1.2
        assert 1 <= len(running) <= took / REPORT_INTERVAL + 1
        assert running[-1]["_meta"]["tether"]["view"]["output"].startswith("tick 1\n")
    finally:
        assert await agent.close() == 0


async def test_a_permission_request_carries_the_whole_call(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "a.py").write_text("x = 1\n")
    model = script_spec(
        tmp_path,
        {
            "toolCalls": [
                {"id": "r", "name": "read", "arguments": {"path": "a.py"}},
            ]
        },
        {
            "toolCalls": [
                {
                    "id": "e",
                    "name": "edit",
                    "arguments": {"path": "a.py", "old_string": "x = 1", "new_string": "x = 2"},
                },
                {"id": "b", "name": "bash", "arguments": {"command": "exit 3"}},
            ]
        },
        {"text": "done"},
    )
    agent = await started_agent(agents, tmp_path, model)
    asked: list[Message] = []

    def answer(request: Message) -> Message:
        asked.append(request["params"])
        return {"outcome": {"outcome": "selected", "optionId": "allow_once"}}

    try:
        session_id = await opened_session(agent, workspace)
        _, notes = await agent.request("session/prompt", prompt_params(session_id, "go"), answer)
    finally:
        assert await agent.close() == 0
    by_id = {request["toolCall"]["toolCallId"]: request for request in asked}
    edit = by_id["e"]["toolCall"]
    assert edit["title"] == "Edit a.py"
    assert edit["kind"] == "edit"
    assert edit["content"] == [
        {
            "type": "diff",
            "path": str(workspace / "a.py"),
            "oldText": "x = 1\n",
            "newText": "x = 2\n",
        }
    ]
    assert edit["locations"] == [{"path": str(workspace / "a.py"), "line": 1}]
    assert edit["_meta"]["tether"]["reason"] == "edits need approval in ask mode"
    bash = by_id["b"]["toolCall"]
    assert bash["kind"] == "execute"
    assert bash["content"][0]["content"]["text"] == "```console\n$ exit 3\n```"

    # One title per call: the tool_call, the request and the result card agree.
    titles = {u["toolCallId"]: u["title"] for u in updates_of(notes, "tool_call")}
    for update in updates_of(notes, "tool_call_update"):
        view = update["_meta"]["tether"]["view"]
        assert view.get("title") == titles[update["toolCallId"]]
    for request in asked:
        assert request["toolCall"]["title"] == titles[request["toolCall"]["toolCallId"]]
    done = {u["toolCallId"]: u for u in updates_of(notes, "tool_call_update")}
    assert done["r"]["locations"] == [{"path": str(workspace / "a.py"), "line": 1}]
    assert done["e"]["locations"] == [{"path": str(workspace / "a.py"), "line": 1}]
    failed = done["b"]["content"][0]["content"]["text"]
    assert failed.endswith("Exited with code 3")
