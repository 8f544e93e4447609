"""The hook events a settings file may name: a leaf, so a log's `hook/run` events are read
without the settings file's models (`tether.settings.schema` re-exports them)."""

from __future__ import annotations

from typing import Literal, get_args

__all__ = ["HOOK_EVENTS", "HookEvent"]

HookEvent = Literal[
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PostToolUseFailure",
    "Notification",
    "UserPromptSubmit",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "SessionStart",
    "SessionEnd",
]
"""The hook events of Claude Code's schema."""

HOOK_EVENTS: tuple[HookEvent, ...] = get_args(HookEvent)
