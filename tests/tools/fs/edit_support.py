"""Helpers for the write and edit tests: a session context, a real asker, a read."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from tether.policy import PermissionQuestion
from tether.tools import Tool, ToolContext, ToolResult, Workspace, invoke
from tether.tools.access import Gate, PermissionDecision
from tether.tools.fs.read import ReadArgs, ReadTool


class ScriptedAsker:
    """Answers permission requests from a list, running an optional action while "thinking"."""

    def __init__(
        self,
        *answers: PermissionDecision,
        during: Callable[[PermissionQuestion], Awaitable[None] | None] | None = None,
    ) -> None:
        self.answers = list(answers)
        self.requests: list[PermissionQuestion] = []
        self.during = during

    async def ask(self, request: PermissionQuestion) -> PermissionDecision:
        """Record the request and give the next answer."""
        self.requests.append(request)
        if self.during is not None:
            pending = self.during(request)
            if pending is not None:
                await pending
        return self.answers.pop(0)


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
