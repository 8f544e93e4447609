"""A session's MCP servers: started together, their tools offered, stopped with the session."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path

from tether.errors import McpServerError
from tether.mcp.connection import McpConnection
from tether.mcp.specs import McpSpec
from tether.mcp.tool import McpTool, mcp_tool

__all__ = ["McpServers"]

log = logging.getLogger(__name__)


class McpServers:
    """The running servers of one session, and a notice for each that failed to start."""

    def __init__(self, connections: Sequence[McpConnection], notices: Sequence[str]) -> None:
        self.connections = list(connections)
        self.notices = list(notices)
        """One line (and the stderr tail) per server that did not start."""

    @classmethod
    async def start(cls, specs: Sequence[McpSpec], cwd: Path) -> McpServers:
        """Start every server at once; one that fails is a notice, the others go on."""
        unique: dict[str, McpSpec] = {}
        notices = []
        for spec in specs:
            if spec.name in unique:
                notices.append(f"MCP server {spec.name} is named twice; the first one is used")
                continue
            unique[spec.name] = spec
        started = await asyncio.gather(
            *(McpConnection.start(spec, cwd) for spec in unique.values()), return_exceptions=True
        )
        connections = []
        for outcome in started:
            if isinstance(outcome, McpConnection):
                connections.append(outcome)
            elif isinstance(outcome, McpServerError):
                notices.append(str(outcome))
            else:
                raise outcome
        for notice in notices:
            log.warning("%s", notice)
        return cls(connections, notices)

    def tools(self) -> list[McpTool]:
        """Every server's tools, as `mcp__SERVER__TOOL`."""
        return [mcp_tool(c, spec) for c in self.connections for spec in c.tools]

    async def close(self) -> None:
        """Stop every server."""
        await asyncio.gather(*(c.close() for c in self.connections), return_exceptions=True)
        self.connections.clear()
