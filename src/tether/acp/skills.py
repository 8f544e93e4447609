"""A session's skills and agents over ACP: those left out are said when the session opens
(`/skills` and `/agents` list them all: `tether.surface.dispatch`)."""

from __future__ import annotations

from tether.acp.context import AgentContext, OpenSession

__all__ = ["announce_skills"]


def announce_skills(ctx: AgentContext, opened: OpenSession) -> None:
    """Say which skills and agents were left out, and why (the others load as usual)."""
    notify = ctx.notifier(opened)
    session = opened.session
    for problem in session.skills.problems:
        notify(f"skill left out: {problem}")
    if session.agents is not None:
        for agent_problem in session.agents.problems:
            notify(f"agent left out: {agent_problem.message}")
