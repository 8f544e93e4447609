"""Claude Code's command files: `.claude/commands/` and `~/.claude/commands/`, sub-folders as
namespaces, `$ARGUMENTS` and `$1`...`$9`, the front matter as Claude Code reads it."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.files import write
from tether.commands import Command, PromptText, load_commands, resolve
from tether.commands.resolve import substitute

# As Claude Code's documentation writes them.
FIX_ISSUE = """\
---
argument-hint: [issue-number] [priority]
description: Fix an issue by number
---
Fix issue #$1 with priority $2. Everything typed: $ARGUMENTS
"""

COMMIT = """\
---
allowed-tools: Bash(git add:*), Bash(git status:*), Bash(git commit:*)
description: Create a git commit
model: haiku
disable-model-invocation: true
context: fork
---
## Context

- Current git status: !`git status`

## Your task

Create a single commit.
"""


def custom(commands: list[Command]) -> dict[str, Command]:
    return {c.name: c for c in commands if c.source is not None}


def test_project_commands_in_claude_codes_folder_and_sub_folders(ws: Path) -> None:
    write(ws / ".claude" / "commands" / "fix-issue.md", FIX_ISSUE)
    component = write(
        ws / ".claude" / "commands" / "frontend" / "component.md",
        "---\ndescription: Create a component\n---\nCreate the component $ARGUMENTS.\n",
    )
    write(ws / ".claude" / "commands" / "frontend" / "ui" / "button.md", "Make a button.\n")
    found = custom(load_commands(ws, None))
    assert sorted(found) == ["fix-issue", "frontend:component", "frontend:ui:button"]
    namespaced = found["frontend:component"]
    # The folder is shown as Claude Code's menu shows it.
    assert namespaced.description == "Create a component (project:frontend)"
    assert (namespaced.scope, namespaced.source) == ("project", component)
    assert found["frontend:ui:button"].description == "Make a button. (project:frontend/ui)"
    assert resolve("/frontend:component Header", list(found.values())) == PromptText(
        "Create the component Header.", command="frontend:component"
    )
    fix = found["fix-issue"]
    assert (fix.description, fix.hint) == ("Fix an issue by number", "[issue-number] [priority]")


def test_positional_arguments_and_arguments(ws: Path) -> None:
    write(ws / ".claude" / "commands" / "fix-issue.md", FIX_ISSUE)
    commands = load_commands(ws, None)
    assert resolve("/fix-issue 123 high", commands) == PromptText(
        "Fix issue #123 with priority high. Everything typed: 123 high", command="fix-issue"
    )
    # Quotes group words as a shell groups them; a missing argument is empty.
    assert substitute("[$1] [$2] [$3]", "'two words' next") == "[two words] [next] []"
    assert substitute("$1 and $10 stay", "a") == "a and $10 stay"
    # Neither placeholder: what was typed is appended.
    assert substitute("Do it.", "now") == "Do it.\n\nnow"


def test_front_matter_fields_and_warnings(ws: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = write(ws / ".claude" / "commands" / "commit.md", COMMIT)
    with caplog.at_level(logging.WARNING):
        commit = custom(load_commands(ws, None))["commit"]
    assert commit.allowed_tools == (
        "Bash(git add:*)",
        "Bash(git status:*)",
        "Bash(git commit:*)",
    )
    assert (commit.model, commit.model_invocable) == ("haiku", False)
    assert commit.description == "Create a git commit"
    assert commit.warnings == (
        f"{path}:6: `context` is not supported: a command runs in the conversation, never forked",
    )
    assert commit.warnings[0] in caplog.text


def test_the_users_claude_commands_under_home(
    ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "person"
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.setenv("HOME", str(home))
    write(home / ".claude" / "commands" / "standup.md", "Write my standup.\n")
    write(home / ".claude" / "commands" / "git" / "sync.md", "Sync the branch.\n")
    write(home / ".claude" / "commands" / "shared.md", "The user's.\n")
    write(ws / ".claude" / "commands" / "shared.md", "The project's.\n")
    found = custom(load_commands(ws, tmp_path / "tether-home"))
    assert found["standup"].scope == "user"
    assert found["git:sync"].description == "Sync the branch. (user:git)"
    assert found["shared"].template == "The project's."  # the project's wins
    # tether's own folder beside it, and `.tether/commands/` over `.claude/commands/`.
    write(tmp_path / "tether-home" / "commands" / "mine.md", "Mine.\n")
    write(ws / ".tether" / "commands" / "shared.md", "tether's project file.\n")
    found = custom(load_commands(ws, tmp_path / "tether-home"))
    assert found["mine"].template == "Mine."
    assert found["shared"].template == "tether's project file."


def test_a_claude_commands_folder_linked_out_of_the_workspace_is_not_read(
    ws: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    write(tmp_path / "elsewhere" / "leak.md", "secret")
    (ws / ".claude").mkdir()
    (ws / ".claude" / "commands").symlink_to(tmp_path / "elsewhere")
    with caplog.at_level(logging.WARNING):
        assert "leak" not in custom(load_commands(ws, None))
    assert "leads outside the workspace" in caplog.text
