"""One skill's `SKILL.md`: front matter that describes it, a body that teaches the task.

    ---
    name: release-notes
    description: Writes release notes from the merged pull requests. Use when asked for a changelog.
    allowed-tools: Bash(git log:*), Read
    ---
    # Release notes
    1. Run `scripts/prs.sh` ...

`description` is required (the model decides from it whether the skill applies); `name`
defaults to the folder's name; `allowed-tools` (a comma list or a YAML list, in Claude Code's
notation) is kept and shown, and grants nothing: tether's permission rules decide (a warning
says so). `license`, `metadata` and `compatibility` describe the skill and are kept out of the
prompt; every other key (Claude Code's `model`, `context`, `hooks`, ...) is a warning naming
the file, the key and why. The front matter is read by `tether.frontmatter`; anything it
cannot read is an error naming the file and the line, and the skill is left out, never
half-read. The file is read through `tether.bounded`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from tether.bounded import read_bounded_text
from tether.errors import FrontMatterError, SkillFileError, UnreadableFile
from tether.frontmatter import (
    FrontMatterField,
    FrontMatterWarning,
    parse_front_matter,
    pop_description,
    pop_name,
    unused_keys,
)
from tether.lazy import pattern

__all__ = [
    "MAX_DESCRIPTION_CHARS",
    "MAX_SKILL_BYTES",
    "SKILL_FILE",
    "Skill",
    "SkillScope",
    "SkillText",
    "parse_skill",
    "read_skill",
    "read_skill_text",
]

SKILL_FILE = "SKILL.md"
MAX_SKILL_BYTES = 256 * 1024
"""A `SKILL.md` larger than this is refused: instructions, not a data dump, belong in it."""
MAX_DESCRIPTION_CHARS = 1024

SkillScope = Literal["project", "user"]
"""`project`: the workspace's (`.tether/skills/`, `.claude/skills/`); `user`: yours."""

_DESCRIBING = frozenset({"license", "metadata", "compatibility"})
UNSUPPORTED_SKILL_KEYS: dict[str, str] = {
    "model": "is not supported: a skill runs on the session's model",
    "context": "is not supported: a skill is loaded into the conversation, never forked",
    "agent": "is not supported: a skill is loaded into the conversation, never forked",
    "hooks": "is not supported: hooks come from the settings files",
    "disable-model-invocation": "is not supported: the model may always load a skill",
    "user-invocable": "is not supported: skills are not slash commands in tether",
    "argument-hint": "is not supported: skills are not slash commands in tether",
}
"""Keys of Claude Code's skills that tether does not use, and why."""
_SKILL_KEYS = frozenset(
    {"name", "description", "allowed-tools", *_DESCRIBING, *UNSUPPORTED_SKILL_KEYS}
)
_GRANTS_NOTHING = "is shown and grants nothing: tether's permission rules decide"

_NAME = pattern(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


@dataclass(frozen=True)
class Skill:
    """A skill as the catalog knows it: what the model is told, and where its file is."""

    name: str
    description: str
    path: Path
    """Its `SKILL.md`."""
    scope: SkillScope
    allowed_tools: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    """What its file says that tether does not use: each names the file, the key and why."""

    @property
    def folder(self) -> Path:
        """The skill's folder: its scripts and references are there."""
        return self.path.parent


@dataclass(frozen=True)
class SkillText:
    """A skill's file as loaded: all of it (for its card) and its body (for the model)."""

    skill: Skill
    text: str
    body: str


def read_skill(path: Path, scope: SkillScope, *, root: Path | None = None) -> Skill:
    """The skill `path` (a `SKILL.md`) describes; `SkillFileError` when it cannot be one."""
    return read_skill_text(path, scope, root=root).skill


def read_skill_text(path: Path, scope: SkillScope, *, root: Path | None = None) -> SkillText:
    """The skill and its text, read now. A project's file (`root` its workspace) is read only
    from inside the workspace, and never through a symbolic link."""
    project = scope == "project"
    if project and root is not None:
        real = Path(os.path.realpath(path.parent))
        if not real.is_relative_to(Path(os.path.realpath(root))):
            raise SkillFileError(f"{path}: its folder leads outside the workspace ({real})")
    try:
        text = read_bounded_text(path, limit=MAX_SKILL_BYTES, follow_symlinks=not project)
    except FileNotFoundError:
        raise SkillFileError(f"{path}: not found") from None
    except UnreadableFile as exc:
        raise SkillFileError(str(exc)) from None
    return parse_skill(path, text, scope)


def parse_skill(path: Path, text: str, scope: SkillScope) -> SkillText:
    """The skill `text` (the content of `path`) defines."""
    try:
        front = parse_front_matter(text, known=_SKILL_KEYS)
        return _skill_text(path, text, front.fields, front.body, scope)
    except FrontMatterError as exc:
        raise SkillFileError(exc.where(path)) from None


def _skill_text(
    path: Path, text: str, given: dict[str, FrontMatterField], body: str, scope: SkillScope
) -> SkillText:
    fields = dict(given)
    name = pop_name(
        fields,
        path.parent.name,
        _NAME,
        "a skill name (letters, digits, '-', '_', '.'; at most 64 characters)",
    )
    described = pop_description(fields)
    description = " ".join(described.text().split())
    if not description:
        raise FrontMatterError("the description is empty", described.line)
    if len(description) > MAX_DESCRIPTION_CHARS:
        raise FrontMatterError(
            f"the description is longer than {MAX_DESCRIPTION_CHARS} characters", described.line
        )
    warnings: list[FrontMatterWarning] = []
    allowed = fields.pop("allowed-tools", None)
    if allowed is not None and allowed.items(spaces=True):
        warnings.append(FrontMatterWarning(path, allowed.line, allowed.key, _GRANTS_NOTHING))
    for key in _DESCRIBING:
        fields.pop(key, None)
    warnings += unused_keys(path, fields, UNSUPPORTED_SKILL_KEYS, "is not a key of skills; ignored")
    skill = Skill(
        name=name,
        description=description,
        path=path,
        scope=scope,
        allowed_tools=tuple(allowed.items(spaces=True)) if allowed is not None else (),
        warnings=tuple(str(w) for w in warnings),
    )
    return SkillText(skill=skill, text=text, body=body.strip())
