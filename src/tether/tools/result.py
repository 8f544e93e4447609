"""The persisted result of a tool call."""

from __future__ import annotations

from typing import Any

from pydantic import JsonValue, TypeAdapter
from pydantic.dataclasses import dataclass

from tether.content import ContentBlock, TextContent
from tether.wire import WIRE_CONFIG

__all__ = ["TOOL_RESULT", "ToolResult"]


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class ToolResult:
    """Exactly what is stored for a call: model content, the error flag and the UI projection."""

    content: tuple[ContentBlock, ...]
    is_error: bool = False
    meta: JsonValue = None

    @classmethod
    def error(cls, message: str) -> ToolResult:
        """A result the model can act on: one text block, `isError: true`, no meta."""
        return cls(content=(TextContent(text=message),), is_error=True)

    def text(self) -> str:
        """All text blocks joined by newlines (images are left out)."""
        return "\n".join(b.text for b in self.content if isinstance(b, TextContent))

    def to_json(self) -> dict[str, Any]:
        """The `{content, isError, meta}` object as stored in the log."""
        dumped: dict[str, Any] = TOOL_RESULT.dump_python(self, mode="json", by_alias=True)
        return dumped


TOOL_RESULT: TypeAdapter[ToolResult] = TypeAdapter(ToolResult)
"""Validates and serializes a stored result."""
