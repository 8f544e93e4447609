"""Cards to and from their camelCase JSON form."""

from __future__ import annotations

from typing import Any

from tether.views.call import TOOL_CALL_VIEW, ToolCallView
from tether.views.result import (
    TOOL_RESULT_VIEW,
    DiffResultView,
    GenericResultView,
    ReadResultView,
    TerminalResultView,
    ToolResultView,
    WebFetchResultView,
)
from tether.views.search import SearchMatchesResultView, SearchPathsResultView

__all__ = ["dump_view", "load_call_view", "load_result_view"]

_RESULT_TYPES = (
    GenericResultView,
    TerminalResultView,
    DiffResultView,
    ReadResultView,
    SearchMatchesResultView,
    SearchPathsResultView,
    WebFetchResultView,
)


def dump_view(view: ToolCallView | ToolResultView) -> dict[str, Any]:
    """The wire JSON of any card (camelCase keys, unset optional fields left out)."""
    adapter: Any = TOOL_RESULT_VIEW if isinstance(view, _RESULT_TYPES) else TOOL_CALL_VIEW
    dumped: dict[str, Any] = adapter.dump_python(view, mode="json", by_alias=True)
    return dumped


def load_call_view(data: object) -> ToolCallView:
    """Validate wire JSON as a call view; raises `pydantic.ValidationError`."""
    return TOOL_CALL_VIEW.validate_python(data)


def load_result_view(data: object) -> ToolResultView:
    """Validate wire JSON as a result view; raises `pydantic.ValidationError`."""
    return TOOL_RESULT_VIEW.validate_python(data)
