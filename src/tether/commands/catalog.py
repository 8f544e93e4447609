"""Which slash commands a session offers: the built-in ones, then custom ones from files.

A custom command is a Markdown file: its name (without `.md`) is the command, its body the
prompt, where `$ARGUMENTS` stands for what follows the command. Optional front matter:

    ---
    description: Review the staged diff
    argument-hint: [path]
    ---
    Review the staged changes in $ARGUMENTS ...

Files come from `$TETHER_HOME/commands/` and then `.tether/commands/` in the workspace (a
project command replaces a user command of the same name). Built-in names cannot be taken.
The workspace's files are read without following symbolic links, and not at all when the
folder itself leads outside the workspace: a command's text goes to the model.

Some built-in commands act on the terminal itself (`/help`, `/clear`, `/resume`, `/model`,
`/usage`, `/transcript`, `/exit`): they are `terminal` commands, listed only where a terminal
asks for them (`load_commands(..., terminal=True)`); ACP and the web client never see them.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

from tether.bounded import UnreadableFile, read_bounded_text

__all__ = ["BUILTIN", "COMMANDS_DIR", "Command", "load_commands", "parse_command_file"]

log = logging.getLogger(__name__)

COMMANDS_DIR = Path(".tether") / "commands"
"""Where a workspace keeps its commands (and `commands/` in tether's data directory)."""

ARGUMENTS = "$ARGUMENTS"

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_MAX_FILE = 256 * 1024
_MAX_COMMANDS = 200

INIT_PROMPT = """\
Survey this workspace and write an AGENTS.md at its root for coding agents that will work \
here (update it if it exists, keeping what is still true). Look at the layout, the build, \
test and lint commands, the code style and conventions, and anything surprising. Keep it \
short and concrete: the commands to run, where things live, the rules to follow. $ARGUMENTS"""


@dataclass(frozen=True)
class Command:
    """One slash command: its name, what it does, the hint for its input, its template."""

    name: str
    description: str
    hint: str | None = None
    """What to type after the command, when it takes input."""
    template: str | None = None
    """The prompt it stands for (`$ARGUMENTS` replaced); `None` for `/mode` and `/compact`."""
    source: Path | None = None
    terminal: bool = False
    """Only the interactive terminal offers it (it acts on the terminal, not the session)."""


BUILTIN: tuple[Command, ...] = (
    Command(
        "compact",
        "Summarize the conversation so far to free the model's context",
        hint="what the summary should keep (optional)",
    ),
    Command(
        "init",
        "Survey the workspace and write or update AGENTS.md",
        hint="what to stress (optional)",
        template=INIT_PROMPT,
    ),
    Command("mode", "Switch the permission mode", hint="ask | accept-edits | auto"),
    Command(
        "permissions",
        "List the permission rules, the file each comes from, and whether the workspace is trusted",
    ),
    Command("skills", "List the skills the model can load, and the ones left out and why"),
    Command("help", "Keys and commands", terminal=True),
    Command("clear", "Start a new session with the same settings", terminal=True),
    Command("resume", "Open another session of this workspace", hint="[id]", terminal=True),
    Command("model", "Switch the model from the next request on", hint="[spec]", terminal=True),
    Command(
        "thinking",
        "How hard the model thinks from the next prompt on",
        hint="off | low | medium | high",
        terminal=True,
    ),
    Command("usage", "Tokens in and out, cached, per model, for this session", terminal=True),
    Command("transcript", "The whole session in full, in a pager", terminal=True),
    Command("exit", "Leave (the session can be resumed)", terminal=True),
    Command(
        "rewind",
        "Restore the files to how they were before a prompt (no number: list the prompts)",
        hint="prompt number (optional)",
    ),
    Command("undo", "Undo the file changes of the last prompt"),
    Command("redo", "Put back what the last /undo restored"),
    Command(
        "fork",
        "Continue in a new session from before a prompt (no number: from now)",
        hint="prompt number (optional)",
    ),
)


def load_commands(workspace: Path, home: Path | None, *, terminal: bool = False) -> list[Command]:
    """The built-in commands, then the custom ones by name (bad files are skipped, logged).

    `terminal` commands are in the list only when `terminal` is set.
    """
    found: dict[str, Command] = {}
    folders = [(home / "commands", False)] if home else []
    folders.append((workspace / COMMANDS_DIR, True))
    for folder, project in folders:
        if not folder.is_dir():
            continue
        # A project's links are not followed: `review.md -> ~/.ssh/id_ed25519` in a cloned
        # repository would send the key to the model the first time /review is typed.
        if project and not folder.resolve().is_relative_to(workspace.resolve()):
            log.warning("%s: leads outside the workspace; its commands are not read", folder)
            continue
        for path in sorted(folder.glob("*.md"))[:_MAX_COMMANDS]:
            command = parse_command_file(path, follow_symlinks=not project)
            if command is not None:
                found[command.name] = command
    builtin = {c.name for c in BUILTIN}
    for name in sorted(found.keys() & builtin):
        log.warning("%s: /%s is a built-in command; the file is ignored", found[name].source, name)
    offered = [c for c in BUILTIN if terminal or not c.terminal]
    return [*offered, *(found[n] for n in sorted(found) if n not in builtin)]


def parse_command_file(path: Path, *, follow_symlinks: bool = True) -> Command | None:
    """The command a file defines, or `None` (logged) when it cannot be one."""
    name = path.stem
    if not _NAME.fullmatch(name):
        log.warning("%s: not a command name; use letters, digits, '-', '_' or '.'", path)
        return None
    try:
        # The workspace controls the file: a link to /dev/zero or a FIFO is refused, not read.
        text = read_bounded_text(path, limit=_MAX_FILE, follow_symlinks=follow_symlinks)
    except UnreadableFile as exc:
        log.warning("cannot be read: %s; skipped", exc)
        return None
    except OSError as exc:
        log.warning("%s: cannot be read: %s", path, exc.strerror or exc)
        return None
    fields, body = _front_matter(text)
    body = body.strip()
    if not body:
        log.warning("%s: the command has no prompt", path)
        return None
    first_line = body.splitlines()[0].lstrip("# ").strip()
    description = fields.get("description") or first_line[:100] or f"/{name}"
    hint = fields.get("argument-hint") or ("arguments" if ARGUMENTS in body else None)
    return Command(name, description, hint=hint, template=body, source=path)


def _front_matter(text: str) -> tuple[dict[str, str], str]:
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        return {}, text
    for end in range(1, min(len(lines), 50)):
        if lines[end].strip() == "---":
            fields = {}
            for line in lines[1:end]:
                key, sep, value = line.partition(":")
                if sep:
                    fields[key.strip().lower()] = value.strip().strip("'\"")
            return fields, "\n".join(lines[end + 1 :])
    return {}, text
