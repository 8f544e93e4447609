"""What a hook reads on stdin: one JSON object, in Claude Code's field names.

Every event: `session_id`, `transcript_path` (a Claude Code-shaped copy of the session's log,
`tether.hooks.transcript`; `tether_log_path` is the log itself), `cwd`, `hook_event_name`,
`permission_mode` (Claude Code's names: `default`, `acceptEdits`, `bypassPermissions`).
Per event: `tool_name`, `tool_input`, `tool_use_id` (`PreToolUse`, `PermissionRequest` with
`permission_suggestions`, `PostToolUse` with `tool_response`, `PostToolUseFailure` with
`error` and `is_interrupt`), `prompt` (`UserPromptSubmit`), `stop_hook_active` (`Stop`,
`SubagentStop`), `agent_id` and `agent_type` (`SubagentStart`, `SubagentStop` with
`agent_transcript_path`), `trigger` and `custom_instructions` (`PreCompact`), `source`
(`SessionStart`), `reason` (`SessionEnd`), `message` and `notification_type`
(`Notification`).

A tool is named as Claude Code names it when it has such a name (`Bash`, `Edit`), so hook
scripts written for Claude Code work unchanged; `tether_tool_name` is the name the model
sees (`bash`). A file tool's input also carries Claude Code's `file_path` (absolute).
`tool_response` is the stored result (`content`, `isError`, `meta`) with Claude Code's own
fields beside it: `stdout`, `stderr`, `interrupted` for `Bash`, `filePath` and `success`
for `Write` and `Edit`.
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
from tether.tools.result import TOOL_RESULT, ToolResult

__all__ = ["PERMISSION_MODES", "SessionFacts", "hook_input", "tool_fields", "tool_response"]

PERMISSION_MODES = {
    "ask": "default",
    "accept-edits": "acceptEdits",
    "auto": "bypassPermissions",
    "plan": "plan",
}
"""tether's modes by Claude Code's names for them."""

_FILE_TOOLS = frozenset({"read", "write", "edit"})


@dataclass(frozen=True)
class SessionFacts:
    """What every hook is told about its session."""

    session_id: str
    transcript_path: Path
    cwd: Path
    mode: str
    log_path: Path | None = None
    """tether's own log of the session (`transcript_path` is the Claude Code-shaped copy)."""


def hook_input(facts: SessionFacts, event: HookEvent, fields: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON object a hook of `event` reads, with the event's own `fields`."""
    data = {
        "session_id": facts.session_id,
        "transcript_path": str(facts.transcript_path),
        "cwd": str(facts.cwd),
        "hook_event_name": event,
        "permission_mode": PERMISSION_MODES.get(facts.mode, facts.mode),
        **fields,
    }
    if facts.log_path is not None:
        data["tether_log_path"] = str(facts.log_path)
    return data


def tool_fields(name: str, arguments: str, call_id: str, cwd: Path) -> dict[str, Any]:
    """`tool_name`, `tether_tool_name`, `tool_input` and `tool_use_id` of one call."""
    try:
        parsed = parse_json(arguments)
    except ValueError:
        parsed = None
    tool_input: dict[str, Any] = dict(parsed) if isinstance(parsed, dict) else {}
    # The model may have written Claude Code's `file_path` itself, relative or not.
    path = tool_input.get("path", tool_input.get("file_path"))
    if name in _FILE_TOOLS and isinstance(path, str) and path:
        tool_input["file_path"] = os.path.normpath(cwd / path)
    return {
        "tool_name": claude_tool_name(name),
        "tether_tool_name": name,
        "tool_input": tool_input,
        "tool_use_id": call_id,
    }


def tool_response(name: str, result: ToolResult, tool_input: Mapping[str, Any]) -> dict[str, Any]:
    """`tool_response` of a call that ended as `result`: what tether stored, and the fields a
    Claude Code hook reads for the same tool."""
    response: dict[str, Any] = TOOL_RESULT.dump_python(result, mode="json", by_alias=True)
    meta = result.meta if isinstance(result.meta, dict) else {}
    if name == "bash":
        output = meta.get("output")
        response["stdout"] = output if isinstance(output, str) else result.text()
        response["stderr"] = ""  # one terminal: stderr is in `stdout`, as the person saw it
        response["interrupted"] = bool(meta.get("timedOut") or meta.get("cancelled"))
    elif name in ("write", "edit") and isinstance(tool_input.get("file_path"), str):
        response["filePath"] = tool_input["file_path"]
        response["success"] = not result.is_error
    return response
