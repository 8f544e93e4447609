"""The skills of a session as `/skills` lists them: one report for the terminal and editors."""

from __future__ import annotations

from pathlib import Path

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
            lines.append(f"  {skill.name}  ({_short(skill.path, workspace)})")
            lines.append(f"    {skill.description}")
            if skill.allowed_tools:
                lines.append(f"    allowed-tools: {', '.join(skill.allowed_tools)}")
    if catalog.warnings:
        lines.append("")
        lines.append("Not supported:")
        lines.extend(f"  {warning}" for warning in catalog.warnings)
    if catalog.problems:
        lines.append("")
        lines.append("Left out:")
        lines.extend(f"  {problem}" for problem in catalog.problems)
    return "\n".join(lines)


def _short(path: Path, workspace: Path) -> str:
    if path.is_relative_to(workspace):
        return str(path.relative_to(workspace))
    home = Path.home()
    if path.is_relative_to(home):
        return f"~/{path.relative_to(home)}"
    return str(path)
