"""The `task` tool and what it asks of its session (a `Delegate` that runs child sessions)."""

from tether.tools.delegate import (
    AgentSummary,
    ChildOutcome,
    ChildProgress,
    ChildRequest,
    ChildStop,
    Delegate,
    TokenUsage,
)
from tether.tools.task.meta import TaskMeta, TaskUsage, task_meta, task_meta_from_meta
from tether.tools.task.tool import DEFAULT_AGENT, TASK_TOOL, TaskArgs, TaskTool

__all__ = [
    "DEFAULT_AGENT",
    "TASK_TOOL",
    "AgentSummary",
    "ChildOutcome",
    "ChildProgress",
    "ChildRequest",
    "ChildStop",
    "Delegate",
    "TaskArgs",
    "TaskMeta",
    "TaskTool",
    "TaskUsage",
    "TokenUsage",
    "task_meta",
    "task_meta_from_meta",
]
