"""Thinking over real pipes: `agent_thought_chunk`s live and the same on `session/load`, and
the `thinking` option, which the model is asked at, logged and kept on load."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.acp.memory import InMemoryAgents
from tests.acp.support import prompt_params

SCRIPT = {
    "turns": [
        {"thinking": "A greeting is wanted. Say hello.", "text": "Hello."},
        {"thinking": "Again.", "text": "Hello again."},
    ]
}


def _story(notes: list[dict[str, Any]]) -> list[tuple[str, str, Any]]:
    """The thought and message chunks, in order: (kind, text, tether meta)."""
    story = []
    for note in notes:
        update = note.get("params", {}).get("update", {})
        kind = update.get("sessionUpdate")
        if kind in ("agent_thought_chunk", "agent_message_chunk"):
            meta = (update.get("_meta") or {}).get("tether")
            story.append((kind, update["content"]["text"], meta))
    return story


async def test_thoughts_stream_as_thought_chunks_and_load_the_same(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    script = tmp_path / "think.json"
    script.write_text(json.dumps(SCRIPT))
    home, workspace = tmp_path / "home", tmp_path / "ws"
    workspace.mkdir()
    agent = await agents.start(home, "--model", f"script:{script}", "--thinking", "low")
    await agent.initialize()
    try:
        reply, _ = await agent.request("session/new", {"cwd": str(workspace), "mcpServers": []})
        session_id = reply["result"]["sessionId"]
        options = {o["id"]: o for o in reply["result"]["configOptions"]}
        thinking = options["thinking"]
        assert (thinking["category"], thinking["currentValue"]) == ("thought_level", "low")
        assert [o["value"] for o in thinking["options"]] == ["off", "low", "medium", "high"]
        _, live = await agent.request("session/prompt", prompt_params(session_id, "say hello"))

        params = {"sessionId": session_id, "configId": "thinking", "value": "high"}
        reply, _ = await agent.request("session/set_config_option", params)
        chosen = {o["id"]: o["currentValue"] for o in reply["result"]["configOptions"]}
        assert chosen["thinking"] == "high"
        _, more = await agent.request("session/prompt", prompt_params(session_id, "again"))
    finally:
        assert await agent.close() == 0

    story = _story(live)
    thoughts = [s for s in story if s[0] == "agent_thought_chunk"]
    assert "".join(text for _, text, _ in thoughts) == "A greeting is wanted. Say hello."
    # The last thought chunk is empty and says how long the thought took.
    end = thoughts[-1]
    assert end[1] == "" and isinstance(end[2]["thought"]["durationMs"], int)
    assert story.index(end) < next(i for i, s in enumerate(story) if s[0] == "agent_message_chunk")

    again = await agents.start(home, "--model", f"script:{script}")
    await again.initialize()
    try:
        reply, loaded = await again.request(
            "session/load", {"sessionId": session_id, "cwd": str(workspace), "mcpServers": []}
        )
        chosen = {o["id"]: o["currentValue"] for o in reply["result"]["configOptions"]}
        assert chosen["thinking"] == "high"  # the logged choice, not the default
    finally:
        assert await again.close() == 0
    # Replayed exactly as both prompts streamed live, durations included.
    assert _story(loaded) == _story(live) + _story(more)
