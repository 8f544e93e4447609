"""A long session's steps are not each walked by the cyclic garbage collector."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.session.helpers import Recorder, Sessions, call, script, text
from tether.tools.defaults import default_tools


@pytest.fixture
def default_collector() -> Iterator[None]:
    """CPython's default thresholds for the test, whatever ran before; the old ones after."""
    kept = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*kept)


@pytest.mark.usefixtures("default_collector")
async def test_a_long_session_is_not_collected_every_step(ws: Path, sessions: Sessions) -> None:
    # Each young collection walks the lists as long as the conversation that a step holds
    # while it runs: at CPython's default there was about one per step (a step cost more the
    # longer the session ran).
    (ws / "code.py").write_text("".join(f"def f{n}(x):\n    return x * {n}\n" for n in range(30)))
    steps = 300
    reads = [{"toolCalls": [call(f"c{n}", "read", {"path": "code.py"})]} for n in range(steps)]
    model = script(*reads, {"text": "Done."})
    session = sessions.new(ws, model, default_tools(), max_steps=steps + 1)
    before = gc.get_stats()[0]["collections"]
    assert await session.prompt(text("Read it over and over."), Recorder()) == "end_turn"
    young = gc.get_stats()[0]["collections"] - before
    assert young < steps / 4, f"{young} young collections in {steps} steps"
