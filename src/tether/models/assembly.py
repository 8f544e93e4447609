"""One assistant message built from stream pieces: what both wire formats' assemblers share.

Each format's assembler turns its own events into calls on this one (text added, a tool call
opened at a slot, argument pieces, the server's stop word, usage), and `message()` makes the
`AssistantMessage` the same way for both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from tether.models.base import TextDelta, ThinkingDelta, Usage
from tether.models.messages import AssistantMessage, FinishReason, Thinking, ToolCall

__all__ = ["Assembly", "Delta", "PartialCall", "PartialThought"]

Delta = TextDelta | ThinkingDelta
"""What one stream event adds that people see as it comes."""


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
class PartialThought:
    """A block of reasoning being assembled: text in pieces, the provider's data whole."""

    pieces: list[str] = field(default_factory=list)
    signature: str | None = None
    redacted: str | None = None
    item_id: str | None = None

    def thinking(self) -> Thinking:
        """The finished block (its `source` is stamped by the model that streamed it)."""
        return Thinking(
            "".join(self.pieces),
            signature=self.signature,
            redacted=self.redacted,
            item_id=self.item_id,
        )


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
    thoughts: dict[int, PartialThought] = field(default_factory=dict)
    """Reasoning blocks by slot, in the order they came."""

    def add(self, text: str) -> list[Delta]:
        """Record streamed text; returns it as the delta to show."""
        if not text:
            return []
        self.text.append(text)
        return [TextDelta(text)]

    def thought(self, slot: int) -> PartialThought:
        """The reasoning block at `slot`, opened on first use."""
        return self.thoughts.setdefault(slot, PartialThought())

    def think(self, text: str, slot: int = 0) -> list[Delta]:
        """Record a piece of reasoning in block `slot`; returns it as the delta to show."""
        if not text:
            return []
        self.thought(slot).pieces.append(text)
        return [ThinkingDelta(text)]

    def message(self) -> AssistantMessage:
        """The assembled message."""
        calls = tuple(partial.call(slot) for slot, partial in sorted(self.calls.items()))
        reason = self.stop_reasons.get(self.stop or "", "end_turn")
        thinking = tuple(part.thinking() for _, part in sorted(self.thoughts.items()))
        return AssistantMessage(
            text="".join(self.text), tool_calls=calls, stop_reason=reason, thinking=thinking
        )
