"""Permission requests over ACP: the policy gate asks, the client answers."""

from __future__ import annotations

import logging
from typing import assert_never

from acp import RequestError, text_block, tool_content
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
from tether.acp.preview import with_preview
from tether.acp.task import delegated_call
from tether.errors import PermissionDenied
from tether.policy import (
    DelegatedAccess,
    PermissionQuestion,
    PlanApproval,
    ServerStart,
    Subject,
    WorkspaceTrust,
)
from tether.tools.access import (
    CommandAccess,
    FetchAccess,
    FileAccess,
    McpAccess,
    NamedAccess,
    PermissionDecision,
    SearchAccess,
    UnsandboxedAccess,
)

__all__ = ["OPTIONS", "AcpAsker", "option_for"]

log = logging.getLogger(__name__)

OPTIONS: dict[PermissionDecision, tuple[str, PermissionOptionKind, str]] = {
    "allow_once": ("allow_once", "allow_once", "Allow"),
    "allow_always": ("allow_always", "allow_always", "Always allow"),
    "allow_project": ("allow_project", "allow_always", "Always allow in this project"),
    "reject": ("reject_once", "reject_once", "Reject"),
}
"""Each decision as an ACP option: its `optionId`, its kind and its label. Both "always"
options are of kind `allow_always`; the one for the project is told apart by its id."""


def option_for(decision: PermissionDecision, label: str | None = None) -> PermissionOption:
    """The ACP option offered for one decision (`label`: the question's own, if given)."""
    option_id, kind, name = OPTIONS[decision]
    return PermissionOption(option_id=option_id, name=label or name, kind=kind)


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
        subject = request.subject
        # Tool calls keep the client's usual labels; a project rule and trust say what they do.
        options = [
            option_for(
                option.decision,
                option.name
                if option.decision == "allow_project"
                or isinstance(subject, WorkspaceTrust | PlanApproval)
                else None,
            )
            for option in request.options
        ]
        for offered, option in zip(options, request.options, strict=True):
            if option.decision == "allow_always" and offered.name != option.name:
                # The short label stays the button; the whole of it says what it covers.
                offered.field_meta = {"tether": {"label": option.name}}
        if isinstance(subject, DelegatedAccess):
            tool_call = delegated_call(request, self._calls.cwd, _kind(subject))
        else:
            tool_call = self._calls.permission_call(
                subject.tool_call_id, request.reason, request.title
            )
        if tool_call.kind is None:
            tool_call.kind = _kind(subject)
        if isinstance(subject, FileAccess) and subject.preview is not None:
            tool_call = with_preview(tool_call, subject.preview, self._calls.cwd)
        if isinstance(subject, UnsandboxedAccess) and not subject.tool_call_id:
            # No call asks (a hook whose files changed): the question says it all itself.
            tool_call.content = [tool_content(text_block(request.reason))]
        if isinstance(subject, WorkspaceTrust):
            tool_call.title = f"Trust the workspace {subject.root}"
            listing = "\n".join(f"- {item}" for item in subject.withheld)
            text = f"Its settings would then apply:\n{listing}\nDeny and ask rules apply anyway."
            tool_call.content = [tool_content(text_block(text))]
        try:
            response = await self._client.request_permission(
                session_id=self._session_id,
                tool_call=tool_call,
                options=options,
                tether={"reason": request.reason},
            )
        except RequestError as exc:
            # A client that does not take permission requests (or failed one) said so: that is
            # a refusal with its reason, not a fault of tether's to log with a traceback.
            log.info("the client refused a permission request: %s", exc)
            raise PermissionDenied(
                f"the client could not be asked ({exc} [{exc.code}]), so it was refused"
            ) from exc
        if isinstance(subject, DelegatedAccess):
            # The request showed the parent's call as the child's step; the call is the task
            # again, or an editor keeps the child's icon and title on it.
            back = self._calls.announced(subject.tool_call_id)
            if back is not None:
                self._outbox.post(self._session_id, back)
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
        case FetchAccess() | SearchAccess():
            return "fetch"
        case McpAccess() | NamedAccess() | ServerStart() | WorkspaceTrust():
            return "other"
        case PlanApproval():
            return "switch_mode"
        case DelegatedAccess(access=inner):
            return _kind(inner)
        case _:
            assert_never(access)
