"""What each mode says of an access: why a person is asked, why plan mode refuses it, and
how to run so that it would not be asked.

The gate's table (`tether.policy.gate`) in code: one `match` over the kinds of `Access` per
question, so that a new kind is a type error in each until every mode says something of it.
"""

from __future__ import annotations

from typing import assert_never

from tether.policy.modes import PolicyMode
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
from tether.tools.planning import PLAN_MODE_ON

__all__ = ["hint", "mode_reason", "plan_refusal"]

_LEAVE = (
    "finish the plan and call exit_plan_mode with it, so the person can approve it; the "
    "work starts after that"
)


def mode_reason(
    access: Access, mode: PolicyMode, *, inside: bool, protected: str | None
) -> str | None:
    """Why `access` needs a person in `mode`, or `None` when it passes. `inside`: a file
    access inside the workspace; `protected`: why it writes what later runs with the user's
    rights (`tether.policy.protection`), which asks in every mode."""
    if protected:
        return protected  # in every mode, and allow rules do not cover it
    match access:
        case UnsandboxedAccess():
            return "commands outside the sandbox always need approval"
        case McpAccess(read_only=True) | NamedAccess():
            return None  # only a deny or an ask rule stops these
        case _ if mode == "auto":
            return None
        case CommandAccess():
            return "commands need approval unless the mode is auto"
        case FetchAccess():
            return "fetching from the web needs approval unless the mode is auto"
        case SearchAccess(provider=provider):
            return (
                f"a web search sends the query to {provider}, which needs approval unless "
                "the mode is auto"
            )
        case McpAccess():
            return "MCP tools that are not read-only need approval unless the mode is auto"
        case FileAccess():
            if not inside:
                return "it is outside the workspace"
            if access.action == "read" or mode == "accept-edits":
                return None
            return "edits need approval in ask mode"
        case _:
            assert_never(access)


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


def hint(access: Access, *, inside: bool, protected: bool) -> str:
    """How to run so that `access` would not need asking (`protected`: it never can)."""
    match access:
        case UnsandboxedAccess():
            return "run with --sandbox off to run commands without the sandbox"
        case FileAccess(action="edit") | CommandAccess() if protected:
            return "a person must approve it in every mode"
        case FileAccess(action="edit") if inside:
            return "run with --mode accept-edits or --mode auto to allow edits"
        case FileAccess() | CommandAccess() | FetchAccess() | SearchAccess() | McpAccess():
            return "run with --mode auto to allow it"
        case NamedAccess():
            return "remove the ask rule that covers it"
        case _:
            assert_never(access)
