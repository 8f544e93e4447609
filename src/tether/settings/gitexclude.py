"""Keeping a personal file out of git: a line in the repository's `info/exclude`.

The git directory is the workspace's, and a sandboxed command may write in it (all but its
hooks and config): `info/exclude` is read and replaced without following a link, and only in
a directory that is a git directory, so a link planted there can neither bring a file from
outside into the workspace nor have tether write one outside it.
"""

from __future__ import annotations

import logging
from pathlib import Path

from tether.bounded import read_bounded_text
from tether.errors import ToolError, UnreadableFile
from tether.tools.fs.atomic import atomic_write

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
    if not (common / "HEAD").is_file():
        return False  # a `gitdir:` naming a folder that is no repository
    try:
        pattern = "/" + path.relative_to(top).as_posix()
    except ValueError:
        return False
    exclude = common / "info" / "exclude"
    try:
        existing = read_bounded_text(exclude, follow_symlinks=False)
    except FileNotFoundError:
        existing = ""
    except (OSError, UnreadableFile) as exc:
        log.warning("cannot add %s to %s: %s", pattern, exclude, exc)
        return False
    if pattern in (line.strip() for line in existing.splitlines()):
        return False
    text = existing + ("" if not existing or existing.endswith("\n") else "\n") + pattern + "\n"
    try:
        atomic_write(exclude, text.encode("utf-8"), (common,), make_parents=True)
    except (OSError, ToolError) as exc:
        log.warning("cannot add %s to %s: %s", pattern, exclude, exc)
        return False
    return True
