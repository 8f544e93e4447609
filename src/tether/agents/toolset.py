"""The tools a child gets: its agent's, taken from its parent's, never more than the parent has."""

from __future__ import annotations

from typing import Any

from tether.agents.definition import AgentDefinition
from tether.errors import PermissionDenied, ToolError
from tether.sandbox.bwrap import find_bwrap
from tether.sandbox.policy import SandboxPolicy
from tether.tools.access import UnsandboxedAccess
from tether.tools.base import Tool
from tether.tools.bash.tool import BashArgs, BashTool
from tether.tools.bash.value import BashValue
from tether.tools.context import ToolContext
from tether.tools.planning import EXIT_PLAN_TOOL
from tether.tools.registry import ToolRegistry

__all__ = ["ReadOnlyBash", "child_tools"]

TASK = "task"


class ReadOnlyBash(BashTool):
    """`bash` in the read-only sandbox only: never unsandboxed, refused when it cannot start."""

    def __init__(self, allow_network: bool = False) -> None:
        super().__init__(SandboxPolicy("read-only", allow_network))

    async def execute(self, args: BashArgs, ctx: ToolContext) -> BashValue:
        """Run the command confined, or refuse: a read-only agent never runs one outside."""
        if args.unsandboxed:
            access = UnsandboxedAccess(command=args.command, tool_call_id=ctx.tool_call_id)
            raise PermissionDenied(
                f"{access.title!r} cannot run outside the sandbox: this agent is read-only"
            )
        bwrap = find_bwrap()
        if not bwrap.works:
            raise ToolError(
                f"Commands cannot run: the read-only sandbox cannot start ({bwrap.problem}), "
                "and this agent runs none outside it"
            )
        return await super().execute(args, ctx)


def child_tools(
    agent: AgentDefinition, parent: ToolRegistry, *, may_delegate: bool
) -> ToolRegistry:
    """The parent's tools the agent may use, in the parent's order.

    `disallowedTools` are taken away; `task` is kept only when the agent names it and
    `may_delegate` (the depth allows another level); a read-only agent's `bash` runs in the
    read-only sandbox whatever the parent's is.
    """
    wanted = set(agent.tools) if agent.tools is not None else None
    tools: list[Tool[Any, Any]] = []
    for tool in parent:
        if tool.name == EXIT_PLAN_TOOL:
            continue  # the person approves the session's plan, not an agent's
        if tool.name == TASK:
            if may_delegate and agent.delegates:
                tools.append(tool)
            continue
        if wanted is not None and tool.name not in wanted:
            continue
        if tool.name in agent.disallowed:
            continue
        if agent.read_only and isinstance(tool, BashTool):
            tools.append(ReadOnlyBash(allow_network=tool.sandbox.allow_network))
            continue
        tools.append(tool)
    return ToolRegistry(tools)
