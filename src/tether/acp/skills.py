"""A session's skills and agents over ACP: those left out are said when the session opens, and
`/skills` and `/agents` list them all as the agent's message, with what of their files tether
does not use."""

from __future__ import annotations

from acp import update_agent_message_text

from tether.acp.context import AgentContext, OpenSession
from tether.agents import agents_text
from tether.skills import skills_text

__all__ = ["announce_skills", "list_agents", "list_skills"]


def announce_skills(ctx: AgentContext, opened: OpenSession) -> None:
    """Say which skills and agents were left out, and why (the others load as usual)."""
    notify = ctx.notifier(opened)
    session = opened.session
    for problem in session.skills.problems:
        notify(f"skill left out: {problem}")
    if session.agents is not None:
        for agent_problem in session.agents.problems:
            notify(f"agent left out: {agent_problem.message}")


def list_agents(ctx: AgentContext, opened: OpenSession) -> None:
    """`/agents`: each agent, where it comes from and what it may use, and what was left out."""
    session = opened.session
    text = "```text\n" + agents_text(session.agents, session.cwd) + "\n```\n"
    ctx.post_acp(opened, update_agent_message_text(text))


def list_skills(ctx: AgentContext, opened: OpenSession) -> None:
    """`/skills`: each skill, where it is and what it is for, and the ones left out."""
    session = opened.session
    text = "```text\n" + skills_text(session.skills, session.cwd) + "\n```\n"
    ctx.post_acp(opened, update_agent_message_text(text))
