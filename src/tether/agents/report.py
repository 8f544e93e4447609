"""The agents of a session as `/agents` lists them: one report for the terminal and editors."""

from __future__ import annotations

from pathlib import Path

from tether.agents.catalog import AGENTS_DIRS, AgentCatalog
from tether.frontmatter import catalog_notes
from tether.home import shown_path

__all__ = ["agents_text"]


def agents_text(catalog: AgentCatalog | None, workspace: Path) -> str:
    """Each agent's name, where it comes from, what it is for and what it may use; then what
    tether does not use of their files, and the files left out, and why."""
    if catalog is None:
        return "No agents: this session has no `task` tool."
    lines = [f"Agents ({len(catalog.agents)}): the model starts one with the `task` tool."]
    for agent in catalog.agents.values():
        where = shown_path(agent.source, workspace) if agent.source else "built in"
        color = f", {agent.color}" if agent.color else ""
        lines.append("")
        lines.append(f"  {agent.name}  ({where}{color})")
        first, *rest = agent.description.splitlines()
        lines.append(f"    {first}" + (f" (+{len(rest)} lines)" if rest else ""))
        tools = "every tool of its parent" if agent.tools is None else ", ".join(agent.tools)
        if agent.disallowed:
            tools += f"; not {', '.join(agent.disallowed)}"
        lines.append(f"    tools: {tools}")
        if agent.model:
            lines.append(f"    model: {agent.model}")
        if agent.skills:
            lines.append(f"    skills: {', '.join(agent.skills)}")
    lines += catalog_notes(catalog.warnings, [problem.message for problem in catalog.problems])
    places = ", ".join(f"{d}/" for d in AGENTS_DIRS)
    lines.append("")
    lines.append(f"Agent files: {places}, $TETHER_HOME/agents/, ~/.claude/agents/.")
    return "\n".join(lines)
