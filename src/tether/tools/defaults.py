"""The tools a session offers unless told otherwise."""

from __future__ import annotations

from tether.tools.bash.tool import BashTool
from tether.tools.fs.edit import EditTool
from tether.tools.fs.read import ReadTool
from tether.tools.fs.write import WriteTool
from tether.tools.registry import ToolRegistry
from tether.tools.todo import TodoTool

__all__ = ["default_tools"]


def default_tools() -> ToolRegistry:
    """`read`, `write`, `edit`, `bash` and `todo`, in that order (the order the model sees)."""
    return ToolRegistry([ReadTool(), WriteTool(), EditTool(), BashTool(), TodoTool()])
