"""The tools a session offers unless told otherwise."""

from __future__ import annotations

from tether.tools.bash.sandbox import SandboxPolicy
from tether.tools.bash.tool import BashTool
from tether.tools.fs.edit import EditTool
from tether.tools.fs.read import ReadTool
from tether.tools.fs.write import WriteTool
from tether.tools.registry import ToolRegistry

__all__ = ["default_tools"]


def default_tools(sandbox: SandboxPolicy | None = None) -> ToolRegistry:
    """`read`, `write`, `edit` and `bash` (confined by `sandbox`), in the order the model sees."""
    return ToolRegistry([ReadTool(), WriteTool(), EditTool(), BashTool(sandbox=sandbox)])
