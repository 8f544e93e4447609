"""How a turn's questions reach a person: the `PermissionRequest` hooks first, then the
`Notification` hooks beside the question, their notices to the turn's own output.

The session's gate keeps the person's asker; each batch of calls the model makes gets
`turn_asking(...)`: a `NotifyingAsker` built with the turn's `emit`, the gate asking through
it (`AskingGate`) and agents started through it (`AskingDelegate`), so a child's question
runs its parent's hooks as well. Nothing is set on a shared object for the turn's length.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tether.policy import PermissionAnswer, PermissionAsker, PermissionQuestion, PolicyGate
from tether.session.children import Children
from tether.session.hooked import OnUpdate, SessionHooks
from tether.tools.access import Access, HookVerdict, PermissionOutcome
from tether.tools.delegate import AgentSummary, ChildOutcome, ChildProgress, ChildRequest
from tether.tools.planning import PlanVerdict

__all__ = ["AskingDelegate", "AskingGate", "NotifyingAsker", "TurnAsking", "turn_asking"]


class NotifyingAsker:
    """An asker that runs the `Notification` hooks whenever it asks a person, and first lets
    the `PermissionRequest` hooks answer; their notices go to `emit`."""

    def __init__(self, asker: PermissionAsker, hooks: SessionHooks, emit: OnUpdate) -> None:
        self.asker = asker
        self._hooks = hooks
        self._emit = emit

    async def ask(self, request: PermissionQuestion) -> PermissionAnswer:
        """Ask, unless a `PermissionRequest` hook answers; the `Notification` hooks are told
        that a question is waiting."""
        answered = await self._hooks.permission_request(request, self._emit)
        if answered is not None:
            return answered
        self._hooks.notify(f"tether needs your permission: {request.title}", self._emit)
        return await self.asker.ask(request)


class AskingGate:
    """The session's gate (its mode, rules and answers, shared), asking through `asker`."""

    def __init__(self, gate: PolicyGate, asker: PermissionAsker) -> None:
        self._gate = gate
        self._asker = asker

    async def authorize(
        self, access: Access, hook: HookVerdict | None = None
    ) -> PermissionOutcome | None:
        """As the session's gate decides, asking through this turn's asker."""
        return await self._gate.authorize(access, hook, via=self._asker)

    def hidden(self, root: Path, tool: str) -> tuple[str, ...]:
        """As the session's gate hides."""
        return self._gate.hidden(root, tool)

    @property
    def planning(self) -> bool:
        """Whether the session is in plan mode now."""
        return self._gate.planning

    async def approve_plan(self, plan: str, tool_call_id: str) -> PlanVerdict:
        """As the session's gate approves, asking through this turn's asker."""
        return await self._gate.approve_plan(plan, tool_call_id, via=self._asker)


class AskingDelegate:
    """The session's agents, whose questions go through `asker` (the turn's)."""

    def __init__(self, children: Children, asker: PermissionAsker) -> None:
        self._children = children
        self._asker = asker

    def agents(self) -> tuple[AgentSummary, ...]:
        """The agents a task may name."""
        return self._children.agents()

    async def run(
        self,
        request: ChildRequest,
        progress: Callable[[ChildProgress], None],
        cancelled: asyncio.Event,
    ) -> ChildOutcome:
        """Run the child as `Children.run` does, asking through the turn's asker."""
        return await self._children.run(request, progress, cancelled, via=self._asker)


@dataclass(frozen=True)
class TurnAsking:
    """Who a turn's questions go to, and the gate and the agents its calls use."""

    asker: PermissionAsker | None
    gate: PolicyGate | AskingGate
    delegate: Children | AskingDelegate | None


def turn_asking(
    gate: PolicyGate, delegate: Children | None, hooks: SessionHooks | None, emit: OnUpdate
) -> TurnAsking:
    """What the calls of a turn ask through: with `hooks` (a session a person started), the
    person's asker behind them, their notices to `emit`; else the gate as it is."""
    if hooks is None or gate.asker is None:
        return TurnAsking(gate.asker, gate, delegate)
    asker = NotifyingAsker(gate.asker, hooks, emit)
    through = AskingDelegate(delegate, asker) if delegate is not None else None
    return TurnAsking(asker, AskingGate(gate, asker), through)
