"""The context budget: how many tokens a request will take, before it is sent.

The estimate is the input and output tokens the provider last reported, plus the
characters added to the request since then divided by 4 (minus the characters a
compaction removed). With no report yet it is the whole request's characters / 4.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import assert_never

from tether.content import ContentBlock, ImageContent, TextContent
from tether.models.base import ModelRequest, Usage
from tether.models.messages import (
    AssistantMessage,
    Message,
    ToolResultMessage,
    ToolSpec,
    UserMessage,
)
from tether.session.limits import DEFAULT_COMPACT_AT

__all__ = [
    "CHARS_PER_TOKEN",
    "IMAGE_CHARS",
    "Budget",
    "message_chars",
    "request_chars",
    "tokens",
]

CHARS_PER_TOKEN = 4
TARGET_SHARE = 0.75
"""A compaction should leave the request at most this share of the threshold."""
IMAGE_CHARS = 6_400
"""What an image counts as (about 1,600 tokens, a mid-size screenshot)."""


def tokens(chars: int) -> int:
    """`chars` as tokens, rounded up."""
    return -(-chars // CHARS_PER_TOKEN)


def request_chars(request: ModelRequest) -> int:
    """The characters of everything a request sends: system prompt, tools and messages."""
    tools = sum(_tool_chars(t) for t in request.tools)
    return len(request.system) + tools + sum(message_chars(m) for m in request.messages)


def _shared_start(before: list[Message], now: list[Message]) -> int:
    """How many messages `now` begins with that `before` began with too (the same objects).

    Looked for from the end of what they may share: a few steps back past the messages the
    last request ended with (results still coming, the last prompt joined by another), with
    the first and middle one checked as well.
    """
    most = min(len(before), len(now))
    for shared in range(most, max(most - _LOOK_BACK, 0) - 1, -1):
        if shared == 0:
            return 0
        if (
            now[shared - 1] is before[shared - 1]
            and now[0] is before[0]
            and now[(shared - 1) // 2] is before[(shared - 1) // 2]
        ):
            return shared
    return 0


_LOOK_BACK = 16
"""How far back from the shorter end the shared beginning is looked for."""


def _tool_chars(tool: ToolSpec) -> int:
    return len(tool.name) + len(tool.description) + len(json.dumps(tool.parameters))


def message_chars(message: Message) -> int:
    """The characters of one message."""
    match message:
        case UserMessage(content=content):
            return _blocks(content)
        case AssistantMessage(text=text, tool_calls=calls):
            return len(text) + sum(len(c.name) + len(c.arguments) for c in calls)
        case ToolResultMessage(content=content):
            return _blocks(content)
        case _:
            assert_never(message)


def _blocks(blocks: Iterable[ContentBlock]) -> int:
    total = 0
    for block in blocks:
        match block:
            case TextContent(text=text):
                total += len(text)
            case ImageContent():
                total += IMAGE_CHARS
            case _:
                assert_never(block)
    return total


@dataclass
class Budget:
    """A model's window, the compaction threshold, and the last usage report to count from."""

    window: int
    compact_at: float = DEFAULT_COMPACT_AT
    _reported: tuple[int, int] | None = None
    """(tokens the provider reported for a request and its reply, their characters)."""

    @property
    def threshold(self) -> int:
        """The estimate past which the session compacts."""
        return int(self.window * self.compact_at)

    @property
    def target(self) -> int:
        """Where a compaction aims: pruning that leaves more than this goes on to a summary,
        so the session does not compact again a step later."""
        return int(self.threshold * TARGET_SHARE)

    _tools: dict[int, tuple[ToolSpec, int]] = field(default_factory=dict, repr=False)
    """Characters of each tool of the last request, by object."""
    _messages: list[Message] = field(default_factory=list, repr=False)
    """The last request's messages, and the running sums of their characters in `_sums`."""
    _sums: list[int] = field(default_factory=list, repr=False)

    def chars(self, request: ModelRequest) -> int:
        """`request_chars(request)`, counting only what the last request did not have.

        A session's requests repeat the one before and add a little at the end (its view of
        the log is kept as the log grows, so the messages they share are the same objects):
        the shared beginning is found from its end and its count reused, so a request costs
        what it adds, not the whole conversation.
        """
        tools, self._tools = self._tools, {}
        total = len(request.system)
        for tool in request.tools:
            seen = tools.get(id(tool))
            size = seen[1] if seen is not None and seen[0] is tool else _tool_chars(tool)
            self._tools[id(tool)] = (tool, size)
            total += size
        messages = list(request.messages)
        shared = _shared_start(self._messages, messages)
        sums = self._sums[:shared] if shared < len(self._sums) else self._sums
        running = sums[-1] if sums else 0
        for message in messages[shared:]:
            running += message_chars(message)
            sums.append(running)
        self._messages, self._sums = messages, sums
        return total + running

    def estimate(self, request: ModelRequest) -> int:
        """The tokens `request` will take."""
        chars = self.chars(request)
        if self._reported is None:
            return tokens(chars)
        reported, reported_chars = self._reported
        return max(0, reported + tokens(chars - reported_chars))

    def forget(self) -> None:
        """Estimate from characters alone until the next report (what is sent changed wholesale)."""
        self._reported = None

    def report(self, request: ModelRequest, reply: AssistantMessage, usage: Usage) -> int:
        """Count from what the provider said `request` and `reply` took; the tokens in use."""
        used = usage.input_tokens + usage.output_tokens
        self._reported = (used, self.chars(request) + message_chars(reply))
        return used
