"""`tether acp` and the context budget: `usage_update`, `/compact`, and the notice on load."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.acp.memory import InMemoryAgents
from tests.acp.support import updates_of
from tests.acp.wire import Message


async def test_usage_updates_and_the_compact_prompt(tmp_path: Path, agents: InMemoryAgents) -> None:
    script = tmp_path / "script.json"
    turns: list[dict[str, Any]] = [
        {"text": "first", "usage": {"inputTokens": 21000, "outputTokens": 40}},
        {"text": "We talked once; the first answer was given."},
        {"text": "after", "usage": {"inputTokens": 1200, "outputTokens": 5}},
    ]
    script.write_text(json.dumps({"turns": turns}))
    (tmp_path / "ws").mkdir()
    args = ("--model", f"script:{script}", "--context-window", "64000")
    agent = await agents.start(tmp_path / "home", *args)
    await agent.initialize()
    try:
        reply, _ = await agent.request(
            "session/new", {"cwd": str(tmp_path / "ws"), "mcpServers": []}
        )
        session_id = reply["result"]["sessionId"]

        def prompt(text: str) -> Message:
            return {"sessionId": session_id, "prompt": [{"type": "text", "text": text}]}

        reply, notes = await agent.request("session/prompt", prompt("hello"))
        assert reply["result"] == {"stopReason": "end_turn"}
        assert updates_of(notes, "usage_update") == [
            {
                "sessionUpdate": "usage_update",
                "used": 21040,
                "size": 64000,
                # Where it compacts (--compact-at, 0.8 by default), for a client to warn first.
                "_meta": {"tether": {"compactAt": 0.8}},
            }
        ]

        reply, notes = await agent.request("session/prompt", prompt("/compact"))
        assert reply["result"] == {"stopReason": "end_turn"}
        [notice] = updates_of(notes, "agent_message_chunk")
        meta = notice["_meta"]["tether"]["notice"]
        assert meta["kind"] == "compaction" and meta["method"] == "summary"
        assert notice["content"]["text"].startswith("\n\ncontext compacted by summary: ")
        [after] = updates_of(notes, "usage_update")
        assert after["used"] == meta["afterTokens"] < meta["beforeTokens"]

        reply, notes = await agent.request("session/prompt", prompt("go on"))
        assert [u["content"]["text"] for u in updates_of(notes, "agent_message_chunk")] == ["after"]
    finally:
        assert await agent.close() == 0

    again = await agents.start(tmp_path / "home", *args)
    await again.initialize()
    try:
        reply, notes = await again.request(
            "session/load",
            {"sessionId": session_id, "cwd": str(tmp_path / "ws"), "mcpServers": []},
        )
        assert "result" in reply, reply
    finally:
        assert await again.close() == 0
    # On load the notice and the budget come back as they were sent live.
    texts = [u["content"]["text"] for u in updates_of(notes, "agent_message_chunk")]
    assert len(texts) == 3 and texts[0] == "first" and texts[-1] == "after"
    assert texts[1] == notice["content"]["text"]
    assert [u["used"] for u in updates_of(notes, "usage_update")] == [
        21040,
        meta["afterTokens"],
        1205,
    ]
