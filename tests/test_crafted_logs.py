"""Crafted session logs through the surfaces people use: `tether sessions` and ACP's
`session/list` list the good sessions and name the bad logs; loading one whose header's cwd
holds a NUL is a clear -32602, not an internal error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.acp.memory import InMemoryAgents
from tests.cli.in_process import tether_in_process
from tests.cli.support import scripted_model
from tests.session.crafted import CRAFTED, plant


@pytest.fixture(scope="module")
def crafted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """A home with one good session (in `ws`) and every crafted log; only read by the tests."""
    root = tmp_path_factory.mktemp("crafted")
    home, ws = root / "home", root / "ws"
    ws.mkdir()
    model = scripted_model(root / "s.json", {"text": "hi"})
    done = tether_in_process(home, "run", "hello", "--model", model, "--cwd", str(ws))
    assert done.returncode == 0, done.stderr
    [good] = (home / "sessions").glob("*.jsonl")
    plant(home / "sessions", good)
    return home, ws, good.stem


def test_tether_sessions_lists_the_good_and_names_the_bad(
    crafted: tuple[Path, Path, str],
) -> None:
    home, _ws, good = crafted
    listed = tether_in_process(home, "sessions", "--json")
    assert listed.returncode == 0, listed.stderr
    assert {row["id"] for row in json.loads(listed.stdout)} == {good, "last-line-list"}
    said = " ".join(listed.stderr.split())
    for name, why in CRAFTED.items():
        if why:
            assert f"{name}.jsonl cannot be listed: {why}" in said, name
    table = tether_in_process(home, "sessions")
    assert table.returncode == 0 and "hello" in table.stdout
    assert "Traceback" not in table.stderr


async def test_acp_lists_the_good_and_refuses_a_nul_cwd_with_invalid_params(
    crafted: tuple[Path, Path, str], tmp_path: Path
) -> None:
    home, ws, good = crafted
    agents = InMemoryAgents()  # in process: the listing is the agent's, not the process's
    agent = await agents.start(home, "--model", scripted_model(tmp_path / "t.json"))
    try:
        await agent.initialize()
        reply, _ = await agent.request("session/list", {})
        ids = {s["sessionId"] for s in reply["result"]["sessions"]}
        assert ids == {good, "last-line-list"}
        params = {"sessionId": "cwd-nul", "cwd": str(ws), "mcpServers": []}
        reply, _ = await agent.request("session/load", params)
        assert reply["error"]["code"] == -32602, reply
        assert "is not an absolute path" in reply["error"]["message"]
        reply, _ = await agent.request("session/list", {"cwd": str(ws)})
        assert {s["sessionId"] for s in reply["result"]["sessions"]} == ids
    finally:
        assert await agent.close() == 0
        await agents.close_all()
