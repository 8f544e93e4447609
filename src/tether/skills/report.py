"""The skills of a session as `/skills` lists them: one report for the terminal and editors."""

from __future__ import annotations

from pathlib import Path

from tether.frontmatter import catalog_notes
from tether.home import shown_path
from tether.skills.catalog import SKILL_DIRS, SkillCatalog

__all__ = ["skills_text"]


def skills_text(catalog: SkillCatalog, workspace: Path) -> str:
    """Each skill's name, where it is and what it is for, then the skills left out and why."""
    lines: list[str] = []
    if not len(catalog):
        places = ", ".join(f"{d}/" for d in SKILL_DIRS)
        lines.append(
            f"No skills. A skill is a folder with a SKILL.md, in {places}, "
            "$TETHER_HOME/skills/ or ~/.claude/skills/."
        )
    else:
        lines.append(f"Skills ({len(catalog)}): the model loads one with the `skill` tool.")
        for skill in catalog.skills.values():
            lines.append("")
            lines.append(f"  {skill.name}  ({shown_path(skill.path, workspace)})")
            lines.append(f"    {skill.description}")
            if skill.allowed_tools:
                lines.append(f"    allowed-tools: {', '.join(skill.allowed_tools)}")
    lines += catalog_notes(catalog.warnings, [str(problem) for problem in catalog.problems])
    return "\n".join(lines)
