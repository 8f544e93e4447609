"""What a hook reads on stdin: one JSON object, in Claude Code's field names.

Every event: `session_id`, `transcript_path` (the session's log), `cwd`, `hook_event_name`,
`permission_mode` (Claude Code's names: `default`, `acceptEdits`, `bypassPermissions`).
Per event: `tool_name`, `tool_input`, `tool_use_id` (`PreToolUse`, `PostToolUse`, which adds
`tool_response`), `prompt` (`UserPromptSubmit`), `stop_hook_active` (`Stop`,
`SubagentStop`), `trigger` and `custom_instructions` (`PreCompact`), `source`
(`SessionStart`), `reason` (`SessionEnd`), `message` and `notification_type`
(`Notification`).

A tool is named as Claude Code names it when it has such a name (`Bash`, `Edit`), so hook
scripts written for Claude Code work unchanged; `tether_tool_name` is the name the model
sees (`bash`). A file tool's input also carries Claude Code's `file_path` (absolute).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tether.jsontext import parse_json
from tether.settings.schema import HookEvent
from tether.tools.claude_names import claude_tool_name

__all__ = ["PERMISSION_MODES", "SessionFacts", "hook_input", "tool_fields"]

PERMISSION_MODES = {"ask": "default", "accept-edits": "acceptEdits", "auto": "bypassPermissions"}
"""tether's modes by Claude Code's names for them."""

_FILE_TOOLS = frozenset({"read", "write", "edit"})


@dataclass(frozen=True)
class SessionFacts:
    """What every hook is told about its session."""

    session_id: str
    transcript_path: Path
    cwd: Path
    mode: str


def hook_input(facts: SessionFacts, event: HookEvent, fields: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON object a hook of `event` reads, with the event's own `fields`."""
    return {
        "session_id": facts.session_id,
        "transcript_path": str(facts.transcript_path),
        "cwd": str(facts.cwd),
        "hook_event_name": event,
        "permission_mode": PERMISSION_MODES.get(facts.mode, facts.mode),
        **fields,
    }


def tool_fields(name: str, arguments: str, call_id: str, cwd: Path) -> dict[str, Any]:
    """`tool_name`, `tether_tool_name`, `tool_input` and `tool_use_id` of one call."""
    try:
        parsed = parse_json(arguments)
    except ValueError:
        parsed = None
    tool_input: dict[str, Any] = dict(parsed) if isinstance(parsed, dict) else {}
    path = tool_input.get("path")
    if name in _FILE_TOOLS and isinstance(path, str) and path and "file_path" not in tool_input:
        tool_input["file_path"] = os.path.normpath(cwd / path)
    return {
        "tool_name": claude_tool_name(name),
        "tether_tool_name": name,
        "tool_input": tool_input,
        "tool_use_id": call_id,
    }
