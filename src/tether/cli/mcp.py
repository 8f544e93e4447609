"""MCP servers for `tether run`: the user's start; the project's once approved at the terminal.

A headless run cannot ask, so a project's servers are skipped with a notice, unless the
mode is `auto` (which trusts the workspace with everything).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

if TYPE_CHECKING:
    from tether.mcp.servers import McpServers

from tether.mcp import Approvals, McpSpec, gather
from tether.policy import (
    PermissionAsker,
    PermissionChoice,
    PermissionQuestion,
    PolicyMode,
    ServerStart,
)
from tether.session import Session

__all__ = ["CliMcp"]


@dataclass
class CliMcp:
    """How a run starts its MCP servers."""

    home: Path
    mode: PolicyMode
    asker: PermissionAsker | None
    err: Console

    async def start(self, session: Session) -> McpServers | None:
        """Start the servers the files name and offer their tools to the session."""
        sources = gather(session.cwd, self.home)
        notices = list(sources.notices)
        specs = list(sources.trusted)
        if sources.project and await self._approved(session.cwd, sources.project, notices):
            specs.extend(sources.project)
        for notice in notices:
            self.err.print(f"tether: {notice}", style="yellow", markup=False)
        if not specs:
            return None
        from tether.mcp.servers import McpServers  # the SDK, only when there are servers

        servers = await McpServers.start(specs, session.cwd)
        for notice in servers.notices:
            self.err.print(f"tether: {notice}", style="yellow", markup=False)
        for tool in servers.tools():
            if session.tools.get(tool.name) is None:
                session.tools.add(tool)
        return servers

    async def _approved(self, cwd: Path, specs: list[McpSpec], notices: list[str]) -> bool:
        approvals = Approvals(self.home)
        if self.mode == "auto" or approvals.approved(cwd, specs):
            return True
        names = ", ".join(s.name for s in specs)
        if self.asker is None:
            notices.append(
                f"MCP servers of {cwd / '.mcp.json'} ({names}) were not started: approve them "
                "once by running tether at a terminal, or use --mode auto"
            )
            return False
        decision = await self.asker.ask(
            PermissionQuestion(
                subject=ServerStart(tuple(s.name for s in specs)),
                options=(
                    PermissionChoice("allow_once", "Allow this time"),
                    PermissionChoice("allow_always", "Allow in this workspace"),
                    PermissionChoice("reject", "Do not start them"),
                ),
                reason="a project's servers run commands it chose",
            )
        )
        if decision == "allow_always":
            approvals.approve(cwd, specs)
        # Anything but an allow (a rejection, with or without words) keeps them stopped.
        return decision in ("allow_once", "allow_always")
