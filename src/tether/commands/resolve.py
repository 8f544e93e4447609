"""What a prompt that starts with `/` means: a prompt to send, or a mode to switch to."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from tether.commands.catalog import ARGUMENTS, Command
from tether.policy import MODES, PolicyMode, is_mode

__all__ = [
    "CommandError",
    "Invocation",
    "ModeSwitch",
    "PermissionsList",
    "PromptText",
    "SkillsList",
    "resolve",
]


_CALL = re.compile(r"/(\S+)\s*(.*)", re.DOTALL)


class CommandError(ValueError):
    """A known command used wrongly (`/mode` without a valid mode); the message says how."""


@dataclass(frozen=True)
class PromptText:
    """Send this text to the model; `command` names the command it came from, if any."""

    text: str
    command: str | None = None


@dataclass(frozen=True)
class ModeSwitch:
    """`/mode NAME`: switch the session's mode; nothing goes to the model."""

    mode: PolicyMode


@dataclass(frozen=True)
class PermissionsList:
    """`/permissions`: show the rules and where they come from; nothing goes to the model."""


@dataclass(frozen=True)
class SkillsList:
    """`/skills`: show the skills the model can load, and those left out; nothing goes to the
    model."""


Invocation = PromptText | ModeSwitch | PermissionsList | SkillsList


def resolve(text: str, commands: Sequence[Command]) -> Invocation:
    """The meaning of a prompt; text that names no command (`/usr/bin is gone`) is sent as is.

    `/compact` stays a prompt: the session itself handles it.
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
    if command.name == "mode":
        if not is_mode(arguments):
            raise CommandError(f"Usage: /mode {' | '.join(MODES)} (got {arguments or 'nothing'!r})")
        return ModeSwitch(arguments)
    if command.template is None:
        return PromptText(text, command=command.name)
    if ARGUMENTS in command.template:
        expanded = command.template.replace(ARGUMENTS, arguments)
    else:
        expanded = f"{command.template}\n\n{arguments}" if arguments else command.template
    return PromptText(expanded.strip(), command=command.name)
