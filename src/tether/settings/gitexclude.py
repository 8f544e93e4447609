"""Keeping a personal file out of git: a line in the repository's `info/exclude`."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from tether.bounded import UnreadableFile, read_bounded_text

__all__ = ["exclude_from_git", "git_dir"]

log = logging.getLogger(__name__)


def git_dir(start: Path) -> tuple[Path, Path] | None:
    """The working tree's top and the repository's common git directory holding `start`."""
    for directory in (start, *start.parents):
        marker = directory / ".git"
        if marker.is_dir():
            return directory, marker
        if marker.is_file():
            try:
                text = read_bounded_text(marker, limit=4096).strip()
            except (OSError, UnreadableFile):
                return None
            if not text.startswith("gitdir:"):
                return None
            linked = (directory / text.removeprefix("gitdir:").strip()).resolve()
            common = linked
            try:
                relative = read_bounded_text(linked / "commondir", limit=4096).strip()
                common = (linked / relative).resolve()
            except (OSError, UnreadableFile):
                pass
            return directory, common
    return None


def exclude_from_git(path: Path) -> bool:
    """Add `path` to its repository's `info/exclude` (once); whether a line was added."""
    found = git_dir(path.parent)
    if found is None:
        return False
    top, common = found
    try:
        pattern = "/" + path.relative_to(top).as_posix()
    except ValueError:
        return False
    exclude = common / "info" / "exclude"
    try:
        existing = read_bounded_text(exclude)
    except FileNotFoundError:
        existing = ""
    except (OSError, UnreadableFile) as exc:
        log.warning("cannot add %s to %s: %s", pattern, exclude, exc)
        return False
    if pattern in (line.strip() for line in existing.splitlines()):
        return False
    text = existing + ("" if not existing or existing.endswith("\n") else "\n") + pattern + "\n"
    try:
        exclude.parent.mkdir(parents=True, exist_ok=True)
        temporary = exclude.with_name(f".exclude.{os.getpid()}.tmp")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, exclude)
    except OSError as exc:
        log.warning("cannot add %s to %s: %s", pattern, exclude, exc)
        return False
    return True
