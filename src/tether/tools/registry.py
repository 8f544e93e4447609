"""The set of tools a session offers, by name."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from tether.tools.base import Tool
from tether.tools.deferred import DeferredTool

__all__ = ["ToolRegistry", "ToolsOnFirstUse"]

AnyTool = Tool[Any, Any]


class ToolRegistry:
    """Tools by name, in the order they were added (that order is what the model sees).

    A tool that is unavailable (see `Tool.unavailable`) stays here, so its stored calls are
    still shown with their cards, but is not offered to the model. A built-in tool may be
    held as its `DeferredTool` until `get` first asks for it: `offered` and iteration may
    hand out the stand-in (for what the model is told of the tool), `get` always the tool."""

    def __init__(self, tools: Iterable[AnyTool] = ()) -> None:
        self._tools: dict[str, AnyTool] = {}
        self._deferred: set[str] = set()
        """The names whose tool is still its stand-in (looked up by name: a tool's class is
        an ABC's, whose `isinstance` costs a call per lookup, and a replay looks up every
        call's tool)."""
        for tool in tools:
            self.add(tool)

    def add(self, tool: AnyTool) -> None:
        """Register a tool; a second tool with the same name is a programming error."""
        if tool.name in self._tools:
            raise ValueError(f"tool {tool.name!r} is already registered")
        self._tools[tool.name] = tool
        if isinstance(tool, DeferredTool):
            self._deferred.add(tool.name)

    def get(self, name: str) -> AnyTool | None:
        """The tool called `name`, if any (made now if it was deferred)."""
        if name not in self._deferred:
            return self._tools.get(name)
        tool = self._tools[name]
        if isinstance(tool, DeferredTool):  # not already made by another thread's `get`
            tool = self._tools[name] = tool.tool()
        self._deferred.discard(name)
        return tool

    def names(self) -> list[str]:
        """Every tool's name."""
        return list(self._tools)

    def offered(self, mode: str | None = None) -> list[AnyTool]:
        """The tools the model is offered in permission mode `mode`: all but those that say
        they are unavailable, and those offered only in another mode (`None`: in no
        particular mode, so a tool of one mode alone is left out)."""
        return [
            tool
            for tool in self._tools.values()
            if tool.unavailable() is None and tool.only_in_mode in (None, mode)
        ]

    def withheld(self) -> list[tuple[str, str]]:
        """`(name, why)` of every tool the model is not offered."""
        return [(tool.name, why) for tool in self._tools.values() if (why := tool.unavailable())]

    def __iter__(self) -> Iterator[AnyTool]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)


class ToolsOnFirstUse(ToolRegistry):
    """A registry whose tools are made (by `make`) when it is first asked anything: a replay
    of a session that called no tool makes none (stating the seventeen built-in tools from
    their stored specs was a hundredth of an empty session's `tether show --json`)."""

    def __init__(self, make: Callable[[], Iterable[AnyTool]]) -> None:
        self._make: Callable[[], Iterable[AnyTool]] | None = make
        self._making = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        # Asked only for what the instance lacks: its tools, until they are made.
        if name not in ("_tools", "_deferred"):
            raise AttributeError(name)
        with self._making:
            make = self._make
            if make is not None:
                made = ToolRegistry(make())
                # The names first: a thread that finds the tools finds them too.
                self._deferred = made._deferred
                self._tools = made._tools
                self._make = None
        return object.__getattribute__(self, name)
