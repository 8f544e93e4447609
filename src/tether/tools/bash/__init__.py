"""The `bash` tool: shell commands in their own process group, output bounded and streamed."""

from tether.tools.bash.tool import BashArgs, BashTool
from tether.tools.bash.value import BashValue

__all__ = ["BashArgs", "BashTool", "BashValue"]
