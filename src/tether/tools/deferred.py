"""A built-in tool stated from its stored spec until it is used: its module loads, and the
tool is made, when a call (or a card) first needs it.

A request tells the model each tool's name, description and argument schema; for most
tools that is all a session needs before the model calls one, and `specs.json` holds it
(`tests/tools/test_stored_schemas.py` checks it against the tools' classes, so it cannot
drift). A `DeferredTool` answers those from the spec and hands everything else to the tool
it makes on first use (its arguments model and aliases too). `ToolRegistry.get` returns
that tool itself, so whatever runs or presents a call works with the tool's own class; only
`offered` and iteration hand out the stand-in.
"""

from __future__ import annotations

import copy
import functools
import importlib
import threading
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, JsonValue

from tether.tools.base import Tool
from tether.tools.schema import stored_specs

if TYPE_CHECKING:
    from tether.content import ContentBlock
    from tether.tools.arguments import ArgumentAlias
    from tether.tools.card_context import CardContext
    from tether.tools.context import ToolContext
    from tether.tools.result import ToolResult
    from tether.views import ToolCallView, ToolResultView

__all__ = ["DeferredTool", "deferred_tool"]

AnyTool = Tool[Any, Any]


class DeferredTool(Tool[Any, Any]):
    """A tool known by its stored spec; `tool()` makes the tool itself (once)."""

    home: ClassVar[str]
    """The tool's class, `module.Class`."""
    parameters: ClassVar[dict[str, Any]]

    def __init__(self, **options: Any) -> None:
        self.options = options
        """What the tool is made with (`WebFetchTool(allow_private=...)`)."""
        self._tool: AnyTool | None = None
        self._lock = threading.Lock()

    def tool(self) -> AnyTool:
        """The tool itself, made at the first call (its module loads then)."""
        with self._lock:
            if self._tool is None:
                module, _, name = self.home.rpartition(".")
                cls = getattr(importlib.import_module(module), name)
                self._tool = cls(**self.options)
            return self._tool

    # What validates a call's arguments is the tool's own: asking makes the tool. (Both are
    # class attributes of a tool; a stand-in answers them for the tool it stands for.)
    @property
    def args_model(self) -> type[BaseModel]:  # type: ignore[override]
        """The tool's own arguments model."""
        return self.tool().args_model

    @property
    def aliases(self) -> tuple[ArgumentAlias, ...]:  # type: ignore[override]
        """The tool's own aliases."""
        return self.tool().aliases

    def parameters_schema(self) -> dict[str, Any]:
        """The stored schema (a copy the caller may change)."""
        return copy.deepcopy(self.parameters)

    async def execute(self, args: Any, ctx: ToolContext) -> Any:
        """The tool's own."""
        return await self.tool().execute(args, ctx)

    def render(self, args: Any, value: Any) -> list[ContentBlock]:
        """The tool's own."""
        return self.tool().render(args, value)

    def presentation_meta(self, args: Any, value: Any) -> JsonValue:
        """The tool's own."""
        return self.tool().presentation_meta(args, value)

    def present_call(self, args: Any, context: CardContext) -> ToolCallView:
        """The tool's own."""
        return self.tool().present_call(args, context)

    def present_result(
        self, args: Any, result: ToolResult, context: CardContext
    ) -> ToolResultView | None:
        """The tool's own."""
        return self.tool().present_result(args, result, context)

    def failed(self, args: Any, result: ToolResult) -> bool:
        """The tool's own."""
        return self.tool().failed(args, result)

    def binding(self, planning: bool = False) -> str | None:
        """The tool's own."""
        return self.tool().binding(planning)

    def serial_key(self, args: Any) -> str | None:
        """The tool's own."""
        return self.tool().serial_key(args)

    def writes(self, args: Any) -> tuple[str, ...] | None:
        """The tool's own."""
        return self.tool().writes(args)


def deferred_tool(name: str, home: str, **options: Any) -> AnyTool:
    """Built-in tool `name` (class `home`, `module.Class`), made with `options` at its first
    use; made at once when its spec is not stored."""
    if name not in stored_specs():
        module, _, class_name = home.rpartition(".")
        made: AnyTool = getattr(importlib.import_module(module), class_name)(**options)
        return made
    tool: DeferredTool = _stand_in_class(name, home)(**options)
    return tool


@functools.cache
def _stand_in_class(name: str, home: str) -> type[DeferredTool]:
    # One class per tool, as each tool has its own: the class attributes are the spec's.
    spec = stored_specs()[name]
    attributes = {
        "name": name,
        "description": spec["description"],
        "only_in_mode": spec["onlyInMode"],
        "home": home,
        "parameters": spec["parameters"],
    }
    cls: type[DeferredTool] = type(f"DeferredTool[{name}]", (DeferredTool,), attributes)
    return cls
