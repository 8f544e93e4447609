"""The terminal closes its models' connections as it lets go of them: a `/model` switch
closes the old model's pool once no prompt streams on it, `/clear` ends the session and
closes its model's, and the process holds none at the end. In a real pty, against an
Anthropic-speaking loopback server that counts the connections held (its answers are read
to their end, so each connection goes back to the pool, kept alive)."""

from __future__ import annotations

import time
from pathlib import Path

from tests.cli.tui import Tui
from tests.models.sse_server import SSEServer


def _held(server: SSEServer, count: int, what: str) -> None:
    """Wait until the server sees `count` connections held open."""
    deadline = time.monotonic() + 10
    while server.open_connections != count:
        assert time.monotonic() < deadline, f"{what}: {server.open_connections} open"
        time.sleep(0.02)


def test_a_switch_and_a_clear_close_what_they_leave(
    tmp_path: Path, ws: Path, tuis: list[Tui], anthropic: SSEServer
) -> None:
    env = {"ANTHROPIC_BASE_URL": anthropic.url, "ANTHROPIC_API_KEY": "sk-test"}
    args = ["--model", "anthropic:claude-sonnet-5-5"]
    tui = Tui(tmp_path / "home", args, cwd=ws, columns=100, env=env)
    tuis.append(tui)
    tui.wait_for("claude-sonnet-5-5")
    tui.line("hello")
    tui.wait_for("Done: both files are fine.")
    _held(anthropic, 1, "the session's connection kept alive")

    tui.line("/model anthropic:claude-opus-5-5")
    tui.wait_in_scrollback("(from the next request)")
    _held(anthropic, 0, "the old model's pool closed at the switch")
    tui.line("again")
    tui.wait(lambda: tui.everything.count("Done: both files are fine.") >= 2, "the second answer")
    _held(anthropic, 1, "the new model's connection")
    assert [r.json()["model"] for r in anthropic.requests] == [
        "claude-sonnet-5-5",
        "claude-opus-5-5",
    ]

    tui.line("/clear")
    _held(anthropic, 0, "the ended session's pool closed")
    tui.press("ctrl-d")
    assert tui.finish() == 0
