"""The conversation as models see it: plain frozen dataclasses derived from the event log."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tether.content import ContentBlock

__all__ = [
    "AssistantMessage",
    "FinishReason",
    "Message",
    "ToolCall",
    "ToolResultMessage",
    "ToolSpec",
    "UserMessage",
]

FinishReason = Literal["end_turn", "tool_use", "max_tokens", "refusal"]


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
    """One complete model reply: its text and the tool calls it asked for, in order."""

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    stop_reason: FinishReason = "end_turn"
    role: Literal["assistant"] = "assistant"


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
