"""What a prompt that starts with `/` means: a prompt to send, a mode, a listing, a
checkpoint command, or one of the terminal's own commands (`Invocation`, the union that
`tether.surface.dispatch.dispatch` acts on)."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from tether.commands.catalog import Command
from tether.errors import CommandError
from tether.lazy import pattern
from tether.policy import MODES, PolicyMode, is_mode

__all__ = [
    "CHECKPOINT_ACTIONS",
    "AgentsList",
    "CheckpointAction",
    "CheckpointCommand",
    "Invocation",
    "ModeSwitch",
    "PermissionsList",
    "PromptText",
    "SkillsList",
    "TerminalCommand",
    "resolve",
    "substitute",
]


_CALL = pattern(r"/(\S+)\s*(.*)", re.DOTALL)


@dataclass(frozen=True)
class PromptText:
    """Send this text to the model; `command` names the command it came from, if any."""

    text: str
    command: str | None = None
    source: Command | None = field(default=None, compare=False)
    """The custom command whose template this is, for what runs before it is sent (its
    `` !`cmd` `` lines, `@path` files, `allowed-tools` and `model`)."""


@dataclass(frozen=True)
class ModeSwitch:
    """`/mode NAME`: switch the session's mode; nothing goes to the model.

    `mode` is `None` for `/mode` alone where the surface lets the person pick one.
    """

    mode: PolicyMode | None


@dataclass(frozen=True)
class PermissionsList:
    """`/permissions`: show the rules and where they come from; nothing goes to the model."""


@dataclass(frozen=True)
class AgentsList:
    """`/agents`: show the agents the model can start, and what was left out; nothing goes
    to the model."""


@dataclass(frozen=True)
class SkillsList:
    """`/skills`: show the skills the model can load, and those left out; nothing goes to the
    model."""


CheckpointAction = Literal["rewind", "undo", "redo", "fork"]
"""The commands about checkpoints and the conversation's history."""

CHECKPOINT_ACTIONS: tuple[CheckpointAction, ...] = ("rewind", "undo", "redo", "fork")


@dataclass(frozen=True)
class CheckpointCommand:
    """`/rewind [N]`, `/undo`, `/redo`, `/fork [N]`: handled by the session, not the model.

    `prompt` is the prompt number given (`None`: `/rewind` lists, `/fork` forks it all).
    """

    action: CheckpointAction
    prompt: int | None = None


@dataclass(frozen=True)
class TerminalCommand:
    """One of the terminal's own commands (a `terminal` entry of the catalog: `/help`,
    `/model`, ...), with what was typed after it."""

    name: str
    arguments: str = ""


Invocation = (
    PromptText
    | ModeSwitch
    | PermissionsList
    | SkillsList
    | AgentsList
    | CheckpointCommand
    | TerminalCommand
)


def resolve(text: str, commands: Sequence[Command], *, picking: bool = False) -> Invocation:
    """The meaning of a prompt; text that names no command (`/usr/bin is gone`) is sent as is.

    `/compact` stays a prompt: the session itself handles it. `picking`: the surface lets
    the person pick what a command leaves open (`/mode` alone), else that is a usage error.
    """
    called = _CALL.fullmatch(text.strip())
    if called is None:
        return PromptText(text)
    name, arguments = called[1], called[2].strip()
    command = next((c for c in commands if c.name == name), None)
    if command is None:
        return PromptText(text)
    if command.name == "permissions":
        return PermissionsList()
    if command.name == "skills":
        return SkillsList()
    if command.name == "agents":
        return AgentsList()
    if command.terminal:
        return TerminalCommand(command.name, arguments)
    if command.name == "mode":
        if picking and not arguments:
            return ModeSwitch(None)
        if not is_mode(arguments):
            raise CommandError(f"Usage: /mode {' | '.join(MODES)} (got {arguments or 'nothing'!r})")
        return ModeSwitch(arguments)
    action = next((a for a in CHECKPOINT_ACTIONS if a == command.name), None)
    if action is not None:
        return _checkpoint_command(action, arguments)
    if command.template is None:
        return PromptText(text, command=command.name)
    custom = command if command.source is not None else None
    return PromptText(substitute(command.template, arguments), command=command.name, source=custom)


_PLACEHOLDER = pattern(r"\$ARGUMENTS|\$([1-9])(?![0-9])")


def substitute(template: str, arguments: str) -> str:
    """`template` with `$ARGUMENTS` (all of `arguments`) and `$1`...`$9` (each word of it,
    quotes grouping words as a shell groups them; a missing one is empty) put in, as Claude
    Code does; a template with neither gets `arguments` appended after a blank line."""
    if not _PLACEHOLDER.search(template):
        return f"{template}\n\n{arguments}".strip() if arguments else template.strip()
    try:
        words = shlex.split(arguments)
    except ValueError:  # an unclosed quote: the words as typed
        words = arguments.split()

    def put(match: re.Match[str]) -> str:
        if match[1] is None:
            return arguments
        index = int(match[1]) - 1
        return words[index] if index < len(words) else ""

    return _PLACEHOLDER.sub(put, template).strip()


_NUMBER = pattern(r"[0-9]{1,9}")


def _checkpoint_command(action: CheckpointAction, arguments: str) -> CheckpointCommand:
    if action in ("undo", "redo"):
        if arguments:
            raise CommandError(f"Usage: /{action} (it takes nothing after it)")
        return CheckpointCommand(action)
    if not arguments:
        return CheckpointCommand(action)
    if not _NUMBER.fullmatch(arguments) or int(arguments) < 1:
        raise CommandError(f"Usage: /{action} [PROMPT_NUMBER] (got {arguments!r})")
    return CheckpointCommand(action, int(arguments))
