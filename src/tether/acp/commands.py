"""Slash commands over ACP: advertised with `available_commands_update`, applied to prompts.

A prompt whose first block is `/NAME ARGS` is looked up in the session's commands: a prompt
command is sent to the model expanded (the log keeps the prompt as typed, for `session/load`),
`/mode NAME` switches the mode without asking the model, `/rewind`, `/undo`, `/redo` and
`/fork` are done by the session (`acp.rewinding`), `/compact` goes to the session as it is,
and text that names no command (`/usr/bin/env is gone`) is an ordinary prompt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from acp import RequestError
from acp.schema import (
    AvailableCommand,
    AvailableCommandInput,
    AvailableCommandsUpdate,
    TextContentBlock,
    UnstructuredCommandInput,
)

from tether.acp.prompt import PromptBlock
from tether.commands import (
    AgentsList,
    CheckpointCommand,
    Command,
    ModeSwitch,
    PermissionsList,
    PromptText,
    SkillsList,
    resolve,
)
from tether.errors import CommandError

__all__ = ["CommandPrompt", "available_commands", "command_prompt"]


@dataclass(frozen=True)
class CommandPrompt:
    """The blocks to prompt with; `expanded` when a command's template replaced the text."""

    blocks: list[PromptBlock]
    expanded: bool
    command: Command | None = None
    """The custom command whose file the first block comes from (its `` !`cmd` `` lines,
    `@path` files, `allowed-tools` and `model` are the session's to apply)."""


def available_commands(commands: Sequence[Command]) -> AvailableCommandsUpdate:
    """The `available_commands_update` listing `commands`."""
    return AvailableCommandsUpdate(
        session_update="available_commands_update",
        available_commands=[
            AvailableCommand(
                name=c.name,
                description=c.description,
                input=AvailableCommandInput(root=UnstructuredCommandInput(hint=c.hint))
                if c.hint
                else None,
            )
            for c in commands
        ],
    )


def command_prompt(
    blocks: Sequence[PromptBlock], commands: Sequence[Command]
) -> CommandPrompt | ModeSwitch | PermissionsList | SkillsList | AgentsList | CheckpointCommand:
    """What a prompt asks for: blocks for the model (maybe expanded), a mode switch, the
    permissions or skills listing, or a checkpoint command (`/rewind`, `/undo`, `/redo`,
    `/fork`)."""
    first = blocks[0] if blocks else None
    if not isinstance(first, TextContentBlock):
        return CommandPrompt(list(blocks), expanded=False)
    try:
        meant = resolve(first.text, commands)
    except CommandError as exc:
        raise RequestError(-32602, str(exc), {"command": first.text.strip()}) from exc
    match meant:
        case ModeSwitch() | PermissionsList() | SkillsList() | AgentsList() | CheckpointCommand():
            return meant
        case PromptText(text=text, source=command) if text != first.text:
            expanded = TextContentBlock(type="text", text=text)
            return CommandPrompt([expanded, *blocks[1:]], expanded=True, command=command)
        case PromptText():
            return CommandPrompt(list(blocks), expanded=False)
