"""The tools a session offers unless told otherwise."""

from __future__ import annotations

from tether.tools.bash.tool import BashTool
from tether.tools.fs.edit import EditTool
from tether.tools.fs.read import ReadTool
from tether.tools.fs.write import WriteTool
from tether.tools.registry import ToolRegistry
from tether.tools.search import GlobTool, GrepTool
from tether.tools.web import WebFetchTool

__all__ = ["default_tools"]


def default_tools(*, allow_private_fetch: bool = False) -> ToolRegistry:
    """`read`, `write`, `edit`, `grep`, `glob`, `bash` and `web_fetch`, in the order the model
    sees them.

    `allow_private_fetch` lets `web_fetch` reach loopback, private and link-local addresses.
    """
    return ToolRegistry(
        [
            ReadTool(),
            WriteTool(),
            EditTool(),
            GrepTool(),
            GlobTool(),
            BashTool(),
            WebFetchTool(allow_private=allow_private_fetch),
        ]
    )
