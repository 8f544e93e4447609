"""`tether run` with slash commands and the todo checklist, as a person at a shell sees it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_cli import _script, _sessions, tether, ws

__all__ = ["ws"]  # the fixture


def test_run_expands_a_custom_command_and_prints_the_plan(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    (ws / ".tether" / "commands").mkdir(parents=True)
    (ws / ".tether" / "commands" / "fix.md").write_text("Fix the bug in $ARGUMENTS.")
    todos = [
        {"content": "Find the bug", "status": "completed"},
        {"content": "Fix it", "status": "in_progress"},
    ]
    model = _script(
        tmp_path / "s.json",
        {"toolCalls": [{"id": "t", "name": "todo", "arguments": {"todos": todos}}]},
        {"text": "on it"},
    )
    done = tether(home, "run", "/fix parser.py", "--model", model, "--cwd", str(ws))
    assert done.returncode == 0, done.stderr
    assert "[x] Find the bug" in done.stdout
    assert "[~] Fix it" in done.stdout
    [info] = _sessions(home)
    log = (home / "sessions" / f"{info['id']}.jsonl").read_text().splitlines()
    [said] = [json.loads(line) for line in log if '"user/message"' in line]
    assert said["content"][0]["text"] == "Fix the bug in parser.py."
    assert said["shown"][0]["text"] == "/fix parser.py"

    bad = tether(home, "run", "/mode sideways", "--model", model, "--cwd", str(ws))
    assert bad.returncode == 1
    assert "Usage: /mode ask | accept-edits | auto" in bad.stderr
    switched = tether(home, "run", "/mode auto", "--model", model, "--cwd", str(ws))
    assert switched.returncode == 0
    assert "mode: auto" in switched.stderr
