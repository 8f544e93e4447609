"""Which skills a session has: `NAME/SKILL.md` folders in the workspace and in your folders.

Folders, the first of a name winning: `.tether/skills/` and Claude Code's `.claude/skills/`
in the workspace, then `$TETHER_HOME/skills/` and `~/.claude/skills/` (`$CLAUDE_CONFIG_DIR`
as Claude Code reads it), so a project's skill replaces one of yours of the same name. A
skill that cannot be read is a `SkillProblem` naming its file, and is left out; a project's
folder that leads outside the workspace is not read at all.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tether.errors import SkillFileError
from tether.frontmatter import log_once
from tether.instructions.files import claude_home
from tether.skills.files import SKILL_FILE, Skill, SkillScope, read_skill

__all__ = ["MAX_SKILLS", "SKILL_DIRS", "SkillCatalog", "SkillProblem", "load_skills"]

log = logging.getLogger(__name__)

SKILL_DIRS = (".tether/skills", ".claude/skills")
"""Where a workspace keeps its skills (and `skills/` in `$TETHER_HOME`, `.claude/skills/` in
your home)."""

MAX_SKILLS = 200
"""Skill folders read from one place; more are left out, and that is said."""


@dataclass(frozen=True)
class SkillProblem:
    """A skill left out: its file (or folder), and why."""

    path: Path
    message: str
    """Names the file, and the line when there is one."""

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class SkillCatalog:
    """The skills of a session by name (sorted), and what was left out."""

    skills: Mapping[str, Skill]
    problems: tuple[SkillProblem, ...] = ()
    warnings: tuple[str, ...] = ()
    """What the skills' files say that tether does not use: file, key and why."""

    def get(self, name: str) -> Skill | None:
        """The skill called `name`, if any."""
        return self.skills.get(name)

    def names(self) -> list[str]:
        """Every skill's name."""
        return list(self.skills)

    def __len__(self) -> int:
        return len(self.skills)


def load_skills(
    workspace: Path, tether_home: Path | None, claude: Path | None = None
) -> SkillCatalog:
    """The skills of `workspace`, `tether_home` (`$TETHER_HOME`) and `claude`, Claude Code's
    user directory (`None`: `$CLAUDE_CONFIG_DIR`, else `~/.claude`)."""
    places: list[tuple[Path, SkillScope]] = [(workspace / d, "project") for d in SKILL_DIRS]
    if tether_home is not None:
        places.append((tether_home / "skills", "user"))
    places.append(((claude or claude_home()) / "skills", "user"))
    found: dict[str, Skill] = {}
    problems: list[SkillProblem] = []
    seen: set[Path] = set()
    for folder, scope in places:
        real = Path(os.path.realpath(folder))
        if real in seen:  # $TETHER_HOME may be ~/.claude, or a workspace your home
            continue
        seen.add(real)
        for skill in _read_folder(folder, scope, workspace, problems):
            if skill.name in found:
                log.info(
                    "%s: the skill %s of %s wins", skill.path, skill.name, found[skill.name].path
                )
                continue
            found[skill.name] = skill
    for problem in problems:
        log.warning("skill left out: %s", problem.message)
    skills = {name: found[name] for name in sorted(found)}
    warnings = tuple(w for skill in skills.values() for w in skill.warnings)
    for warning in warnings:
        log_once(log, f"skill: {warning}")
    return SkillCatalog(skills, tuple(problems), warnings)


def _read_folder(
    folder: Path, scope: SkillScope, workspace: Path, problems: list[SkillProblem]
) -> list[Skill]:
    project = scope == "project"
    try:
        if not folder.is_dir():
            return []
        if project and not folder.resolve().is_relative_to(workspace.resolve()):
            message = f"{folder}: leads outside the workspace; its skills are not read"
            problems.append(SkillProblem(folder, message))
            return []
        entries = sorted(p for p in folder.iterdir() if p.is_dir())
    except OSError as exc:
        problems.append(SkillProblem(folder, f"{folder}: cannot be listed: {exc.strerror or exc}"))
        return []
    if len(entries) > MAX_SKILLS:
        message = f"{folder}: more than {MAX_SKILLS} skills; the rest are left out"
        problems.append(SkillProblem(folder, message))
        entries = entries[:MAX_SKILLS]
    skills = []
    for entry in entries:
        path = entry / SKILL_FILE
        if not os.path.lexists(path):
            continue  # a folder of something else (a shared script directory, say)
        try:
            skills.append(read_skill(path, scope, root=workspace if project else None))
        except SkillFileError as exc:
            problems.append(SkillProblem(path, str(exc)))
    return skills
