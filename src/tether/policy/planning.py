"""Plan mode in the policy: what it refuses, and the question that approves a plan.

In plan mode nothing may change: an edit or write, a command outside the sandbox (or with
no sandbox to run in) and an MCP tool that is not read-only are refused with a message that
says plan mode is on; reads, searches and fetches ask as in `ask`, and commands too (they
run in the read-only sandbox, so rules that allow them still do: the bash rule grammar is
not bypassed). The model leaves plan mode only through `exit_plan_mode`, whose question is
asked here.
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
from tether.policy.wording import describe
from tether.tools.access import (
    Access,
    CommandAccess,
    FetchAccess,
    FileAccess,
    McpAccess,
    NamedAccess,
    SearchAccess,
    UnsandboxedAccess,
)
from tether.tools.planning import PLAN_MODE_ON, KeepPlanning, PlanApproved, PlanVerdict

__all__ = ["PLAN_CHOICES", "ask_plan", "plan_refusal"]

PLAN_CHOICES = (
    PermissionChoice("allow_once", "Yes, and accept edits"),
    PermissionChoice("allow_always", "Yes, and run in auto mode"),
    PermissionChoice("reject", "No, keep planning"),
)
"""What the person may answer to a plan: the mode to work in, or more planning."""

_LEAVE = (
    "finish the plan and call exit_plan_mode with it, so the person can approve it; the "
    "work starts after that"
)


def plan_refusal(access: Access) -> str | None:
    """Why plan mode refuses `access`, or `None` when it may be asked for as in `ask`."""
    match access:
        case FileAccess(action="edit"):
            return f"{PLAN_MODE_ON}: {describe(access)} is not allowed while planning; {_LEAVE}"
        case UnsandboxedAccess():
            return (
                f"{PLAN_MODE_ON}: commands run only in the read-only sandbox while planning; "
                f"run it without `unsandboxed`, or {_LEAVE}"
            )
        case CommandAccess(sandbox_problem=problem) if problem is not None:
            return (
                f"{PLAN_MODE_ON}: commands run only in the read-only sandbox, which cannot "
                f"start ({problem}); {_LEAVE}"
            )
        case McpAccess(read_only=False):
            return (
                f"{PLAN_MODE_ON}: {describe(access)} may change things and is not allowed "
                f"while planning; {_LEAVE}"
            )
        case (
            FileAccess()
            | CommandAccess()
            | FetchAccess()
            | SearchAccess()
            | McpAccess()
            | NamedAccess()
        ):
            return None
        case _:
            assert_never(access)


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
