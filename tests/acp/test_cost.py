"""Cost over ACP: `usage_update.cost` is what the session's responses cost so far, live and
the same on `session/load`; with no known price it is left out (never 0)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.acp.memory import InMemoryAgents
from tests.acp.support import prompt_params, updates_of

TURNS = {
    "turns": [
        {"text": "one", "usage": {"inputTokens": 1000, "outputTokens": 100}},
        {"text": "two", "usage": {"inputTokens": 2000, "outputTokens": 100}},
    ]
}


def _costs(notes: list[dict[str, Any]]) -> list[Any]:
    return [u.get("cost") for u in updates_of(notes, "usage_update")]


async def test_usage_updates_carry_the_cost_so_far(tmp_path: Path, agents: InMemoryAgents) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    home.mkdir()
    workspace.mkdir()
    for name in ("priced.json", "unpriced.json"):
        (tmp_path / name).write_text(json.dumps(TURNS))
    price = {"input": 2.0, "output": 10.0}
    (home / "settings.json").write_text(json.dumps({"models": {"priced.json": {"price": price}}}))

    agent = await agents.start(home, "--model", f"script:{tmp_path / 'priced.json'}")
    await agent.initialize()
    try:
        reply, _ = await agent.request("session/new", {"cwd": str(workspace), "mcpServers": []})
        session_id = reply["result"]["sessionId"]
        _, first = await agent.request("session/prompt", prompt_params(session_id, "one"))
        _, second = await agent.request("session/prompt", prompt_params(session_id, "two"))
    finally:
        assert await agent.close() == 0
    live = _costs(first) + _costs(second)
    assert live == [
        {"amount": 0.003, "currency": "USD"},
        {"amount": 0.008, "currency": "USD"},  # cumulative: 0.003 + 0.005
    ]

    again = await agents.start(home, "--model", f"script:{tmp_path / 'unpriced.json'}")
    await again.initialize()
    try:
        load = {"sessionId": session_id, "cwd": str(workspace), "mcpServers": []}
        _, loaded = await again.request("session/load", load)
        assert _costs(loaded) == live  # replayed as it was sent
        _, third = await again.request("session/prompt", prompt_params(session_id, "three"))
    finally:
        assert await again.close() == 0
    # A response of a model with no known price: the total is unknown, so no cost is said.
    assert _costs(third) == [None]
