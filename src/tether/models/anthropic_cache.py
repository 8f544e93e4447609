"""Prompt caching on Anthropic's messages API: where a request marks its cache breakpoints.

Anthropic caches a request's prefix (tools, then system, then messages) up to each block
marked `cache_control`, and a later request that starts with the same bytes reads it back
at a tenth of the price. At most four marks are allowed; a request here uses them on:

1. the last tool (the tools rarely change within a session);
2. the system prompt (fixed for a session: see `session.environment`);
3. the last block of the last user turn: this request's whole conversation, written for the
   next step;
4. the last block of the user turn before it: the previous request's tail, so this one
   reads that prefix however many blocks were added since (a lookup only walks back about
   20 blocks from a mark).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from anthropic.types import CacheControlEphemeralParam, MessageParam, TextBlockParam, ToolParam

__all__ = ["MAX_BREAKPOINTS", "cached_messages", "cached_system", "cached_tools"]

MAX_BREAKPOINTS = 4
"""What the API accepts in one request."""
_TAIL = 2


def _mark() -> CacheControlEphemeralParam:
    return {"type": "ephemeral"}


def cached_system(system: str) -> list[TextBlockParam]:
    """The system prompt as one text block marked for the cache."""
    return [{"type": "text", "text": system, "cache_control": _mark()}]


def cached_tools(tools: Sequence[ToolParam]) -> list[ToolParam]:
    """The tools, the last one marked (a copy; the given ones are left as they are)."""
    out = list(tools)
    if out:
        out[-1] = {**out[-1], "cache_control": _mark()}
    return out


def cached_messages(messages: Sequence[MessageParam]) -> list[MessageParam]:
    """The messages with the last block of each of the last two user turns marked."""
    out = list(messages)
    marked = 0
    for index in range(len(out) - 1, -1, -1):
        if marked == _TAIL:
            break
        message = out[index]
        content = message["content"]
        if message["role"] != "user" or isinstance(content, str) or not content:
            continue
        blocks: list[Any] = list(content)
        blocks[-1] = {**blocks[-1], "cache_control": _mark()}
        out[index] = {"role": "user", "content": blocks}
        marked += 1
    return out
