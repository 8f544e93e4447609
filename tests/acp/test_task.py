"""Agents over a real `tether acp`: a cancel mid-child leaves nothing running; delete takes
the agents' sessions with their parent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.acp.memory import InMemoryAgents
from tests.polling import eventually
from tests.processes import processes_with, unique_marker


def _task(call_id: str, prompt: str) -> dict[str, Any]:
    arguments = {"description": "run it", "prompt": prompt}
    return {"id": call_id, "name": "task", "arguments": arguments}


async def test_a_cancel_mid_child_stops_it_and_delete_takes_its_session(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    marker = unique_marker("tether-acp-task")
    script = tmp_path / "script.json"
    command = {"command": f"sleep 600 #{marker}"}
    script.write_text(
        json.dumps(
            {
                "turns": [{"toolCalls": [_task("t1", "Wait.")]}, {"text": "asked to stop"}],
                "tasks": {
                    "t1": {
                        "turns": [
                            {"toolCalls": [{"id": "b", "name": "bash", "arguments": command}]}
                        ]
                    }
                },
            }
        )
    )
    home = tmp_path / "home"
    agent = await agents.start(home, "--model", f"script:{script}", "--mode", "auto")
    try:
        await agent.initialize()
        created, _ = await agent.request("session/new", {"cwd": str(workspace), "mcpServers": []})
        session_id = created["result"]["sessionId"]
        prompt = await agent.start_request(
            "session/prompt",
            {"sessionId": session_id, "prompt": [{"type": "text", "text": "go"}]},
        )
        await eventually(lambda: processes_with(marker), "the agent's command started")
        await agent.notify("session/cancel", {"sessionId": session_id})
        answer, notes = await agent.response(prompt)
        assert answer["result"] == {"stopReason": "cancelled"}
        assert processes_with(marker) == []
        final = [
            n["params"]["update"]
            for n in notes
            if n["params"]["update"].get("status") in ("completed", "failed")
        ]
        assert final[-1]["status"] == "failed"
        card = final[-1]["_meta"]["tether"]["view"]
        assert (card["card"], card["stopReason"]) == ("task", "cancelled")
        child = card["sessionId"]
        lines = (home / "sessions" / f"{child}.jsonl").read_text().splitlines()
        assert json.loads(lines[-1])["stopReason"] == "cancelled"

        # The agent's session is not listed on its own, and goes with its parent.
        listed, _ = await agent.request("session/list", {})
        assert [s["sessionId"] for s in listed["result"]["sessions"]] == [session_id]
        deleted, _ = await agent.request("session/delete", {"sessionId": session_id})
        assert deleted["result"] == {}
        assert sorted(p.name for p in (home / "sessions").glob("*.jsonl")) == []
    finally:
        assert await agent.close() == 0
