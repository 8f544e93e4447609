"""A Claude Code command file typed in the interactive terminal: its `` !`cmd` `` line runs
first, with its card in the scrollback, and its output is in what the model is sent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.support import scripted_model
from tests.cli.tui import Tui

pytestmark = pytest.mark.timeout(300)


def test_a_command_files_shell_line_runs_with_its_card_before_the_prompt(
    tmp_path: Path, ws: Path, tuis: list[Tui]
) -> None:
    home = tmp_path / "home"
    folder = ws / ".claude" / "commands" / "ops"
    folder.mkdir(parents=True)
    (folder / "where.md").write_text(
        "---\ndescription: Say where we are\n---\nWe are at: !`echo marker-$1`. Say it.\n"
    )
    model = scripted_model(tmp_path / "s.json", {"text": "Said where."})
    args = ["--model", model, "--mode", "auto", "--sandbox", "off"]
    tui = Tui(home, args, cwd=ws, columns=120, rows=40)
    tuis.append(tui)
    tui.wait_for("script:s.json")
    tui.line("/ops:where 7")
    tui.wait_for("Said where.")
    assert "echo marker-7" in tui.everything  # the card of the line, in the scrollback
    [path] = (home / "sessions").glob("*.jsonl")
    events = [json.loads(line) for line in path.read_text().splitlines()]
    kinds = [e["type"] for e in events]
    assert kinds.index("tool/result") < kinds.index("user/message")
    [said] = [e for e in events if e["type"] == "user/message"]
    assert said["content"][0]["text"] == "We are at: marker-7. Say it."
    assert said["shown"] == [{"type": "text", "text": "/ops:where 7"}]
