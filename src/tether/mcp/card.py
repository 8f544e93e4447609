"""What an MCP tool's cards are made of besides the call's arguments: its server, its title and
its kind. Logged with every call of the tool (`tool/call`'s `mcp`), so that a replay without
the server (`tether show`, the web page following a session, ACP `session/load` when the
server is not connected) shows the card shown live.

Plain data and nothing of the SDK: reading a log never loads it.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any, Final

from pydantic import ValidationError, ValidatorFunctionWrapHandler, WrapValidator
from pydantic.dataclasses import dataclass

from tether.wire import WIRE_CONFIG

__all__ = ["MCP_KINDS", "McpCard", "McpRecord", "tool_name"]

log = logging.getLogger(__name__)

MCP_KINDS: Final = ("read", "fetch", "other")
"""The kinds an MCP tool's card may have: from its `readOnlyHint` and `openWorldHint`."""


def tool_name(server: str, tool: str) -> str:
    """The name the model calls a server's tool by."""
    return f"mcp__{server}__{tool}"


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class McpCard:
    """An MCP tool as its cards name it: `title` (the tool's title, else its name), the
    `server` it comes from, and its `kind` (one of `MCP_KINDS`)."""

    server: str
    title: str
    kind: str
    """Kept as text, checked when used (`problem`): a log naming another kind still reads."""

    @property
    def heading(self) -> str:
        """The cards' and questions' title: `TITLE (SERVER)`."""
        return f"{self.title} ({self.server})"

    def problem(self, name: str) -> str | None:
        """Why this record cannot be the card of a call of tool `name` (`None`: it can)."""
        prefix = tool_name(self.server, "")
        if not self.server or not name.startswith(prefix) or len(name) == len(prefix):
            return f"its server {self.server!r} is not the server of {name!r}"
        if not self.title.strip():
            return "its title is empty"
        if self.kind not in MCP_KINDS:
            return f"its kind {self.kind!r} is not one of {', '.join(MCP_KINDS)}"
        return None


def _or_none(value: Any, handler: ValidatorFunctionWrapHandler) -> McpCard | None:
    try:
        card: McpCard = handler(value)
    except ValidationError as exc:
        # The call and the rest of the log are sound: only this call's card is generic.
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'it'}: {e['msg']}" for e in exc.errors()
        )
        log.warning("an MCP call's logged card does not read (%s); it is shown generic", problems)
        return None
    return card


McpRecord = Annotated[McpCard, WrapValidator(_or_none)]
"""An `McpCard` read from a log: one that does not read is `None`, with a warning, and the
rest of its line (the call) still reads."""
