"""The `bash` tool: shell commands in their own process group, output bounded and streamed."""

from typing import TYPE_CHECKING

from tether.lazy import lazy_names
from tether.tools.bash.tool import BashArgs, BashTool

if TYPE_CHECKING:
    from tether.tools.bash.value import BashValue

__all__ = ["BashArgs", "BashTool", "BashValue"]

# A command's value loads with its first run, not with the cards a replay shows.
__getattr__ = lazy_names(__name__, {"BashValue": "tether.tools.bash.value"})
