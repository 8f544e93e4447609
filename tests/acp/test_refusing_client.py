"""A client that does not take permission requests: the call is refused with its reason, and
`tether acp` logs no traceback for what is the client's answer."""

from __future__ import annotations

from pathlib import Path

from tests.acp.memory import InMemoryAgents
from tests.acp.support import prompt_params, script_spec, updates_of
from tests.acp.wire import Message


async def test_a_client_that_answers_permission_requests_with_an_error(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    bash = {"id": "c1", "name": "bash", "arguments": {"command": "touch ran"}}
    model = script_spec(tmp_path, {"toolCalls": [bash]}, {"text": "done"})
    agent = await agents.start(
        tmp_path / "home", "--model", model, "--mode", "ask", "--sandbox", "off"
    )
    notes: list[Message] = []
    try:
        await agent.initialize()
        reply, _ = await agent.request("session/new", {"cwd": str(ws), "mcpServers": []})
        prompt = await agent.start_request(
            "session/prompt", prompt_params(reply["result"]["sessionId"], "go")
        )
        while True:
            message = await agent.read()
            if message.get("method") == "session/request_permission":
                error = {"code": -32601, "message": "Method not found"}
                await agent.send({"jsonrpc": "2.0", "id": message["id"], "error": error})
            elif message.get("id") == prompt:
                assert message["result"] == {"stopReason": "end_turn"}
                break
            else:
                notes.append(message)
    finally:
        assert await agent.close() == 0
    assert not (ws / "ran").exists()
    [done] = [u for u in updates_of(notes, "tool_call_update") if u["status"] == "failed"]
    said = done["content"][0]["content"]["text"]
    assert "the client could not be asked (Method not found [-32601]), so it was refused" in said
    assert "Traceback" not in agent.stderr
