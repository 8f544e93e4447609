"""`tether run` with Claude Code's command files: `` !`cmd` `` lines run first through the
`bash` tool with a card each (refused when no one can approve them), `@path` files go with
the prompt, `allowed-tools` let the command's calls pass in a trusted workspace."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.in_process import tether_in_process
from tests.cli.support import scripted_model, sessions_listed

pytestmark = pytest.mark.timeout(300)

STATUS = """\
---
description: Summarize the state of the tree
argument-hint: [focus]
---
## Context

- Greeting: !`echo hello from $1`
- Notes: @notes.md

Summarize, focusing on $ARGUMENTS.
"""


def _log(home: Path) -> list[dict[str, Any]]:
    [info] = sessions_listed(home)
    lines = (home / "sessions" / f"{info['id']}.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def _command(ws: Path, text: str, name: str = "status") -> None:
    folder = ws / ".claude" / "commands"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.md").write_text(text)


def test_a_shell_line_is_refused_headless_in_ask_mode_and_the_prompt_says_so(
    tmp_path: Path, ws: Path
) -> None:
    home = tmp_path / "home"
    _command(ws, STATUS)
    (ws / "notes.md").write_text("Release on Friday.\n")
    model = scripted_model(tmp_path / "s.json", {"text": "summary"})
    run = tether_in_process(home, "run", "/status tests", "--model", model, "--cwd", str(ws))
    assert run.returncode == 2, run.stderr  # a call was refused for want of someone to ask
    log = _log(home)
    types = [e["type"] for e in log]
    # The card of the shell line comes before the prompt, as a `!command`'s does.
    assert types.index("tool/call") < types.index("tool/result") < types.index("user/message")
    [call] = [e for e in log if e["type"] == "tool/call"]
    arguments = json.loads(call["arguments"])
    assert arguments == {
        "command": "echo hello from tests",
        "description": "Run by /status before its prompt",
    }
    [result] = [e for e in log if e["type"] == "tool/result"]
    assert result["isError"] is True
    [said] = [e for e in log if e["type"] == "user/message"]
    text = said["content"][0]["text"]
    assert "- Greeting: [`echo hello from tests` was not run: Permission to run" in text
    assert "no one to ask" in text
    assert "Summarize, focusing on tests." in text
    # `@notes.md` goes with the prompt, as an `@` mention does.
    assert said["content"][1]["text"].startswith("<context ref=")
    assert "Release on Friday." in said["content"][1]["text"]
    assert said["shown"] == [{"type": "text", "text": "/status tests"}]
    assert "echo hello from tests" in run.stdout  # the card


def test_a_shell_line_runs_in_auto_mode_and_its_output_is_the_prompts(
    tmp_path: Path, ws: Path
) -> None:
    home = tmp_path / "home"
    _command(ws, STATUS)
    (ws / "notes.md").write_text("n\n")
    model = scripted_model(tmp_path / "s.json", {"text": "summary"})
    args = ("--model", model, "--cwd", str(ws), "--mode", "auto", "--sandbox", "off")
    run = tether_in_process(home, "run", "/status docs", *args)
    assert run.returncode == 0, run.stderr
    [said] = [e for e in _log(home) if e["type"] == "user/message"]
    text = said["content"][0]["text"]
    assert "- Greeting: hello from docs" in text
    assert "!`" not in text


def test_allowed_tools_pass_without_asking_only_in_a_trusted_workspace(
    tmp_path: Path, ws: Path
) -> None:
    home = tmp_path / "home"
    _command(
        ws,
        "---\nallowed-tools: Bash(echo:*)\n---\nState: !`echo granted`\n",
        name="state",
    )
    model = scripted_model(tmp_path / "s.json", {"text": "ok"})
    untrusted = tether_in_process(home, "run", "/state", "--model", model, "--cwd", str(ws))
    assert untrusted.returncode == 2, untrusted.stderr
    assert "`allowed-tools` is not applied: a project's command grants nothing until" in (
        untrusted.stderr
    )
    assert tether_in_process(home, "permissions", "trust", "--cwd", str(ws)).returncode == 0
    trusted = tether_in_process(
        home, "run", "/state", "--model", model, "--cwd", str(ws), "--sandbox", "off"
    )
    assert trusted.returncode == 0, trusted.stderr
    said = [e for e in _log_all(home) if e["type"] == "user/message"][-1]
    assert said["content"][0]["text"] == "State: granted"


def _log_all(home: Path) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for path in sorted((home / "sessions").glob("*.jsonl"), key=lambda p: p.stat().st_mtime):
        events.extend(json.loads(line) for line in path.read_text().splitlines())
    return events


def test_a_model_of_another_provider_is_said_and_the_sessions_answers(
    tmp_path: Path, ws: Path
) -> None:
    home = tmp_path / "home"
    _command(ws, "---\nmodel: haiku\ndescription: Quick\n---\nBe quick.\n", name="quick")
    model = scripted_model(tmp_path / "s.json", {"text": "quick answer"})
    run = tether_in_process(home, "run", "/quick", "--model", model, "--cwd", str(ws))
    assert run.returncode == 0, run.stderr
    path = ws / ".claude" / "commands" / "quick.md"
    assert (
        f"{path}: `model: haiku` names an Anthropic model; this session runs on {model}, "
        "and so does the command"
    ) in " ".join(run.stderr.split())
    assert "quick answer" in run.stdout
