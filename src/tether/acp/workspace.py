"""A session's settings over ACP: what was wrong in the files is shown when the session opens,
the workspace's trust is asked at its first prompt (the client knows the session by then),
and the rules are listed by `/permissions` (`tether.surface.dispatch`) and the
`_tether/permissions` extension method."""

from __future__ import annotations

from typing import Any

from acp import RequestError

from tether.acp.context import AgentContext, OpenSession
from tether.acp.errors import invalid_params
from tether.acp.switches import set_mode
from tether.policy import TrustDecision, apply_trust, ask_trust
from tether.session.log.workspace_events import TrustEvent
from tether.settings import Settings
from tether.settings.report import claude_file_lines, permissions_report
from tether.surface import settle_tools

__all__ = ["PERMISSIONS_METHOD", "announce", "permissions_method", "settle"]

PERMISSIONS_METHOD = "tether/permissions"
"""The extension method (`_tether/permissions` on the wire) that answers the report."""


def announce(ctx: AgentContext, opened: OpenSession) -> None:
    """Show what the settings files got wrong (each was ignored, the rest applies)."""
    settings = opened.session.gate.settings
    if settings is None:
        return
    notify = ctx.notifier(opened)
    for line in claude_file_lines(settings):
        notify(f"Claude Code settings {line}")
    for problem in settings.problems:
        notify(f"{problem} (ignored)")


async def settle(ctx: AgentContext, opened: OpenSession) -> None:
    """Once per session, before its first prompt: ask to trust the workspace when its own
    settings grant something, and apply them if the person says yes."""
    if opened.trust_asked:
        return
    opened.trust_asked = True
    session = opened.session
    gate = session.gate
    settings = gate.settings
    if settings is None or not settings.trust.needed:
        return
    said = session.trust_answer
    if said is not None and said.fingerprint == settings.trust.fingerprint:
        # Answered for this session before it was loaded again (its files as they were then):
        # the answer holds; it is not asked again.
        decision: TrustDecision | None = said.decision
    else:
        decision = await ask_trust(settings, session.asking().asker)
        if decision is not None:
            event = TrustEvent(
                root=str(settings.root), decision=decision, fingerprint=settings.trust.fingerprint
            )
            ctx.post(opened, session.record_trust(event))
    settled = settings if decision is None else apply_trust(settings, decision)
    notify = ctx.notifier(opened)
    if not settled.trust.trusted:
        if decision is not None:
            return  # the person's answer is the notice (posted above, or replayed)
        notify(
            f"{settled.root} is not trusted, so only its deny and ask rules apply; ignored: "
            + "; ".join(settled.trust.withheld)
        )
        return
    _apply(ctx, opened, settled)
    if settled.additional_directories != settings.additional_directories:
        notify("the workspace's additionalDirectories apply from its next session")


def _apply(ctx: AgentContext, opened: OpenSession, settings: Settings) -> None:
    session = opened.session
    session.gate.settings = settings
    # Settled before the first request: the model sees the tools as they end up here.
    settle_tools(session.tools, settings)
    chosen = settings.default_mode
    if chosen is not None and chosen.value != session.gate.mode:
        set_mode(ctx, opened, chosen.value)


def permissions_method(ctx: AgentContext, params: dict[str, Any]) -> dict[str, Any]:
    """`_tether/permissions {sessionId}`: the report of an open session, as JSON."""
    session_id = params.get("sessionId")
    if not isinstance(session_id, str):
        raise invalid_params("sessionId must be the id of an open session", {"params": params})
    gate = ctx.opened(session_id).session.gate
    if gate.settings is None:
        raise RequestError(-32603, f"Session {session_id} has no settings")
    return permissions_report(gate.settings, gate.mode)
