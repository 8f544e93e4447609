"""One assistant message built from stream pieces: what both wire formats' assemblers share.

Each format's assembler turns its own events into calls on this one (text added, a tool call
opened at a slot, argument pieces, the server's stop word, usage), and `message()` makes the
`AssistantMessage` the same way for both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from tether.models.base import Usage
from tether.models.messages import AssistantMessage, FinishReason, ToolCall

__all__ = ["Assembly", "PartialCall"]


@dataclass
class PartialCall:
    """A tool call being assembled: id and name come first, arguments in pieces."""

    id: str = ""
    name: str = ""
    pieces: list[str] = field(default_factory=list)
    whole: str = "{}"
    """The arguments when no pieces come (given whole at the start, or none at all)."""

    def call(self, slot: int) -> ToolCall:
        """The finished call; a server that sent no id gets one, since results must name it."""
        arguments = "".join(self.pieces) or self.whole
        return ToolCall(id=self.id or f"call_{slot}", name=self.name, arguments=arguments)


@dataclass
class Assembly:
    """Text, tool calls by slot, the stop word and usage of one streamed message."""

    stop_reasons: ClassVar[Mapping[str, FinishReason]] = {}
    """The server's stop words -> ours; an unknown or missing word is `end_turn`."""
    text: list[str] = field(default_factory=list)
    calls: dict[int, PartialCall] = field(default_factory=dict)
    stop: str | None = None
    """The server's own word for why it stopped."""
    complete: bool = False
    """Whether the stream reached its proper end (a stream cut short is an error)."""
    usage: Usage | None = None
    """The tokens the request spent, when the server said."""

    def add(self, text: str) -> str:
        """Record streamed text; returns it."""
        if text:
            self.text.append(text)
        return text

    def message(self) -> AssistantMessage:
        """The assembled message."""
        calls = tuple(partial.call(slot) for slot, partial in sorted(self.calls.items()))
        reason = self.stop_reasons.get(self.stop or "", "end_turn")
        return AssistantMessage(text="".join(self.text), tool_calls=calls, stop_reason=reason)
