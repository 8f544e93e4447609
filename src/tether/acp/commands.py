"""Slash commands over ACP: advertised with `available_commands_update`, resolved from
prompts.

A prompt whose first block is `/NAME ARGS` is looked up in the session's commands and
dispatched (`tether.surface.dispatch`, to `tether.acp.surface.AcpSurface`): a prompt command
is sent to the model expanded (the log keeps the prompt as typed, for `session/load`),
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
from tether.commands import Command, Invocation, PromptText, resolve
from tether.errors import CommandError

__all__ = ["PromptBlocks", "available_commands", "command_blocks", "invocation"]


@dataclass(frozen=True)
class PromptBlocks:
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


def invocation(blocks: Sequence[PromptBlock], commands: Sequence[Command]) -> Invocation:
    """What a prompt asks for: its first block's text resolved against `commands`; a prompt
    that does not start with text is a prompt as it is. A command used wrongly is -32602."""
    first = blocks[0] if blocks else None
    if not isinstance(first, TextContentBlock):
        return PromptText("")
    try:
        return resolve(first.text, commands)
    except CommandError as exc:
        raise RequestError(-32602, str(exc), {"command": first.text.strip()}) from exc


def command_blocks(blocks: Sequence[PromptBlock], meant: PromptText) -> PromptBlocks:
    """The blocks to prompt with: the first replaced by a command's expanded template."""
    first = blocks[0] if blocks else None
    if isinstance(first, TextContentBlock) and meant.text != first.text:
        expanded = TextContentBlock(type="text", text=meant.text)
        return PromptBlocks([expanded, *blocks[1:]], expanded=True, command=meant.source)
    return PromptBlocks(list(blocks), expanded=False)
