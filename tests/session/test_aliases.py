"""Calls made with other agents' argument names: logged in tether's spelling, run as meant."""

from __future__ import annotations

import json
from pathlib import Path

from tests.session.helpers import Recorder, Sessions, call, log_lines, script, text
from tether.tools.defaults import default_tools


async def test_the_log_keeps_the_canonical_call_and_the_model_its_own(
    ws: Path, home: Path, sessions: Sessions
) -> None:
    (ws / "a.py").write_text("print('a')\n")
    model = script(
        {
            "toolCalls": [
                call("c1", "read", {"file_path": "a.py"}),
                call("c2", "bash", {"command": "sleep 30", "timeout": 300}),
                call("c3", "read", {"path": "a.py", "pages": "1-2"}),
            ]
        },
        {"text": "done"},
    )
    session = sessions.new(ws, model, default_tools())
    live = Recorder()
    assert await session.prompt(text("go"), live) == "end_turn"

    events = log_lines(session, home)
    [message] = [e for e in events if e["type"] == "assistant/message" and e["toolCalls"]]
    assert json.loads(message["toolCalls"][0]["arguments"]) == {"file_path": "a.py"}
    calls = {e["toolCallId"]: e["arguments"] for e in events if e["type"] == "tool/call"}
    assert json.loads(calls["c1"]) == {"path": "a.py"}
    assert json.loads(calls["c2"]) == {"command": "sleep 30", "timeout_ms": 300}
    assert json.loads(calls["c3"]) == {"path": "a.py", "pages": "1-2"}  # refused: kept as sent
    results = {e["toolCallId"]: e for e in events if e["type"] == "tool/result"}
    assert not results["c1"]["isError"] and "print('a')" in results["c1"]["content"][0]["text"]
    # The alias had its meaning: the command was stopped at 300 ms, not at the default 120 s.
    assert "timed out" in results["c2"]["content"][0]["text"]
    assert results["c3"]["isError"]
    assert (
        "- pages: unknown argument (valid: path, offset, limit)"
        in (results["c3"]["content"][0]["text"])
    )
