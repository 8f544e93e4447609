"""The tools a session offers unless told otherwise."""

from __future__ import annotations

from tether.tools.bash.tool import BashTool
from tether.tools.fs.edit import EditTool
from tether.tools.fs.read import ReadTool
from tether.tools.fs.write import WriteTool
from tether.tools.registry import ToolRegistry
from tether.tools.search import GlobTool, GrepTool

__all__ = ["default_tools"]


def default_tools() -> ToolRegistry:
    """`read`, `write`, `edit`, `grep`, `glob` and `bash`, in the order the model sees them."""
    return ToolRegistry([ReadTool(), WriteTool(), EditTool(), GrepTool(), GlobTool(), BashTool()])
