"""Cards to and from their camelCase JSON form."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from tether.views.call import TOOL_CALL_VIEW, ToolCallView
from tether.views.result import TOOL_RESULT_VIEW, ToolResultView
from tether.wire import DEFERRED

__all__ = ["TOOL_VIEW", "ToolView", "dump_view", "load_call_view", "load_result_view"]

ToolView = ToolCallView | ToolResultView
"""Any card, of either side (the two unions share tags, so JSON is loaded as one side)."""

TOOL_VIEW: TypeAdapter[ToolView] = TypeAdapter(ToolView, config=DEFERRED)
"""Serializes any card; each value is dumped by its own class, whichever union it is from."""


def dump_view(view: ToolView) -> dict[str, Any]:
    """The wire JSON of any card (camelCase keys, unset optional fields left out)."""
    dumped: dict[str, Any] = TOOL_VIEW.dump_python(view, mode="json", by_alias=True)
    return dumped


def load_call_view(data: object) -> ToolCallView:
    """Validate wire JSON as a call view; raises `pydantic.ValidationError`."""
    return TOOL_CALL_VIEW.validate_python(data)


def load_result_view(data: object) -> ToolResultView:
    """Validate wire JSON as a result view; raises `pydantic.ValidationError`."""
    return TOOL_RESULT_VIEW.validate_python(data)
