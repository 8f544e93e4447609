"""The search tools: `grep` (contents), `glob` (names) and `ls` (a tree), on the bundled
ripgrep."""

from tether.tools.search.glob import GlobArgs, GlobTool
from tether.tools.search.grep import GrepArgs, GrepTool
from tether.tools.search.ls import LsArgs, LsTool

__all__ = ["GlobArgs", "GlobTool", "GrepArgs", "GrepTool", "LsArgs", "LsTool"]
