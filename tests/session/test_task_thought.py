"""A child's thought on its parent's task card: the end of it while the child thinks, gone once
the child calls a tool or writes; live only, so a replay equals the live run without it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.session.helpers import Recorder, Sessions, call, text
from tether.models.script import ScriptModel
from tether.session import ToolCallPartial
from tether.session.child_steps import THOUGHT_SHOWN
from tether.tools.defaults import default_tools
from tether.views import TaskResultView

THOUGHT = "The retry helper is probably in retry.py. " * 8  # longer than the card shows


def _task(call_id: str) -> dict[str, Any]:
    arguments = {"description": "find retry", "prompt": "Where?", "agent": "explore"}
    return call(call_id, "task", arguments)


async def test_the_childs_thought_shows_on_the_parents_card(ws: Path, sessions: Sessions) -> None:
    (ws / "retry.py").write_text("def retry(times):\n    return times\n")
    child = {
        "turns": [
            {"thinking": THOUGHT, "toolCalls": [call("r", "read", {"path": "retry.py"})]},
            {"text": "retry.py:1 defines it."},
        ]
    }
    turns = [{"toolCalls": [_task("t1")]}, {"text": "Found it."}]
    model = ScriptModel.from_json(json.dumps({"turns": turns, "tasks": {"t1": child}}))
    session = sessions.new(ws, model, default_tools())
    recorder = Recorder()
    assert await session.prompt(text("where is retry?"), recorder) == "end_turn"

    cards = [
        u.view
        for u in recorder.updates
        if isinstance(u, ToolCallPartial) and isinstance(u.view, TaskResultView)
    ]
    shown = [(v.activity, v.thought) for v in cards]
    end = "…" + " ".join(THOUGHT.split())[-THOUGHT_SHOWN + 1 :]
    # The thought's end, on one line, however its chunks came.
    assert ("thinking", end) in shown
    assert all(len(thought) <= THOUGHT_SHOWN for _, thought in shown if thought)
    # Once the child reads, the card shows the read, and the thought is gone.
    thinking = shown.index(("thinking", end))
    assert shown[thinking + 1 :] == [("Read retry.py", None), ("thinking", None), ("writing", None)]

    # Live only: the log keeps no progress, and a replay is the live run without it.
    assert session.replay() == recorder.without_progress()
