"""The persisted result of a tool call."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pydantic import ConfigDict, JsonValue, SerializeAsAny, TypeAdapter

from tether.content import ContentBlock, TextContent
from tether.wire import WIRE_CONFIG

__all__ = ["TOOL_RESULT", "ToolResult"]


@dataclass(frozen=True, kw_only=True)
class ToolResult:
    """Exactly what is stored for a call: model content, the error flag and the UI projection.

    Plain data: building one validates nothing. Its parts are checked where they come from
    (`invoke` checks `meta` is plain JSON; a log event is validated as it is read), so a
    replay makes results from stored events without walking a large `meta` twice.
    """

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    content: tuple[ContentBlock, ...]
    is_error: bool = False
    meta: SerializeAsAny[JsonValue] = None

    @classmethod
    def error(cls, message: str) -> ToolResult:
        """A result the model can act on: one text block, `isError: true`, no meta."""
        return cls(content=(TextContent(text=message),), is_error=True)

    def text(self) -> str:
        """All text blocks joined by newlines (images are left out)."""
        return "\n".join(b.text for b in self.content if isinstance(b, TextContent))


TOOL_RESULT: TypeAdapter[ToolResult] = TypeAdapter(ToolResult)
"""Validates and serializes a stored result."""
