"""Helpers for the write and edit tests: a session context, a real asker, a read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from tether.tools import Tool, ToolContext, ToolResult, Workspace, invoke
from tether.tools.access import Gate
from tether.tools.fs.read import ReadArgs, ReadTool


def context(root: Path, gate: Gate | None = None) -> ToolContext:
    """A tool context over a workspace at `root` (allow-all gate unless given)."""
    workspace = Workspace.at(root)
    if gate is None:
        return ToolContext(workspace=workspace, tool_call_id="call-1")
    return ToolContext(workspace=workspace, gate=gate, tool_call_id="call-1")


async def observe(ctx: ToolContext, path: Path) -> None:
    """Have the session read `path` with the read tool, as a model does before changing it."""
    tool = ReadTool()
    result = await invoke(tool, ReadArgs(path=str(path)), ctx)
    assert not result.is_error, result.text()


async def run(tool: Tool[Any, Any], ctx: ToolContext, **arguments: Any) -> ToolResult:
    """Validate `arguments` and invoke the tool as the session does."""
    args: BaseModel = tool.args_model.model_validate(arguments)
    return await invoke(tool, args, ctx)
