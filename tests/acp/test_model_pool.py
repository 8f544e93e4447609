"""A session closes its model's HTTP connections: when the session closes, and, for a model it
switched away from, once no prompt streams on that model any more. A loopback server speaking
OpenAI's chat completions counts the connections the agent holds open (in process: a socket
left open would outlive the test)."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

from tests.acp.memory import AgentInMemory, InMemoryAgents
from tests.acp.support import prompt_params
from tests.models.sse_server import Received, Reply, SSEServer, json_reply, sse_reply
from tests.polling import eventually

LISTING = {
    "object": "list",
    "data": [
        {"id": "llama-4", "object": "model", "created": 0, "owned_by": "me"},
        {"id": "qwen3-coder", "object": "model", "created": 0, "owned_by": "me"},
    ],
}


def _completion() -> Reply:
    """A chat completion, `[DONE]` and all: read to its end, its connection goes back to the
    pool, kept alive."""
    return sse_reply("openai_text.sse")


def _answer(received: Received) -> Reply:
    """A chat completion for a prompt, two models for `GET /models` (asked at a session's
    start or after its first prompt)."""
    return json_reply(200, LISTING) if received.method == "GET" else _completion()


async def _agent(agents: InMemoryAgents, tmp_path: Path, server: SSEServer) -> AgentInMemory:
    server.answer = _answer
    url = f"{server.url}/v1"
    agent = await agents.start(
        tmp_path / "home", "--model", "openai:llama-4", "--base-url", url, "--api-key", "sk-test"
    )
    await agent.initialize()
    return agent


async def _session(agent: AgentInMemory, tmp_path: Path) -> str:
    workspace = tmp_path / "ws"
    workspace.mkdir(exist_ok=True)
    reply, _ = await agent.request("session/new", {"cwd": str(workspace), "mcpServers": []})
    session_id: str = reply["result"]["sessionId"]
    return session_id


async def _prompted(agent: AgentInMemory, session_id: str, server: SSEServer) -> None:
    """One prompt answered, and the endpoint's model list asked for (at the session's start
    when the request path was loaded already, else after the prompt), kept alive."""
    reply, _ = await agent.request("session/prompt", prompt_params(session_id, "hi"))
    assert reply["result"]["stopReason"] == "end_turn", reply
    await eventually(lambda: any(r.method == "GET" for r in server.requests), "the list asked")
    # One, or two when the list was asked for while the prompt's request was sent.
    await eventually(lambda: server.open_connections >= 1, "the connections kept alive")


async def test_closing_a_session_closes_its_models_connections(
    agents: InMemoryAgents, tmp_path: Path
) -> None:
    async with SSEServer() as server:
        agent = await _agent(agents, tmp_path, server)
        session_id = await _session(agent, tmp_path)
        await _prompted(agent, session_id, server)

        reply, _ = await agent.request("session/close", {"sessionId": session_id})
        assert "error" not in reply, reply
        await eventually(lambda: server.open_connections == 0, "the connection closed")
        assert await agent.close() == 0


async def test_a_switch_closes_the_old_models_connections(
    agents: InMemoryAgents, tmp_path: Path
) -> None:
    async with SSEServer() as server:
        agent = await _agent(agents, tmp_path, server)
        session_id = await _session(agent, tmp_path)
        await _prompted(agent, session_id, server)

        params = {"sessionId": session_id, "configId": "model", "value": "openai:qwen3-coder"}
        reply, _ = await agent.request("session/set_config_option", params)
        assert "error" not in reply, reply
        await eventually(lambda: server.open_connections == 0, "the old model's pool closed")

        # The new model opens a pool of its own, which the session's end closes.
        reply, _ = await agent.request("session/prompt", prompt_params(session_id, "again"))
        assert reply["result"]["stopReason"] == "end_turn", reply
        assert server.requests[-1].json()["model"] == "qwen3-coder"
        await eventually(lambda: server.open_connections >= 1, "the new model's connection")
        assert await agent.close() == 0
        await eventually(lambda: server.open_connections == 0, "the new model's pool closed")


async def test_a_switch_during_a_prompt_leaves_its_stream_alone(
    agents: InMemoryAgents, tmp_path: Path
) -> None:
    resume = threading.Event()
    async with SSEServer() as server:
        agent = await _agent(agents, tmp_path, server)
        session_id = await _session(agent, tmp_path)
        await _prompted(agent, session_id, server)
        # The next answer stops after its first event until the switch is made.
        server.queue(replace(_completion(), pause_after=1, resume=resume))
        try:
            prompt = await agent.start_request("session/prompt", prompt_params(session_id, "on"))
            await eventually(lambda: server.requests[-1].method == "POST", "the second request")
            params = {"sessionId": session_id, "configId": "model", "value": "openai:qwen3-coder"}
            reply, _ = await agent.request("session/set_config_option", params)
            assert "error" not in reply, reply
            # The prompt still streams on the model it started with: its connection stays.
            assert server.open_connections >= 1
        finally:
            resume.set()
        reply, _ = await agent.response(prompt)
        assert reply["result"]["stopReason"] == "end_turn", reply
        # Its turn over, the model it left closes.
        await eventually(lambda: server.open_connections == 0, "the old model's pool closed")
        assert await agent.close() == 0
