"""Which slash commands a session offers: the built-in ones, then custom ones from files.

A custom command is a Markdown file, in tether's folders or Claude Code's: its name (without
`.md`) is the command, its body the prompt. Optional front matter, as Claude Code reads it:

    ---
    description: Review the staged diff
    argument-hint: [path] [focus]
    allowed-tools: Bash(git diff:*), Read
    model: haiku
    disable-model-invocation: true
    ---
    Review the staged changes in $1, looking for $2: !`git diff --staged`

Files come from the user's folders (`$TETHER_HOME/commands/`, Claude Code's
`~/.claude/commands/` or `$CLAUDE_CONFIG_DIR/commands/`), then the workspace's
(`.claude/commands/`, `.tether/commands/`); a later file of a name replaces an earlier one, so a
project's command replaces a user's. A file in a sub-folder is a namespaced command:
`.claude/commands/frontend/component.md` is `/frontend:component`, and its description ends
with `(project:frontend)` as in Claude Code's menu. Built-in names cannot be taken.
The workspace's files are read without following symbolic links, and not at all when the
folder itself leads outside the workspace: a command's text goes to the model.

A key tether does not use is a warning naming the file, the key and why (the command is still
offered); a file that cannot be read at all is skipped with a warning naming it.

Some built-in commands act on the terminal itself (`/help`, `/clear`, `/resume`, `/model`,
`/usage`, `/transcript`, `/login`, `/logout`, `/exit`): they are `terminal` commands, listed
only where a terminal asks for them (`load_commands(..., terminal=True)`); ACP and the web
client never see them.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from tether.beneath import opener_below
from tether.bounded import read_bounded_text
from tether.errors import FrontMatterError, UnreadableFile
from tether.frontmatter import FrontMatterField, FrontMatterWarning, log_once, parse_front_matter
from tether.home import claude_home
from tether.lazy import pattern

__all__ = [
    "BUILTIN",
    "CLAUDE_COMMANDS_DIR",
    "COMMANDS_DIR",
    "Command",
    "CommandScope",
    "load_commands",
    "parse_command_file",
]

log = logging.getLogger(__name__)

COMMANDS_DIR = Path(".tether") / "commands"
"""Where a workspace keeps its commands (and `commands/` in tether's data directory)."""
CLAUDE_COMMANDS_DIR = Path(".claude") / "commands"
"""Where Claude Code keeps a workspace's commands (and `commands/` in `~/.claude/`)."""

ARGUMENTS = "$ARGUMENTS"
_POSITIONAL = pattern(r"\$[1-9](?![0-9])")

CommandScope = Literal["user", "project"]

_NAME = pattern(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_MAX_FILE = 256 * 1024
_MAX_COMMANDS = 200
_MAX_DEPTH = 4
_KEYS = frozenset(
    {"description", "argument-hint", "allowed-tools", "model", "disable-model-invocation"}
)
_UNSUPPORTED: dict[str, str] = {
    "disallowed-tools": "is not supported: a command cannot take tools away; use a deny rule",
    "context": "is not supported: a command runs in the conversation, never forked",
    "agent": "is not supported: a command runs in the conversation, never forked",
    "hooks": "is not supported: hooks come from the settings files",
    "user-invocable": "is not supported: every command file is a command you can type",
    "name": "is not used: a command is named by its file",
}
"""Keys of Claude Code's commands (and skills) that tether does not use, and why."""

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
    scope: CommandScope | None = None
    """Whose file it is (`None`: built in)."""
    allowed_tools: tuple[str, ...] = ()
    """Claude Code's `allowed-tools`: rules whose calls pass without asking while the
    command's prompt runs (a project's only in a trusted workspace)."""
    model: str | None = None
    """The model its prompt runs on (Claude Code's `model`); `None`: the session's."""
    model_invocable: bool = True
    """`false` for `disable-model-invocation: true` (the model never runs commands in tether,
    so this only records the file's wish)."""
    warnings: tuple[str, ...] = ()
    """What its file says that tether does not use: each names the file, the key and why."""


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
    Command("mode", "Switch the permission mode", hint="ask | accept-edits | auto | plan"),
    Command(
        "permissions",
        "List the permission rules, the file each comes from, and whether the workspace is trusted",
    ),
    Command("skills", "List the skills the model can load, and the ones left out and why"),
    Command("agents", "List the agents the model can start, and what of their files is unused"),
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
    Command(
        "usage", "Tokens in and out, cached, and cost, per model, for this session", terminal=True
    ),
    Command("cost", "What this session cost, per model (as /usage)", terminal=True),
    Command("transcript", "The whole session in full, in a pager", terminal=True),
    Command("bashes", "The background commands: how each stands; stop one", terminal=True),
    Command("login", "Give a provider's API key (saved for you alone) and use it", terminal=True),
    Command("logout", "Forget the API key saved for the current model's endpoint", terminal=True),
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


def load_commands(
    workspace: Path, home: Path | None, *, terminal: bool = False, claude: Path | None = None
) -> list[Command]:
    """The built-in commands, then the custom ones by name (bad files are skipped, logged).

    `home` is tether's data directory, `claude` Claude Code's user folder (`None`:
    `$CLAUDE_CONFIG_DIR`, else `~/.claude`). `terminal` commands are in the list only when
    `terminal` is set.
    """
    found: dict[str, Command] = {}
    folders: list[tuple[Path, CommandScope]] = [(home / "commands", "user")] if home else []
    folders.append(((claude or claude_home()) / "commands", "user"))
    folders.append((workspace / CLAUDE_COMMANDS_DIR, "project"))
    folders.append((workspace / COMMANDS_DIR, "project"))
    seen: set[Path] = set()
    for folder, scope in folders:
        project = scope == "project"
        real = Path(os.path.realpath(folder))
        if real in seen or not folder.is_dir():
            continue
        seen.add(real)
        # A project's links are not followed: `review.md -> ~/.ssh/id_ed25519` in a cloned
        # repository would send the key to the model the first time /review is typed.
        if project and not folder.resolve().is_relative_to(workspace.resolve()):
            log.warning("%s: leads outside the workspace; its commands are not read", folder)
            continue
        # And none on the way down: a sub-folder swapped for a link while the commands are
        # read could bring in a file from elsewhere; each is opened beneath the workspace.
        beneath = (workspace.resolve(),) if project else ()
        for path in _command_paths(folder, follow=not project):
            command = parse_command_file(
                path, follow_symlinks=not project, root=folder, scope=scope, beneath=beneath
            )
            if command is not None:
                found[command.name] = command
    builtin = {c.name for c in BUILTIN}
    for name in sorted(found.keys() & builtin):
        log.warning("%s: /%s is a built-in command; the file is ignored", found[name].source, name)
    custom = [found[n] for n in sorted(found) if n not in builtin]
    for command in custom:
        for warning in command.warnings:
            log_once(log, f"command: {warning}")
    offered = [c for c in BUILTIN if terminal or not c.terminal]
    return [*offered, *custom]


def _command_paths(folder: Path, *, follow: bool) -> list[Path]:
    """The `.md` files of `folder` and its sub-folders (the namespaces), in path order; a
    project's linked sub-folders are not entered."""
    found: list[Path] = []
    for top, folders, files in os.walk(folder, followlinks=follow):
        depth = len(Path(top).relative_to(folder).parts)
        folders[:] = sorted(f for f in folders if not f.startswith(".") and depth < _MAX_DEPTH)
        found.extend(Path(top) / name for name in files if name.endswith(".md"))
        if len(found) > _MAX_COMMANDS:
            log.warning("%s: more than %d commands; the rest are left out", folder, _MAX_COMMANDS)
            break
    return sorted(found, key=lambda p: p.relative_to(folder).parts)[:_MAX_COMMANDS]


def parse_command_file(
    path: Path,
    *,
    follow_symlinks: bool = True,
    root: Path | None = None,
    scope: CommandScope = "user",
    beneath: Sequence[Path] = (),
) -> Command | None:
    """The command a file defines, or `None` (logged) when it cannot be one; `root` is the
    commands folder it is in (its sub-folders are namespaces); with `beneath` (resolved
    folders) the file is opened below one of them following no link (`read_bounded`)."""
    parts = path.relative_to(root).with_suffix("").parts if root is not None else (path.stem,)
    bad = next((p for p in parts if not _NAME.fullmatch(p)), None)
    if bad is not None:
        log.warning("%s: not a command name; use letters, digits, '-', '_' or '.'", path)
        return None
    try:
        # The workspace controls the file: a link to /dev/zero or a FIFO is refused, not read.
        opened = path
        if beneath and root is not None:
            opened = Path(os.path.realpath(root)) / path.relative_to(root)
        text = read_bounded_text(
            opened,
            limit=_MAX_FILE,
            follow_symlinks=follow_symlinks,
            opener=opener_below(beneath) if beneath else None,
        )
    except UnreadableFile as exc:
        log.warning("cannot be read: %s; skipped", exc)
        return None
    except OSError as exc:
        log.warning("%s: cannot be read: %s", path, exc.strerror or exc)
        return None
    try:
        front = parse_front_matter(text, known=_KEYS | _UNSUPPORTED.keys(), required=False)
        return _command(path, parts, scope, front.fields, front.body)
    except FrontMatterError as exc:
        log.warning("%s; skipped", exc.where(path))
        return None


def _command(
    path: Path,
    parts: tuple[str, ...],
    scope: CommandScope,
    given: dict[str, FrontMatterField],
    body: str,
) -> Command | None:
    fields = dict(given)
    name = ":".join(parts)
    body = body.strip()
    if not body:
        log.warning("%s: the command has no prompt", path)
        return None
    first_line = body.splitlines()[0].lstrip("# ").strip()
    described = fields.pop("description", None)
    description = (described.written() if described else "") or first_line[:100] or f"/{name}"
    if len(parts) > 1:
        description = f"{description} ({scope}:{'/'.join(parts[:-1])})"
    hinted = fields.pop("argument-hint", None)
    hint = (hinted.written() if hinted else "") or (
        "arguments" if ARGUMENTS in body or _POSITIONAL.search(body) else None
    )
    allowed = fields.pop("allowed-tools", None)
    model_field = fields.pop("model", None)
    invocation = fields.pop("disable-model-invocation", None)
    warnings: list[FrontMatterWarning] = []
    for key, field in fields.items():
        reason = _UNSUPPORTED.get(key, "is not a key of commands; ignored")
        warnings.append(FrontMatterWarning(path, field.line, field.key, reason))
    return Command(
        name,
        description,
        hint=hint,
        template=body,
        source=path,
        scope=scope,
        allowed_tools=tuple(allowed.items()) if allowed is not None else (),
        model=(model_field.text().strip() or None) if model_field is not None else None,
        model_invocable=not invocation.flag() if invocation is not None else True,
        warnings=tuple(str(w) for w in warnings),
    )
