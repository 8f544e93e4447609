"""What the `task` tool needs from its session: a way to run a child session, as plain data.

The tool lives below the session and never imports it: the session hands each call a
`Delegate` through its `ToolContext`, and the tool speaks to it in these types only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from tether.tools.usage import TokenUsage

if TYPE_CHECKING:
    import asyncio

__all__ = [
    "AgentSummary",
    "ChildOutcome",
    "ChildProgress",
    "ChildRequest",
    "ChildStop",
    "Delegate",
    "TokenUsage",
]

ChildStop = Literal["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled", "error"]
"""How a child's prompt ended: its `turn/end` stop reason."""


@dataclass(frozen=True)
class AgentSummary:
    """An agent as the model is told about it: its name and what it is for."""

    name: str
    description: str


@dataclass(frozen=True)
class ChildRequest:
    """One `task` call: which agent, the task's short description, and the prompt it gets."""

    agent: str
    description: str
    prompt: str
    tool_call_id: str
    """The parent's call that starts the child (named in the child log's header)."""


@dataclass(frozen=True)
class ChildProgress:
    """Where a running child stands: its session, what it is doing now, its calls so far,
    and the end of what it is thinking while it thinks."""

    agent: str
    session_id: str
    activity: str
    tool_calls: int
    thought: str | None = None


@dataclass(frozen=True)
class ChildOutcome:
    """How a child ended: its final message, its stop reason, and what it did and spent."""

    agent: str
    session_id: str
    summary: str
    """The child's final message (empty when it gave none)."""
    stop_reason: ChildStop
    tool_calls: int
    usage: TokenUsage
    error: str | None = None
    """What failed, when `stop_reason` is `error`."""
    refused: int = 0
    """Calls refused for want of someone to approve them (the child's and its children's):
    the run did not do all that was asked, whatever the parent made of it."""


class Delegate(Protocol):
    """Runs child sessions for the `task` tool (the session implements it)."""

    def agents(self) -> tuple[AgentSummary, ...]:
        """The agents a task may name, the default (`general`) first."""
        ...

    async def run(
        self,
        request: ChildRequest,
        progress: Callable[[ChildProgress], None],
        cancelled: asyncio.Event,
    ) -> ChildOutcome:
        """Run the child to its end; `progress` hears each change of what it is doing.

        Raises `ToolError` when no child can start (an unknown agent, a model that cannot be
        built). `cancelled` is the person's cancel: the child stops at once and the outcome
        says `cancelled`. Cancelling the caller's task otherwise stops the child the same way,
        then propagates. Either way the child's log records the cancel and nothing it started
        is left running.
        """
        ...
