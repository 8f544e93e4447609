"""The `todo` tool's list as ACP `plan` updates: the whole plan each time, live and on load."""

from __future__ import annotations

from acp import plan_entry, update_plan
from acp.schema import AgentPlanUpdate, PlanEntry

from tether.tools.todo import TodoItem

__all__ = ["CANCELLED_SUFFIX", "plan_update"]


CANCELLED_SUFFIX = " (cancelled)"
"""Marks a cancelled task's text: ACP's statuses stop at `completed`."""


def plan_update(todos: list[TodoItem]) -> AgentPlanUpdate:
    """The `plan` update for a list (ACP wants a priority; a task without one is medium)."""
    return update_plan(_entry(item) for item in todos)


def _entry(item: TodoItem) -> PlanEntry:
    priority = item.priority or "medium"
    if item.status != "cancelled":
        return plan_entry(item.shown, priority=priority, status=item.status)
    # Done with, not done: any client shows the word, tether's own reads the status.
    entry = plan_entry(item.content + CANCELLED_SUFFIX, priority=priority, status="completed")
    return entry.model_copy(update={"field_meta": {"tether": {"status": "cancelled"}}})
