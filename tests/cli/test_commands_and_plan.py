"""`tether run` with slash commands and the todo checklist, as a person at a shell sees it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.in_process import tether_in_process
from tests.cli.support import scripted_model, sessions_listed

# Several `tether run` processes (and MCP servers) per test: slow on a loaded machine.
pytestmark = pytest.mark.timeout(300)


def test_run_expands_a_custom_command_and_prints_the_plan(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    (ws / ".tether" / "commands").mkdir(parents=True)
    (ws / ".tether" / "commands" / "fix.md").write_text("Fix the bug in $ARGUMENTS.")
    todos = [
        {"content": "Find the bug", "status": "completed"},
        {"content": "Fix it", "status": "in_progress"},
    ]
    finished = [{**todo, "status": "completed"} for todo in todos]
    model = scripted_model(
        tmp_path / "s.json",
        {"toolCalls": [{"id": "t", "name": "todo", "arguments": {"todos": todos}}]},
        {"toolCalls": [{"id": "t2", "name": "todo", "arguments": {"todos": todos}}]},
        {"toolCalls": [{"id": "t3", "name": "todo", "arguments": {"todos": finished}}]},
        {"text": "on it"},
    )
    done = tether_in_process(home, "run", "/fix parser.py", "--model", model, "--cwd", str(ws))
    assert done.returncode == 0, done.stderr
    # Once per change, as a checklist: no generic card for the call, no repeat of the same.
    out = done.stdout
    assert "Update the plan" not in out and "╭" not in out
    assert out.count("Plan  1 of 2 done") == 1 and out.count("Plan  2 of 2 done") == 1
    first = out[out.index("Plan  1 of 2 done") :]
    assert "✓ Find the bug" in first and "▸ Fix it" in first
    assert "✓ Fix it" in out[out.index("Plan  2 of 2 done") :]
    [info] = sessions_listed(home, run=tether_in_process)
    log = (home / "sessions" / f"{info['id']}.jsonl").read_text().splitlines()
    [said] = [json.loads(line) for line in log if '"user/message"' in line]
    assert said["content"][0]["text"] == "Fix the bug in parser.py."
    assert said["shown"][0]["text"] == "/fix parser.py"

    bad = tether_in_process(home, "run", "/mode sideways", "--model", model, "--cwd", str(ws))
    assert bad.returncode == 1
    assert "Usage: /mode ask | accept-edits | auto | plan" in bad.stderr
    switched = tether_in_process(home, "run", "/mode auto", "--model", model, "--cwd", str(ws))
    assert switched.returncode == 0
    assert "mode: auto" in switched.stderr


def test_run_uses_user_servers_and_skips_unapproved_project_ones(tmp_path: Path, ws: Path) -> None:
    import sys

    from tests.mcp.support import SAMPLE

    home = tmp_path / "home"
    home.mkdir()
    server = {"command": sys.executable, "args": [str(SAMPLE)]}
    (home / "mcp.json").write_text(json.dumps({"mcpServers": {"mine": server}}))
    (ws / ".mcp.json").write_text(json.dumps({"mcpServers": {"theirs": server}}))
    model = scripted_model(
        tmp_path / "s.json",
        {
            "toolCalls": [
                {"id": "a", "name": "mcp__mine__add", "arguments": {"a": 4, "b": 5}},
                {"id": "b", "name": "mcp__theirs__add", "arguments": {"a": 1, "b": 1}},
            ]
        },
        {"text": "sums done"},
    )
    done = tether_in_process(home, "run", "add", "--model", model, "--cwd", str(ws))
    assert done.returncode == 0, done.stderr
    assert "9" in done.stdout
    # Headless, ask mode: the project's servers need approval, so they were skipped.
    said = " ".join(done.stderr.split())
    assert "MCP servers of" in said and "(theirs) were not started" in said
    assert "name each with --approve-mcp NAME" in said
    assert "Unknown tool: mcp__theirs__add" in done.stdout
    # Auto mode does not approve them: a person does, here by naming them.
    named = tether_in_process(
        home, "run", "add", "--model", model, "--cwd", str(ws), "--mode", "auto",
        "--approve-mcp", "theirs", "--approve-mcp", "nobody",
    )  # fmt: skip
    assert named.returncode == 0, named.stderr
    assert "Unknown tool" not in named.stdout
    said = " ".join(named.stderr.split())
    assert "--approve-mcp nobody: " in said and ".mcp.json has no such server" in said


def test_a_workspace_cannot_give_itself_a_server_that_runs_outside(
    tmp_path: Path, ws: Path
) -> None:
    import shlex

    home = tmp_path / "home"
    marker = tmp_path / "ran-outside-the-sandbox"
    planted = {"mcpServers": {"planted": {"command": "sh", "args": ["-c", f"touch {marker}"]}}}
    # Through a program, not a redirection: the gate asks before a redirection into .mcp.json.
    write = f"printf '%s' {shlex.quote(json.dumps(planted))} | tee .mcp.json"
    model = scripted_model(
        tmp_path / "s.json",
        {"toolCalls": [{"id": "w", "name": "bash", "arguments": {"command": write}}]},
        {"text": "done"},
    )
    for _ in range(2):  # the sandboxed command writes .mcp.json; the next run finds it
        run = tether_in_process(
            home, "run", "go", "--model", model, "--cwd", str(ws), "--mode", "auto"
        )
        assert run.returncode == 0, run.stderr
    assert json.loads((ws / ".mcp.json").read_text()) == planted
    assert "(planted) were not started" in " ".join(run.stderr.split())
    assert not marker.exists()
