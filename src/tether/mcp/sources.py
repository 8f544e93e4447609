"""Where a session's MCP servers come from: the client, the user's file, the project's file."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tether.errors import McpSpecError
from tether.mcp.specs import PROJECT_FILE, USER_FILE, McpSpec, read_specs, spec_name

__all__ = ["McpSources", "gather"]


@dataclass
class McpSources:
    """Servers to start now, project servers that need approval, and what was wrong."""

    trusted: list[McpSpec] = field(default_factory=list)
    """From the client and `$TETHER_HOME/mcp.json`."""
    project: list[McpSpec] = field(default_factory=list)
    """From the workspace's `.mcp.json`: started once approved for the workspace."""
    notices: list[str] = field(default_factory=list)


def gather(
    workspace: Path,
    home: Path | None,
    client: Sequence[McpSpec] = (),
    env: Mapping[str, str] | None = None,
) -> McpSources:
    """Every configured server; a name used twice keeps the first (client, user, project).

    `client` are the servers a client named (an ACP client's `mcpServers`, converted); `env`
    the settings' variables, which the files' `${VAR}`s see on top of tether's environment,
    as Claude Code's settings `env` is part of its own.
    """
    environ = {**os.environ, **(env or {})}
    sources = McpSources()
    seen: set[str] = set()

    def take(specs: Sequence[McpSpec], into: list[McpSpec]) -> None:
        for spec in specs:
            if spec.name in seen:
                sources.notices.append(
                    f"MCP server {spec.name} is configured twice; kept the first"
                )
                continue
            seen.add(spec.name)
            into.append(spec)

    from_client: list[McpSpec] = []
    for server in client:
        try:
            spec_name(server.name, "mcpServers")
        except McpSpecError as exc:
            sources.notices.append(str(exc))
            continue
        from_client.append(server)
    take(from_client, sources.trusted)
    for path, into in (
        (home / USER_FILE if home else None, sources.trusted),
        (workspace / PROJECT_FILE, sources.project),
    ):
        if path is None:
            continue
        try:
            specs, notices = read_specs(path, environ)
        except McpSpecError as exc:
            sources.notices.append(str(exc))
            continue
        sources.notices.extend(notices)
        take(specs, into)
    return sources
