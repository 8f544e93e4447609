"""A child session's permission questions, asked of its parent's person.

Each question names the agent that asks (`DelegatedAccess`, a chain of them for a
grandchild's) and shows the child's card for the call, and is about the parent's `task` call.
"""

from __future__ import annotations

from collections.abc import Mapping

from tether.policy import (
    DelegatedAccess,
    PermissionAnswer,
    PermissionAsker,
    PermissionQuestion,
    PlanApproval,
    ServerStart,
    WorkspaceTrust,
)
from tether.tools.delegate import ChildRequest
from tether.views import ToolCallView

__all__ = ["child_asker"]


def child_asker(
    parent: PermissionAsker | None,
    agent: str,
    request: ChildRequest,
    views: Mapping[str, ToolCallView],
) -> PermissionAsker | None:
    """The parent's asker, asking about the child's calls by name; `None` refuses as before."""
    if parent is None:
        return None
    return _ChildAsker(parent, agent, request.tool_call_id, views)


class _ChildAsker:
    """Asks the parent's asker about a child's access, naming the agent and showing its card."""

    def __init__(
        self,
        parent: PermissionAsker,
        agent: str,
        call_id: str,
        views: Mapping[str, ToolCallView],
    ) -> None:
        self._parent = parent
        self._agent = agent
        self._call_id = call_id
        self._views = views

    async def ask(self, request: PermissionQuestion) -> PermissionAnswer:
        """The parent's person decides; the question is about the parent's `task` call."""
        subject = request.subject
        match subject:
            case DelegatedAccess():
                # A grandchild's question, already named: the chain of agents leads to it.
                named = DelegatedAccess(
                    agent=f"{self._agent} › {subject.agent}",
                    access=subject.access,
                    tool_call_id=self._call_id,
                    view=subject.view,
                )
            case ServerStart() | WorkspaceTrust() | PlanApproval():
                return await self._parent.ask(request)
            case _:
                named = DelegatedAccess(
                    agent=self._agent,
                    access=subject,
                    tool_call_id=self._call_id,
                    view=self._views.get(subject.tool_call_id),
                )
        asked = PermissionQuestion(subject=named, options=request.options, reason=request.reason)
        return await self._parent.ask(asked)
