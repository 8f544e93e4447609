"""The search tools: `grep` (contents) and `glob` (names), on the bundled ripgrep."""

from tether.tools.search.glob import GlobArgs, GlobTool
from tether.tools.search.grep import GrepArgs, GrepTool

__all__ = ["GlobArgs", "GlobTool", "GrepArgs", "GrepTool"]
