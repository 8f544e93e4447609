"""The task card: a child session's work as its parent shows it.

Only the result side has a card of its own. A `task` call's data at call time are its agent,
its description and its prompt: a title and a text, which the generic call card already
carries and every client already renders, so tagging the call side would add a name and
nothing to show. What only the task card can show comes later: the child session it ran in
(to open its transcript), what it is doing now, how many calls it made, what it cost, how it
ended and its final message.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, NonNegativeInt
from pydantic.dataclasses import dataclass

from tether.wire import WIRE_CONFIG, Opt

__all__ = ["TaskResultView", "TaskStopReason"]

TaskStopReason = Literal[
    "running", "end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled", "error"
]
"""How the child's prompt ended (its `turn/end`), or `running` on a live progress card."""


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class TaskResultView:
    """A child session: which agent ran what, in which session, and what it reported.

    `summary` is the child's final message (markdown), exactly what the parent model was given;
    `toolCalls` counts the calls the child made, `tokens` the tokens it spent (input and output,
    its own children included). A live progress card has `stopReason: running`, the calls so
    far, `activity`, what the child is doing now (`Read src/client.py`), and `thought`, the end
    of what it is thinking while it thinks.
    """

    card: Literal["task"] = "task"
    agent: str
    description: str
    session_id: str
    summary: str
    tool_calls: NonNegativeInt
    stop_reason: TaskStopReason
    tokens: Opt[Annotated[int, Field(ge=0)]] = None
    title: Opt[str] = None
    activity: Opt[str] = None
    """Live only: the child's current step (the title of its running call, `thinking`...)."""
    thought: Opt[str] = None
    """Live only: the end of the child's thought as it streams (its last 200 characters, on
    one line), until it calls a tool or writes."""
    error: Opt[str] = None
    """Why the child failed (`stopReason: error`), in its own words."""
