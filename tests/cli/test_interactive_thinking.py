"""Thinking at the interactive terminal: the thought streams under the live line and stays as
one dimmed line; `/thinking LEVEL` is logged with the session; `/cost` is `/usage`."""

from __future__ import annotations

from pathlib import Path

from tests.cli.support import logged_records, scripted_model
from tests.cli.tui import Tui

THOUGHT = "The person greets me; a greeting back will do."


def test_a_thought_and_the_thinking_command(tmp_path: Path, ws: Path, tuis: list[Tui]) -> None:
    home = tmp_path / "home"
    model = scripted_model(
        tmp_path / "s.json",
        {
            "thinking": THOUGHT,
            "text": "Hello to you.",
            "usage": {"inputTokens": 10, "outputTokens": 5},
        },
    )
    tui = Tui(home, ["--model", model, "--mode", "auto"], cwd=ws, columns=100, rows=30)
    tuis.append(tui)
    tui.wait_for("script:s.json")
    tui.line("/thinking high")
    tui.wait_for("thinking: high (from the next prompt)")
    tui.line("hello")
    tui.wait_for("Hello to you.")
    text = tui.everything
    assert "✻ Thought for" in text and THOUGHT not in text
    assert text.index("✻ Thought for") < text.index("Hello to you.")
    configs = [
        (e["configId"], e["value"]) for e in logged_records(home) if e["type"] == "session/config"
    ]
    assert configs == [("thinking", "high")]
    tui.line("/cost")
    tui.wait_for("unknown")  # a script has no price: its cost is unknown, never $0
    tui.press("ctrl-d")
    assert tui.finish() == 0
