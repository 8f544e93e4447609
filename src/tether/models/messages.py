"""The conversation as models see it: plain frozen dataclasses derived from the event log."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tether.content import ContentBlock
from tether.models.finish import FinishReason

__all__ = [
    "THINKING_LEVELS",
    "AssistantMessage",
    "FinishReason",
    "Message",
    "Thinking",
    "ThinkingLevel",
    "ToolCall",
    "ToolResultMessage",
    "ToolSpec",
    "UserMessage",
]

ThinkingLevel = Literal["off", "low", "medium", "high"]
"""How hard the model is asked to think before it answers (`off`: nothing is asked)."""

THINKING_LEVELS: tuple[ThinkingLevel, ...] = ("off", "low", "medium", "high")
"""The levels, weakest first."""


@dataclass(frozen=True)
class Thinking:
    """A block of the model's reasoning, and what its provider needs to take it back.

    `signature` and `redacted` are the provider's opaque data, kept verbatim: Anthropic's
    signature or the data of a redacted block, a Responses reasoning item's encrypted content.
    `source` is the model (`anthropic:claude-...`) that thought it: a signature only means
    something to the model that made it, so another model is never sent the block.
    """

    text: str
    signature: str | None = None
    redacted: str | None = None
    """The encrypted data of a block the provider would not show (its text is then empty)."""
    source: str = ""
    item_id: str | None = None
    """The provider's own id for the block, when it has one (a Responses reasoning item)."""


@dataclass(frozen=True)
class ToolCall:
    """A call the model asked for; `arguments` is the raw JSON text exactly as it came."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class UserMessage:
    """What the person said: text and images."""

    content: tuple[ContentBlock, ...]
    role: Literal["user"] = "user"


@dataclass(frozen=True)
class AssistantMessage:
    """One complete model reply: its reasoning, its text and the tool calls it asked for."""

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    stop_reason: FinishReason = "end_turn"
    role: Literal["assistant"] = "assistant"
    thinking: tuple[Thinking, ...] = ()
    """What the model thought before it answered, in order."""


@dataclass(frozen=True)
class ToolResultMessage:
    """A tool call's result as the model sees it."""

    tool_call_id: str
    name: str
    content: tuple[ContentBlock, ...]
    is_error: bool = False
    role: Literal["tool"] = "tool"


Message = UserMessage | AssistantMessage | ToolResultMessage


@dataclass(frozen=True)
class ToolSpec:
    """A tool as offered to the model: its name, description and argument JSON Schema."""

    name: str
    description: str
    parameters: dict[str, object] = field(default_factory=dict)

    @property
    def schema(self) -> dict[str, object]:
        """`parameters` as the APIs take them: an object schema even when there are none."""
        return self.parameters or {"type": "object", "properties": {}}
