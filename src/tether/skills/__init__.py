"""Skills: `NAME/SKILL.md` folders that teach the model a task, in Claude Code's format.

    catalog = load_skills(workspace, tether_home)   # .tether/skills, .claude/skills, yours
    catalog.get("release-notes").description          # what the system prompt lists
    read_skill_text(skill.path, skill.scope, root=workspace).body   # what the `skill` tool loads

The system prompt lists each skill's name and description only; the `skill` tool
(`tether.tools.skill`) loads the rest when the model asks for it.
"""

from tether.skills.catalog import MAX_SKILLS, SKILL_DIRS, SkillCatalog, SkillProblem, load_skills
from tether.skills.files import (
    MAX_SKILL_BYTES,
    SKILL_FILE,
    Skill,
    SkillScope,
    SkillText,
    read_skill_text,
)
from tether.skills.report import skills_text

__all__ = [
    "MAX_SKILLS",
    "MAX_SKILL_BYTES",
    "SKILL_DIRS",
    "SKILL_FILE",
    "Skill",
    "SkillCatalog",
    "SkillProblem",
    "SkillScope",
    "SkillText",
    "load_skills",
    "read_skill_text",
    "skills_text",
]
