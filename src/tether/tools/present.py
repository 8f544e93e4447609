"""Cards for any call, safely: a presenter that fails falls back to the generic card."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from tether import views
from tether.lazy import logger
from tether.tools.base import Tool
from tether.tools.card_context import CardContext
from tether.tools.invocation import decode_arguments
from tether.tools.result import ToolResult
from tether.views import GenericCallView, ToolCallView
from tether.views.trusted import trusted

if TYPE_CHECKING:
    from tether.views import ToolResultView

__all__ = ["MAX_RAW_INPUT_DEPTH", "call_view", "raw_input", "result_view", "shown_input"]

_UNSHOWN: Any = object()

log = logger(__name__)  # `logging` loads when it first logs


def call_view(
    name: str,
    raw_arguments: str,
    tool: Tool[Any, Any] | None,
    args: BaseModel | None,
    context: CardContext,
    *,
    shown: Any = _UNSHOWN,
) -> ToolCallView:
    """The tool's own call card, or a generic one titled by the tool's name (showing `shown`,
    the arguments' `raw_input` when already made)."""
    if tool is not None and args is not None:
        try:
            return tool.present_call(args, context)
        except Exception:
            log.exception("present_call of %s failed; showing the generic card", name)
    if shown is _UNSHOWN:
        shown = raw_input(raw_arguments)
    return trusted(GenericCallView)(title=name, kind="other", raw_input=shown)


def result_view(
    tool: Tool[Any, Any] | None, args: BaseModel | None, result: ToolResult, context: CardContext
) -> ToolResultView:
    """The tool's own result card, or the generic card made from the result's text."""
    if tool is not None and args is not None:
        try:
            view = tool.present_result(args, result, context)
        except Exception:
            log.exception("present_result of %s failed; showing the generic card", tool.name)
            view = None
        if view is not None:
            return view
    return trusted(views.GenericResultView)(content=result.text())


MAX_RAW_INPUT_DEPTH = 64
"""Arguments nested deeper are shown as their text: the serializers that carry cards (pydantic,
inside ACP messages) stop at a few hundred levels, and no tool's arguments come near this."""


def raw_input(raw: str) -> Any:
    """A call's raw arguments as JSON when they decode, else the text as it came (not JSON,
    or nested too deeply to decode: the card shows the text as it came)."""
    return shown_input(raw, decode_arguments(raw))


def shown_input(raw: str, decoded: Any) -> Any:
    """`raw_input(raw)` of arguments already decoded: `decoded` is `parse_json(raw)`, or the
    `ValueError` it raised (`tether.tools.invocation.decode_arguments`)."""
    if isinstance(decoded, ValueError):
        return raw
    value = decoded
    if raw.count("[") + raw.count("{") <= MAX_RAW_INPUT_DEPTH:
        # Each level opens an array or an object: text with no more openers than the limit
        # (those in strings counted too) cannot nest deeper, and needs no walk.
        return value
    return raw if _deeper_than(value, MAX_RAW_INPUT_DEPTH) else value


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether arrays and objects nest more than `limit` levels (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False
