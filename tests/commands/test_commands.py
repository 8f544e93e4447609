"""Slash commands: built-ins, custom files with front matter, and what a prompt resolves to."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tether.commands import CheckpointCommand, ModeSwitch, PromptText, load_commands, resolve
from tether.commands.catalog import COMMANDS_DIR
from tether.errors import CommandError


def _write(folder: Path, name: str, text: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text)


def test_builtins_then_custom_commands_project_over_user(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    _write(home / "commands", "review.md", "Review the user's way: $ARGUMENTS")
    _write(home / "commands", "standup.md", "# Write a standup note\nFrom the git log.")
    _write(
        ws / COMMANDS_DIR,
        "review.md",
        "---\ndescription: Review a file\nargument-hint: PATH\n---\nReview $ARGUMENTS closely.\n",
    )
    commands = load_commands(ws, home)
    names = [c.name for c in commands]
    assert names == [
        "compact",
        "init",
        "mode",
        "permissions",
        "skills",
        "agents",
        "rewind",
        "undo",
        "redo",
        "fork",
        "review",
        "standup",
    ]
    review = commands[10]
    assert (review.description, review.hint) == ("Review a file", "PATH")
    assert review.source == ws / COMMANDS_DIR / "review.md"
    standup = commands[11]
    assert (standup.description, standup.hint) == ("Write a standup note", None)

    assert resolve("/review src/a.py", commands) == PromptText(
        "Review src/a.py closely.", command="review"
    )
    # No $ARGUMENTS in the template: what follows the command is appended.
    assert resolve("/standup mention the release", commands) == PromptText(
        "# Write a standup note\nFrom the git log.\n\nmention the release", command="standup"
    )


def test_mode_compact_init_and_plain_text(tmp_path: Path) -> None:
    commands = load_commands(tmp_path, None)
    assert resolve("/mode auto", commands) == ModeSwitch("auto")
    with pytest.raises(CommandError, match=r"Usage: /mode ask \| accept-edits \| auto"):
        resolve("/mode yolo", commands)
    # The session compacts by itself on `/compact`: the text goes through unchanged.
    assert resolve("/compact keep the API", commands) == PromptText(
        "/compact keep the API", command="compact"
    )
    init = resolve("/init", commands)
    assert isinstance(init, PromptText) and "AGENTS.md" in init.text
    assert init.command == "init"
    # A path or an unknown command is just text.
    assert resolve("/usr/bin/env is missing", commands) == PromptText("/usr/bin/env is missing")
    assert resolve("hello /mode", commands) == PromptText("hello /mode")


def test_a_project_command_never_reads_a_file_outside_through_a_link(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # A cloned repository can hold `review.md -> ../../.ssh/id_ed25519`: typing /review would
    # send the key to the model. The project's links are refused, its folder too when it
    # leads outside; the user's own folder may link where it likes.
    home, ws, outside = tmp_path / "home", tmp_path / "ws", tmp_path / "outside"
    _write(outside, "key", "PRIVATE KEY")
    _write(ws / COMMANDS_DIR, "good.md", "Do the good thing.")
    (ws / COMMANDS_DIR / "review.md").symlink_to(outside / "key")
    (ws / COMMANDS_DIR / "inside.md").symlink_to(ws / COMMANDS_DIR / "good.md")
    _write(home / "commands", "mine.md", "x")
    (home / "commands" / "linked.md").symlink_to(outside / "key")
    with caplog.at_level(logging.WARNING):
        commands = {c.name: c for c in load_commands(ws, home)}
    assert "review" not in commands and "inside" not in commands
    assert commands["good"].template == "Do the good thing."
    assert commands["linked"].template == "PRIVATE KEY"
    assert f"{ws / COMMANDS_DIR / 'review.md'}: a symbolic link" in caplog.text

    other = tmp_path / "other"
    _write(other / "commands", "leak.md", "from elsewhere")
    (ws / ".tether" / "commands" / "good.md").unlink()
    (ws / ".tether" / "commands" / "review.md").unlink()
    (ws / ".tether" / "commands" / "inside.md").unlink()
    (ws / ".tether" / "commands").rmdir()
    (ws / ".tether" / "commands").symlink_to(other / "commands")
    with caplog.at_level(logging.WARNING):
        names = [c.name for c in load_commands(ws, None)]
    assert "leak" not in names
    assert "leads outside the workspace" in caplog.text


def test_bad_files_are_skipped_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / COMMANDS_DIR
    _write(folder, "empty.md", "---\ndescription: nothing\n---\n\n")
    _write(folder, "mode.md", "Take over the mode command")
    _write(folder, "bad name!.md", "x")
    (folder / "binary.md").write_bytes(b"\xff\xfe\x00")
    with caplog.at_level(logging.WARNING):
        commands = load_commands(tmp_path, None)
    assert [c.name for c in commands] == [
        "compact",
        "init",
        "mode",
        "permissions",
        "skills",
        "agents",
        "rewind",
        "undo",
        "redo",
        "fork",
    ]
    assert commands[2].template is None
    text = caplog.text
    assert "has no prompt" in text and "built-in command" in text
    assert "not a command name" in text and "cannot be read" in text


def test_checkpoint_commands_take_a_prompt_number_or_nothing(tmp_path: Path) -> None:
    commands = load_commands(tmp_path, None)
    assert resolve("/rewind", commands) == CheckpointCommand("rewind")
    assert resolve("/rewind 3", commands) == CheckpointCommand("rewind", 3)
    assert resolve("/fork 12", commands) == CheckpointCommand("fork", 12)
    assert resolve("/undo", commands) == CheckpointCommand("undo")
    assert resolve(" /redo ", commands) == CheckpointCommand("redo")
    for wrong in ("/rewind 0", "/rewind x", "/fork -1", "/rewind ３", "/undo 2", "/redo now"):
        with pytest.raises(CommandError, match="Usage: /"):
            resolve(wrong, commands)
