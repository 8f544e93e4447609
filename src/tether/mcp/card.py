"""What an MCP tool's cards are made of besides the call's arguments: its server, its title and
its kind. Logged with every call of the tool (`tool/call`'s `mcp`), so that a replay without
the server (`tether show`, the web page following a session, ACP `session/load` when the
server is not connected) shows the card shown live.

The log keeps the card as plain JSON, read only when the call is replayed (`McpCard.read`):
a record that does not read costs its call's card alone, with a warning, and a log copied
(forked) keeps it as it was. Nothing here loads the SDK.
"""

from __future__ import annotations

from typing import Final

from pydantic import JsonValue, TypeAdapter, ValidationError
from pydantic.dataclasses import dataclass

from tether.wire import WIRE_CONFIG

__all__ = ["MCP_KINDS", "McpCard", "tool_name"]

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
    """Kept as text and checked when read (`problem`)."""

    @classmethod
    def read(cls, name: str, record: JsonValue) -> McpCard | str:
        """The card logged with a call of tool `name`, or why it cannot be that call's card."""
        try:
            card = _CARD.validate_python(record)
        except ValidationError as exc:
            return "; ".join(
                f"{'.'.join(map(str, e['loc'])) or 'it'}: {e['msg']}"
                for e in exc.errors(include_url=False)
            )
        return card.problem(name) or card

    def record(self) -> JsonValue:
        """The card as the log keeps it (`tool/call`'s `mcp`)."""
        return {"server": self.server, "title": self.title, "kind": self.kind}

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


_CARD: TypeAdapter[McpCard] = TypeAdapter(McpCard)
