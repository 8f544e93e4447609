"""What a tool asks before it touches something, and who answers."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

__all__ = ["Access", "AllowAll", "Gate"]

Action = Literal["read", "edit", "execute", "fetch", "mcp", "unsandboxed"]
"""`mcp` is calling an MCP tool that may change things (`command` names the tool);
`unsandboxed` a command that asked to run outside the sandbox (always asks a person)."""


@dataclass(frozen=True)
class Access:
    """One operation to authorize: a path read or edited, a command, a URL, an MCP tool."""

    action: Action
    title: str
    path: Path | None = None
    inside: bool = True
    command: str | None = None
    host: str | None = None
    """The host a fetch goes to: "always allow" covers that host."""
    tool_call_id: str = ""
    """The call asking, so a client can show the request beside its card."""
    sandbox_problem: str | None = None
    """Set on an `execute` whose sandbox cannot start: the command would run unsandboxed."""

    @property
    def kind(self) -> Literal["read", "edit", "execute", "fetch", "other"]:
        """The ACP tool kind of the operation (an unsandboxed command is still `execute`)."""
        if self.action == "unsandboxed":
            return "execute"
        return "other" if self.action == "mcp" else self.action


class Gate(Protocol):
    """Decides on an access; raises `PermissionDenied` with a clear message to refuse."""

    async def authorize(self, access: Access) -> None:
        """Return to allow, raise `PermissionDenied` to refuse."""
        ...


class AllowAll:
    """A gate that allows everything (the `auto` mode, and tests that are not about policy)."""

    async def authorize(self, access: Access) -> None:
        """Allow."""
        return None
