"""Slash commands: `/compact`, `/init`, `/mode NAME`, `/rewind`, `/undo`, `/redo`, `/fork`,
and custom prompt templates from files.

commands = load_commands(workspace, home)
match resolve("/review src/a.py", commands): ...  # a prompt to send, or a mode to switch to
"""

from tether.commands.catalog import COMMANDS_DIR, Command, load_commands
from tether.commands.resolve import (
    CHECKPOINT_ACTIONS,
    AgentsList,
    CheckpointAction,
    CheckpointCommand,
    Invocation,
    ModeSwitch,
    PermissionsList,
    PromptText,
    SkillsList,
    TerminalCommand,
    resolve,
)

__all__ = [
    "CHECKPOINT_ACTIONS",
    "COMMANDS_DIR",
    "AgentsList",
    "CheckpointAction",
    "CheckpointCommand",
    "Command",
    "Invocation",
    "ModeSwitch",
    "PermissionsList",
    "PromptText",
    "SkillsList",
    "TerminalCommand",
    "load_commands",
    "resolve",
]
