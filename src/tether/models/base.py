"""The model protocol: stream one assistant message from the history and the tools."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from tether.models.messages import AssistantMessage, Message, ThinkingLevel, ToolSpec

__all__ = [
    "Completed",
    "Model",
    "ModelEvent",
    "ModelRequest",
    "TextDelta",
    "ThinkingDelta",
]


@dataclass(frozen=True)
class ModelRequest:
    """Everything one model call needs."""

    system: str
    messages: Sequence[Message]
    tools: Sequence[ToolSpec]
    thinking: ThinkingLevel = "off"
    """How hard to think: a budget or an effort where the provider takes one."""


@dataclass(frozen=True)
class TextDelta:
    """A piece of assistant text, streamed as it arrives."""

    text: str


@dataclass(frozen=True)
class ThinkingDelta:
    """A piece of the model's reasoning, streamed as it arrives (shown, dimmed, apart)."""

    text: str


@dataclass(frozen=True)
class Usage:
    """Tokens one request spent, as the provider counted them; cache counts when it says."""

    input_tokens: int
    output_tokens: int
    cached_read_tokens: int | None = None
    cached_write_tokens: int | None = None
    reasoning_tokens: int | None = None
    """The part of `output_tokens` spent thinking, when the provider says."""


@dataclass(frozen=True)
class Completed:
    """The end of the stream: the whole message, tool calls with their raw argument strings."""

    message: AssistantMessage
    usage: Usage | None = None
    """What the request cost, when the provider reported it."""


ModelEvent = TextDelta | ThinkingDelta | Completed


class Model(Protocol):
    """A source of assistant messages. The stream ends with exactly one `Completed`.

    Cancelling the task that iterates the stream must close it (and any connection) promptly.
    Whoever builds a model closes it with `aclose` (see `tether.session.owned_models`).
    """

    name: str

    def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        """Stream one assistant message."""
        ...

    async def aclose(self) -> None:
        """Close its HTTP connection pool; twice is as once, and a later request opens a
        new pool (a pool belongs to the event loop that opened it)."""
        ...
