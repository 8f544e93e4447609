"""The model option over real pipes lists the endpoint's own models: asked once the first
prompt has loaded the SDK (a loopback server speaking OpenAI's chat completions and
`GET /v1/models`), sent as a `config_option_update` when they come, kept for the next session;
an endpoint without a list leaves the known models, with a warning on stderr.

Over pipes, not in process: whether a session's start asks for the list hangs on whether the
process imported the request path already (`sdk_loaded`), which in the test's process every
earlier test may have done; and the warning is a process's stderr. (The sessions' connections
close with them: `test_model_pool`.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.acp.support import prompt_params, updates_of
from tests.acp.wire import AgentProcess
from tests.models.sse_server import SSEServer, json_reply, sse_reply
from tests.polling import eventually

LISTING = {
    "object": "list",
    "data": [
        {"id": "llama-4", "object": "model", "created": 0, "owned_by": "me"},
        {"id": "qwen3-coder", "object": "model", "created": 0, "owned_by": "me"},
    ],
}


def _models(options: list[dict[str, Any]]) -> list[str]:
    model = next(option for option in options if option["id"] == "model")
    return [choice["value"] for choice in model["options"]]


async def _agent(tmp_path: Path, server: SSEServer) -> AgentProcess:
    home = tmp_path / "home"
    url = f"{server.url}/v1"
    agent = await AgentProcess.start(
        home, "--model", "openai:llama-4", "--base-url", url, "--api-key", "sk-test"
    )
    await agent.initialize()
    return agent


async def test_the_endpoints_models_join_the_menu_when_they_come(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    async with SSEServer() as server:
        server.queue(sse_reply("openai_text.sse"), json_reply(200, LISTING))
        agent = await _agent(tmp_path, server)
        try:
            new = {"cwd": str(workspace), "mcpServers": []}
            reply, _ = await agent.request("session/new", new)
            session_id = reply["result"]["sessionId"]
            # Answered with the models known for the endpoint (here only its own); opening a
            # session sends the provider nothing.
            assert _models(reply["result"]["configOptions"]) == ["openai:llama-4"]
            assert server.requests == []
            reply, _ = await agent.request("session/prompt", prompt_params(session_id, "hi"))
            assert reply["result"]["stopReason"] == "end_turn"
            update = await agent.read()
            while update["params"]["update"]["sessionUpdate"] != "config_option_update":
                update = await agent.read()
            assert update["params"]["sessionId"] == session_id
            options = update["params"]["update"]["configOptions"]
            assert _models(options) == ["openai:llama-4", "openai:qwen3-coder"]

            params = {"sessionId": session_id, "configId": "model", "value": "openai:qwen3-coder"}
            reply, _ = await agent.request("session/set_config_option", params)
            assert "error" not in reply, reply
            chosen = {o["id"]: o["currentValue"] for o in reply["result"]["configOptions"]}
            assert chosen["model"] == "openai:qwen3-coder"

            # The next session's menu has them at once: the list was kept, not asked again.
            reply, _ = await agent.request("session/new", new)
            assert _models(reply["result"]["configOptions"]) == [
                "openai:llama-4",
                "openai:qwen3-coder",
            ]
        finally:
            assert await agent.close() == 0
        assert [(r.method, r.path) for r in server.requests] == [
            ("POST", "/v1/chat/completions"),
            ("GET", "/v1/models"),
        ]
        assert server.requests[1].headers["authorization"] == "Bearer sk-test"


async def test_an_endpoint_without_a_list_leaves_the_known_models_and_warns(
    tmp_path: Path,
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    missing = json_reply(404, {"error": {"message": "no such route", "type": "invalid"}})
    async with SSEServer() as server:
        server.queue(sse_reply("openai_text.sse"), missing)
        agent = await _agent(tmp_path, server)
        try:
            new = {"cwd": str(workspace), "mcpServers": []}
            reply, _ = await agent.request("session/new", new)
            session_id = reply["result"]["sessionId"]
            await agent.request("session/prompt", prompt_params(session_id, "hi"))
            await eventually(lambda: "no model list from" in agent.stderr, "the warning on stderr")
            # Still one choice, and nothing more was said about the menu.
            reply, _ = await agent.request("session/new", new)
            assert _models(reply["result"]["configOptions"]) == ["openai:llama-4"]
        finally:
            assert await agent.close() == 0
        assert [r.path for r in server.requests] == ["/v1/chat/completions", "/v1/models"]
    assert "offering the known models only" in agent.stderr
    assert not updates_of(agent.received, "config_option_update")
