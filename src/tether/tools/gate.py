"""What a tool asks before it touches something, and who answers."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

__all__ = ["Access", "AllowAll", "Gate"]

Action = Literal["read", "edit", "execute", "fetch"]


@dataclass(frozen=True)
class Access:
    """One operation to authorize: reading or editing a path, running a command, fetching a URL."""

    action: Action
    title: str
    path: Path | None = None
    inside: bool = True
    command: str | None = None
    host: str | None = None
    """The host a fetch goes to: "always allow" covers that host."""
    tool_call_id: str = ""
    """The call asking, so a client can show the request beside its card."""


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
