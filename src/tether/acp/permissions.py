"""Permission requests over ACP: the policy gate asks, the client answers."""

from __future__ import annotations

from typing import assert_never

from acp.interfaces import Client
from acp.schema import (
    AllowedOutcome,
    DeniedOutcome,
    PermissionOption,
    PermissionOptionKind,
    ToolKind,
)

from tether.acp.calls import SessionCalls
from tether.acp.outbox import Outbox
from tether.policy import (
    DelegatedAccess,
    PermissionDecision,
    PermissionQuestion,
    ServerStart,
    Subject,
)
from tether.tools.access import (
    CommandAccess,
    FetchAccess,
    FileAccess,
    McpAccess,
    UnsandboxedAccess,
)

__all__ = ["OPTIONS", "AcpAsker", "option_for"]

OPTIONS: dict[PermissionDecision, tuple[PermissionOptionKind, str]] = {
    "allow_once": ("allow_once", "Allow"),
    "allow_always": ("allow_always", "Always allow"),
    "reject": ("reject_once", "Reject"),
}
"""Each decision as an ACP option: its kind (also its `optionId`) and its label."""


def option_for(decision: PermissionDecision) -> PermissionOption:
    """The ACP option offered for one decision."""
    kind, name = OPTIONS[decision]
    return PermissionOption(option_id=kind, name=name, kind=kind)


class AcpAsker:
    """Implements `tether.policy.PermissionAsker` for one session of one ACP client."""

    def __init__(
        self, client: Client, outbox: Outbox, session_id: str, calls: SessionCalls
    ) -> None:
        self._client = client
        self._outbox = outbox
        self._session_id = session_id
        self._calls = calls
        """The session's announced calls, whose cards a request repeats."""

    async def ask(self, request: PermissionQuestion) -> PermissionDecision:
        """Ask the client; a cancelled request or an unknown option rejects."""
        # The client must have seen the `tool_call` this request points at.
        await self._outbox.flush()
        options = [option_for(option.decision) for option in request.options]
        subject = request.subject
        tool_call = self._calls.permission_call(subject.tool_call_id, request.reason, request.title)
        if tool_call.kind is None:
            tool_call.kind = _kind(subject)
        response = await self._client.request_permission(
            session_id=self._session_id,
            tool_call=tool_call,
            options=options,
            tether={"reason": request.reason},
        )
        outcome = response.outcome
        match outcome:
            case DeniedOutcome():
                return "reject"
            case AllowedOutcome(option_id=option_id):
                for option in request.options:
                    if option_for(option.decision).option_id == option_id:
                        return option.decision
                return "reject"
            case _:
                assert_never(outcome)


def _kind(access: Subject) -> ToolKind:
    """The ACP tool kind of what is asked about (a command outside the sandbox still runs)."""
    match access:
        case FileAccess(action=action):
            return action
        case CommandAccess() | UnsandboxedAccess():
            return "execute"
        case FetchAccess():
            return "fetch"
        case McpAccess() | ServerStart():
            return "other"
        case DelegatedAccess(access=inner):
            return _kind(inner)
        case _:
            assert_never(access)
