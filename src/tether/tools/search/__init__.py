"""The search tools: `grep` (contents), `glob` (names) and `ls` (a tree), on the bundled
ripgrep."""

from typing import TYPE_CHECKING

from tether.lazy import lazy_names

if TYPE_CHECKING:
    from tether.tools.search.glob import GlobArgs, GlobTool
    from tether.tools.search.grep import GrepArgs, GrepTool
    from tether.tools.search.ls import LsArgs, LsTool

__all__ = ["GlobArgs", "GlobTool", "GrepArgs", "GrepTool", "LsArgs", "LsTool"]

__getattr__ = lazy_names(
    __name__,
    {
        "GlobArgs": "tether.tools.search.glob",
        "GlobTool": "tether.tools.search.glob",
        "GrepArgs": "tether.tools.search.grep",
        "GrepTool": "tether.tools.search.grep",
        "LsArgs": "tether.tools.search.ls",
        "LsTool": "tether.tools.search.ls",
    },
)
