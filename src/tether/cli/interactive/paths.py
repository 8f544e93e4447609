"""The workspace's files for `@` completion: ripgrep's list, `.gitignore` respected, ranked.

The list comes from the same `rg` the search tools run (`--files`, ignore files honoured
also outside a git repository, hidden files skipped), is kept for a while and refreshed in
the background, and is bounded: a huge tree yields its first `MAX_FILES` paths.
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

from tether.errors import ToolError
from tether.tools.search.rg import run_rg

__all__ = ["MAX_FILES", "FileIndex", "rank"]

log = logging.getLogger(__name__)

MAX_FILES = 50_000
"""Paths kept from one listing."""
STALE_AFTER = 10.0
"""Seconds after which the next `@` lists the files again."""
_LIST_TIMEOUT = 10.0


class FileIndex:
    """The files under `cwd`, relative to it, with the directories that hold them."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self.paths: list[str] = []
        self._listed_at: float | None = None
        self._listing: asyncio.Task[None] | None = None

    @property
    def stale(self) -> bool:
        """Whether the list is missing or old enough to list again."""
        return self._listed_at is None or time.monotonic() - self._listed_at > STALE_AFTER

    def refresh(self) -> asyncio.Task[None]:
        """List the files again in the background (one listing at a time)."""
        if self._listing is None or self._listing.done():
            self._listing = asyncio.get_running_loop().create_task(self._list())
        return self._listing

    async def _list(self) -> None:
        found: list[str] = []

        def add(line: bytes) -> None:
            if len(found) < MAX_FILES:
                found.append(line.decode("utf-8", "replace"))

        try:
            await run_rg(
                ["--files", "--null", "--no-config", "--no-require-git", "--sort", "path"],
                self.cwd,
                on_line=add,
                cancelled=asyncio.Event(),
                timeout=_LIST_TIMEOUT,
                max_bytes=64 * 1024 * 1024,
                max_line_bytes=4096,
                separator=b"\0",
            )
        except ToolError as exc:
            log.warning("cannot list the workspace's files: %s", exc)
        folders = {str(Path(p).parent) + "/" for p in found if "/" in p}
        self.paths = sorted(folders) + found
        self._listed_at = time.monotonic()

    def matches(self, query: str, limit: int = 20) -> list[str]:
        """The paths that best match `query` (see `rank`), at most `limit`."""
        return rank(self.paths, query, limit)


def rank(paths: list[str], query: str, limit: int) -> list[str]:
    """Paths containing every character of `query` in order, best first.

    Best: the file name starts with the query, then contains it, then the path contains it,
    then the characters appear in order anywhere; shorter paths first within each group.
    """
    if not query:
        return sorted(paths, key=lambda p: (p.count("/"), len(p), p))[:limit]
    lowered = query.lower()
    scored: list[tuple[int, int, str]] = []
    for path in paths:
        low = path.lower()
        name = low.rstrip("/").rsplit("/", 1)[-1]
        if name.startswith(lowered):
            score = 0
        elif lowered in name:
            score = 1
        elif lowered in low:
            score = 2
        elif _in_order(lowered, low):
            score = 3
        else:
            continue
        scored.append((score, len(path), path))
    scored.sort()
    return [path for _, _, path in scored[:limit]]


def _in_order(query: str, text: str) -> bool:
    at = 0
    for char in query:
        at = text.find(char, at) + 1
        if at == 0:
            return False
    return True
