"""A session's skills over ACP: those left out are said when the session opens, and `/skills`
lists them all as the agent's message."""

from __future__ import annotations

from acp import update_agent_message_text

from tether.acp.context import AgentContext, OpenSession
from tether.skills import skills_text

__all__ = ["announce_skills", "list_skills"]


def announce_skills(ctx: AgentContext, opened: OpenSession) -> None:
    """Say which skills were left out, and why (the others load as usual)."""
    notify = ctx.notifier(opened)
    for problem in opened.session.skills.problems:
        notify(f"skill left out: {problem}")


def list_skills(ctx: AgentContext, opened: OpenSession) -> None:
    """`/skills`: each skill, where it is and what it is for, and the ones left out."""
    session = opened.session
    text = "```text\n" + skills_text(session.skills, session.cwd) + "\n```\n"
    ctx.post_acp(opened, update_agent_message_text(text))
