"""Running the search tools as the session does, on real files with the bundled ripgrep."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tether.policy import PermissionAsker, PolicyGate
from tether.policy.modes import PolicyMode
from tether.tools import Gate, ToolContext, ToolResult, Workspace, invoke
from tether.tools.search import GlobArgs, GlobTool, GrepArgs, GrepTool


def context(ws: Path, gate: Gate | None = None) -> ToolContext:
    """A tool context in the workspace `ws`, allowing everything unless a gate is given."""
    workspace = Workspace.at(ws)
    if gate is None:
        return ToolContext(workspace=workspace)
    return ToolContext(workspace=workspace, gate=gate)


def policy(ws: Path, mode: PolicyMode, asker: PermissionAsker | None) -> PolicyGate:
    """The session's policy gate for `ws`."""
    return PolicyGate(Workspace.at(ws), mode, asker)


async def grep(ws: Path, ctx: ToolContext | None = None, **args: Any) -> ToolResult:
    """A grep call's stored result."""
    return await invoke(GrepTool(), GrepArgs(**args), ctx or context(ws))


async def glob(ws: Path, ctx: ToolContext | None = None, **args: Any) -> ToolResult:
    """A glob call's stored result."""
    return await invoke(GlobTool(), GlobArgs(**args), ctx or context(ws))


def write(root: Path, files: dict[str, str | bytes]) -> None:
    """Create files (and their directories) under `root`."""
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data)


def run(coro: Any) -> Any:
    """Run a coroutine to its end (for hypothesis tests, which are not async)."""
    return asyncio.run(coro)
