"""Plan mode's question: approving the model's plan, which leaves plan mode.

In plan mode nothing may change: an edit or write, a command outside the sandbox (or with
no sandbox to run in) and an MCP tool that is not read-only are refused with a message that
says plan mode is on (`tether.policy.reasons.plan_refusal`, beside what the other modes say);
reads, searches and fetches ask as in `ask`, and commands too (they run in the read-only
sandbox, so rules that allow them still do: the bash rule grammar is not bypassed). The model
leaves plan mode only through `exit_plan_mode`, whose question is asked here.
"""

from __future__ import annotations

from typing import assert_never

from tether.policy.asker import (
    PermissionAsker,
    PermissionChoice,
    PermissionQuestion,
    PlanApproval,
    RejectWithMessage,
)
from tether.tools.planning import KeepPlanning, PlanApproved, PlanVerdict

__all__ = ["PLAN_CHOICES", "ask_plan"]

PLAN_CHOICES = (
    PermissionChoice("allow_once", "Yes, and accept edits"),
    PermissionChoice("allow_always", "Yes, and run in auto mode"),
    PermissionChoice("reject", "No, keep planning"),
)
"""What the person may answer to a plan: the mode to work in, or more planning."""


async def ask_plan(asker: PermissionAsker, plan: str, tool_call_id: str) -> PlanVerdict:
    """The person's verdict on `plan`: approved in accept-edits or auto, or keep planning."""
    question = PermissionQuestion(
        subject=PlanApproval(plan=plan, tool_call_id=tool_call_id),
        options=PLAN_CHOICES,
        reason="plan mode is on: approve the plan to start the work",
    )
    answer = await asker.ask(question)
    match answer:
        case "allow_once":
            return PlanApproved("accept-edits")
        case "allow_always" | "allow_project":
            return PlanApproved("auto")
        case RejectWithMessage(message=message):
            return KeepPlanning(message.strip())
        case "reject":
            return KeepPlanning("")
        case _:
            assert_never(answer)
