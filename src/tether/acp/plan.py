"""The `todo` tool's list as ACP `plan` updates: the whole plan each time, live and on load."""

from __future__ import annotations

from acp import plan_entry, update_plan
from acp.schema import AgentPlanUpdate

from tether.tools.todo import TodoItem

__all__ = ["plan_update"]


def plan_update(todos: list[TodoItem]) -> AgentPlanUpdate:
    """The `plan` update for a list (ACP wants a priority; a task without one is medium)."""
    return update_plan(
        plan_entry(item.content, priority=item.priority or "medium", status=item.status)
        for item in todos
    )
