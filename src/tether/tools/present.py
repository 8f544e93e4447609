"""Cards for any call, safely: a presenter that fails falls back to the generic card."""

from __future__ import annotations

import json
import logging
from typing import Any

from pydantic import BaseModel

from tether.tools.base import Tool
from tether.tools.result import ToolResult
from tether.views import GenericCallView, GenericResultView, ToolCallView, ToolResultView

__all__ = ["call_view", "result_view"]

log = logging.getLogger(__name__)


def call_view(
    name: str, raw_arguments: str, tool: Tool[Any, Any] | None, args: BaseModel | None
) -> ToolCallView:
    """The tool's own call card, or a generic one titled by the tool's name."""
    if tool is not None and args is not None:
        try:
            return tool.present_call(args)
        except Exception:
            log.exception("present_call of %s failed; showing the generic card", name)
    return GenericCallView(title=name, kind="other", raw_input=_raw_input(raw_arguments))


def result_view(
    tool: Tool[Any, Any] | None, args: BaseModel | None, result: ToolResult
) -> ToolResultView:
    """The tool's own result card, or the generic card made from the result's text."""
    if tool is not None and args is not None:
        try:
            view = tool.present_result(args, result)
        except Exception:
            log.exception("present_result of %s failed; showing the generic card", tool.name)
            view = None
        if view is not None:
            return view
    return GenericResultView(content=result.text())


def _raw_input(raw: str) -> Any:
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        # Not JSON, or nested too deeply to decode: the card shows the text as it came.
        return raw
