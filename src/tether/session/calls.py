"""Tool calls as the session sees them: parsed once, presented the same way live and on replay."""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection
from functools import lru_cache
from typing import Any, NamedTuple

from pydantic import BaseModel

from tether.lazy import logger
from tether.session.log.events import ToolCallEvent, ToolResultEvent
from tether.session.updates import (
    ToolCallFinished,
    ToolCallStarted,
    call_finished,
    call_started,
)
from tether.tools.base import Tool
from tether.tools.card_context import CardContext
from tether.tools.invocation import decode_arguments, validate_arguments
from tether.tools.present import call_view, result_view, shown_input
from tether.tools.registry import ToolRegistry
from tether.tools.result import ToolResult

__all__ = ["PreparedCall", "close_stream", "finished", "prepare", "stored_result", "unique_ids"]

log = logger(__name__)  # `logging` loads when it first logs
_new = object.__new__
_tuple = tuple.__new__
"""Makes a `PreparedCall` of its fields without the generated `__new__`'s Python call (a
replay makes one per call)."""


class PreparedCall(NamedTuple):
    """A call with its tool and validated arguments, or the error result it gets instead."""

    # A tuple: made for every call a replay shows, at a quarter of a frozen dataclass's cost.

    id: str
    name: str
    arguments: str
    tool: Tool[Any, Any] | None
    args: BaseModel | None
    rejected: ToolResult | None
    """Set when the call cannot run: an unknown tool, or arguments that do not validate."""
    context: CardContext
    """Where the call ran and its stored binding: what its cards depend on besides `args`."""
    raw_input: Any
    """The arguments as a client is shown them (`tether.tools.present.raw_input`), made from
    the parse that validated them."""

    def started(self) -> ToolCallStarted:
        """The update announcing this call, with its call card."""
        name, arguments, shown = self.name, self.arguments, self.raw_input
        view = call_view(name, arguments, self.tool, self.args, self.context, shown=shown)
        return call_started(self.id, name, arguments, shown, view)


def prepare(
    tools: ToolRegistry, event: ToolCallEvent, cwd: str | None, *, replaying: bool = False
) -> PreparedCall:
    """Find the tool and validate the raw arguments of a `tool/call` event made in `cwd`.

    An MCP call is shown by the card logged with it (`LoggedMcpTool`, which cannot run) when
    `tools` lacks its tool (the server is not connected), and, when `replaying`, also when
    they have it: a server may have renamed its tool since, and a replay shows what was seen.
    """
    context = _context(cwd, event.binding)
    call_id, name, arguments = event.tool_call_id, event.name, event.arguments
    # Decoded once: for the arguments' validation and for what a client is shown of them.
    decoded = decode_arguments(arguments)
    shown = shown_input(arguments, decoded)
    tool = tools.get(name)
    if event.mcp is not None:
        # MCP's presenting half loads with the first MCP call, not with the session.
        from tether.mcp.presenter import McpPresenter, logged_tool

        if tool is None or (replaying and isinstance(tool, McpPresenter)):
            tool = logged_tool(call_id, name, event.mcp) or tool
    if tool is None:
        available = ", ".join(t.name for t in tools.offered()) or "(none)"
        rejected = ToolResult.error(f"Unknown tool: {name}. Available tools: {available}")
        return PreparedCall(call_id, name, arguments, None, None, rejected, context, shown)
    parsed = validate_arguments(tool, arguments, decoded)
    if isinstance(parsed, ToolResult):
        return _tuple(PreparedCall, (call_id, name, arguments, tool, None, parsed, context, shown))
    return _tuple(PreparedCall, (call_id, name, arguments, tool, parsed, None, context, shown))


@lru_cache(maxsize=64)
def _context(cwd: str | None, binding: str | None) -> CardContext:
    """One card context per place and binding: it is frozen, and a session's calls share a
    few (a replay makes thousands of calls' cards)."""
    return CardContext(cwd=cwd, binding=binding)


def stored_result(event: ToolResultEvent) -> ToolResult:
    """The `{content, isError, meta}` a `tool/result` event holds."""
    # The event was validated as it was read or made; a result is plain data, so building it
    # checks nothing twice. Its fields are put in its `__dict__` as its frozen `__init__` puts
    # them, without a call to `object.__setattr__` each (a replay makes one per call).
    result = _new(ToolResult)
    fields = result.__dict__
    fields["content"] = event.content
    fields["is_error"] = event.is_error
    fields["meta"] = event.meta
    return result


def finished(call: PreparedCall, event: ToolResultEvent) -> ToolCallFinished:
    """The update closing a call, with its result card derived from the stored result."""
    result = stored_result(event)
    return call_finished(
        call.id,
        "failed" if _failed(call, result) else "completed",
        result_view(call.tool, call.args, result, call.context),
        result,
        event.permission,
    )


def _failed(call: PreparedCall, result: ToolResult) -> bool:
    if call.tool is None or call.args is None:
        return result.is_error
    try:
        return call.tool.failed(call.args, result)
    except Exception:
        log.exception("failed() of %s raised; the status follows isError", call.name)
        return result.is_error


def unique_ids(ids: list[str], used: Collection[str]) -> list[str]:
    """The call ids of a new message, each one not in `used` (the log's: `EventLog.call_ids`)."""
    # Some servers repeat call ids (`call_0` in every message, or twice in one); results
    # and client cards are matched by id, so a repeat gets a fresh one, kept in the log.
    taken: set[str] = set()
    unique = []
    for call_id in ids:
        fresh, n = call_id, 2
        while not fresh or fresh in used or fresh in taken:
            fresh, n = f"{call_id}-{n}", n + 1
        taken.add(fresh)
        unique.append(fresh)
    return unique


async def close_stream(stream: AsyncIterator[Any]) -> None:
    """Close a model stream (and its connection) if it can be closed."""
    aclose = getattr(stream, "aclose", None)
    if aclose is not None:
        await aclose()
