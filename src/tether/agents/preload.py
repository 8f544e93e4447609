"""An agent's system prompt: its file's body, then the skills its `skills:` preloads."""

from __future__ import annotations

import logging
from pathlib import Path

from tether.agents.definition import AgentDefinition
from tether.errors import SkillFileError
from tether.skills import SkillCatalog, read_skill_text

__all__ = ["agent_prompt"]

log = logging.getLogger(__name__)


def agent_prompt(agent: AgentDefinition, skills: SkillCatalog, workspace: Path) -> str:
    """The agent's prompt, followed by the whole text of each skill it names, as Claude Code
    preloads them (a skill that is not there is said in a warning, and left out)."""
    parts = [agent.prompt]
    where = agent.source or agent.name
    for name in agent.skills:
        skill = skills.get(name)
        if skill is None:
            log.warning("%s: `skills` names %r, which is not a skill of this session", where, name)
            continue
        try:
            loaded = read_skill_text(skill.path, skill.scope, root=workspace)
        except SkillFileError as exc:
            log.warning("%s: the skill %s cannot be preloaded: %s", where, name, exc)
            continue
        parts.append(f"# The skill {name} ({skill.path})\n\n{loaded.body}")
    return "\n\n".join(parts)
