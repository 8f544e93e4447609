"""The in-process agent of the ACP tests (`tests/acp/memory.py`) is `tether acp`'s: it answers a
client byte for byte as the process does, and it borrows the test's environment only while it
runs."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.acp.memory import InMemoryAgents
from tests.acp.support import Starter, opened_session, prompt_params, script_spec, started_agent
from tests.acp.wire import AgentProcess, AgentWire

_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?")


async def _conversation(starter: Starter | type[AgentProcess], tmp: Path, ws: Path) -> list[str]:
    """Every line the agent wrote for one scripted prompt with a call that asks, its session id
    and times made the same."""
    tmp.mkdir()
    model = script_spec(
        tmp,
        {"toolCalls": [{"id": "r", "name": "read", "arguments": {"path": "a.py"}}]},
        {"toolCalls": [{"id": "w", "name": "write", "arguments": {"path": "b.py", "content": ""}}]},
        {"text": "Read and written."},
    )
    agent: AgentWire = await started_agent(starter, tmp, model)
    try:
        session_id = await opened_session(agent, ws)
        allow = {"outcome": {"outcome": "selected", "optionId": "allow_once"}}
        await agent.request("session/prompt", prompt_params(session_id, "go"), lambda _: allow)
        await agent.request("session/list", {"cwd": str(ws)})
    finally:
        assert await agent.close() == 0
    (ws / "b.py").unlink()
    lines = [json.dumps(message, sort_keys=True) for message in agent.received]
    return [_TIME.sub("{{time}}", line.replace(session_id, "{{sessionId}}")) for line in lines]


async def test_in_process_the_agent_answers_as_the_process_does(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.py").write_text("x = 1\n")
    over_pipes = await _conversation(AgentProcess, tmp_path / "process", ws)
    in_process = await _conversation(agents, tmp_path / "memory", ws)
    assert any('"optionId": "allow_once"' in line for line in in_process)  # it asked
    assert in_process == [
        line.replace(str(tmp_path / "process"), str(tmp_path / "memory")) for line in over_pipes
    ]


async def test_the_environment_is_the_tests_again_once_its_agents_close(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    own = os.environ["TETHER_HOME"]
    model = script_spec(tmp_path)
    first = await agents.start(tmp_path / "home", "--model", model, env={"TETHER_MODEL": model})
    second = await agents.start(tmp_path / "home", "--model", model, env={"TETHER_MODEL": model})
    assert (os.environ["TETHER_HOME"], os.environ["TETHER_MODEL"]) == (
        str(tmp_path / "home"),
        model,
    )
    assert await first.close() == 0
    assert os.environ["TETHER_HOME"] == str(tmp_path / "home")  # the second still runs
    assert await second.close() == 0
    assert os.environ["TETHER_HOME"] == own
    assert "TETHER_MODEL" not in os.environ


async def test_agents_open_at_once_cannot_differ_in_environment(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    model = script_spec(tmp_path)
    first = await agents.start(tmp_path / "one", "--model", model)
    with pytest.raises(AssertionError, match="share its environment"):
        await agents.start(tmp_path / "two", "--model", model)
    assert await first.close() == 0
    # Once the first has closed, another home is fine.
    second = await agents.start(tmp_path / "two", "--model", model)
    assert (await second.initialize())["agentInfo"]["name"] == "tether"
    assert await second.close() == 0
