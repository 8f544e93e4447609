"""A Claude Code-shaped copy of a session's log, for the hook scripts that read `transcript_path`.

Claude Code's transcript is JSON lines of `{type: "user" | "assistant", message: {role,
content}, uuid, parentUuid, sessionId, timestamp, cwd, isSidechain}`, a message's content
being blocks: `text`, `tool_use {id, name, input}` (the tool by Claude Code's name) and, in a
user line, `tool_result {tool_use_id, content, is_error}`. Scripts written for it (the last
assistant message, the tools it used) read this copy unchanged. It lives beside the logs
(`sessions/transcripts/ID.jsonl`), is brought up to date from the log before each hook runs
(what the log gained since is appended), and leaves out what Claude Code's has and tether
does not keep: usage, model ids, thinking.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tether.jsontext import parse_json
from tether.tools.claude_names import claude_tool_name

__all__ = ["ClaudeTranscript", "transcript_path"]


def transcript_path(log: Path) -> Path:
    """Where the Claude Code-shaped copy of the log `log` is kept."""
    return log.parent / "transcripts" / log.name


class ClaudeTranscript:
    """The copy of one session's log, appended to as the log grows."""

    def __init__(self, log: Path, session_id: str, cwd: Path, *, sidechain: bool) -> None:
        self.log = log
        self.path = transcript_path(log)
        self._session_id = session_id
        self._cwd = str(cwd)
        self._sidechain = sidechain
        self._offset = 0
        self._previous: str | None = None

    def update(self) -> Path:
        """Append what the log gained since the last update (the whole of it the first time,
        over any copy an earlier process left); the copy's path."""
        try:
            with self.log.open("rb") as source:
                source.seek(self._offset)
                data = source.read()
        except OSError:
            return self.path
        end = data.rfind(b"\n") + 1  # a line still being written waits for the next update
        lines = [self._line(raw) for raw in data[:end].splitlines()]
        written = "".join(json.dumps(line) + "\n" for line in lines if line is not None)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        first = self._offset == 0
        flags = os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC | (os.O_TRUNC if first else os.O_APPEND)
        fd = os.open(self.path, flags, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(written)
        self._offset += end
        return self.path

    def _line(self, raw: bytes) -> dict[str, Any] | None:
        try:
            event = parse_json(raw.decode("utf-8", errors="replace"))
        except ValueError:
            return None
        if not isinstance(event, dict):
            return None
        match event.get("type"):
            case "user/message":
                kind, message = "user", {"role": "user", "content": _blocks(event)}
            case "assistant/message":
                kind, message = "assistant", _assistant(event)
            case "tool/result":
                kind, message = "user", {"role": "user", "content": [_result(event)]}
            case _:
                return None
        uuid = f"{self._session_id}-{event.get('seq', 0)}"
        line = {
            "parentUuid": self._previous,
            "isSidechain": self._sidechain,
            "userType": "external",
            "cwd": self._cwd,
            "sessionId": self._session_id,
            "type": kind,
            "message": message,
            "uuid": uuid,
            "timestamp": event.get("time", ""),
        }
        self._previous = uuid
        return line


def _blocks(event: dict[str, Any]) -> list[dict[str, Any]]:
    """A message's content blocks as Claude Code writes them (an image by its type alone)."""
    blocks: list[dict[str, Any]] = []
    for block in event.get("content") or ():
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text":
            blocks.append({"type": "text", "text": block.get("text", "")})
        elif block.get("type") == "image":
            source = {"type": "base64", "media_type": block.get("mimeType"), "data": "…"}
            blocks.append({"type": "image", "source": source})
    return blocks


def _assistant(event: dict[str, Any]) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if text := event.get("text"):
        content.append({"type": "text", "text": text})
    for call in event.get("toolCalls") or ():
        if not isinstance(call, dict):
            continue
        try:
            arguments = parse_json(str(call.get("arguments") or "{}"))
        except ValueError:
            arguments = {}
        content.append(
            {
                "type": "tool_use",
                "id": call.get("id"),
                "name": claude_tool_name(str(call.get("name", ""))),
                "input": arguments if isinstance(arguments, dict) else {},
            }
        )
    stop = event.get("stopReason", "end_turn")
    return {"role": "assistant", "type": "message", "content": content, "stop_reason": stop}


def _result(event: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "tool_result",
        "tool_use_id": event.get("toolCallId"),
        "content": _blocks(event),
        "is_error": bool(event.get("isError")),
    }
