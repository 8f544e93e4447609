"""Shared by the skills' tests: a skill folder written."""

from __future__ import annotations

from pathlib import Path

__all__ = ["skill"]


def skill(folder: Path, name: str, description: str, body: str = "Do it.", **extra: str) -> Path:
    """`folder/name/SKILL.md` with front matter."""
    path = folder / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    keys = "".join(f"{key}: {value}\n" for key, value in extra.items())
    path.write_text(f"---\nname: {name}\ndescription: {description}\n{keys}---\n{body}\n")
    return path
