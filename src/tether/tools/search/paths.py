"""Glob's collector: the newest `limit` files of ripgrep's `--files --null` listing, and the count.

Only the newest `limit` paths are held (a heap keyed by modification time, ties by path), so
a listing of millions of files takes no more memory than the limit.
"""

from __future__ import annotations

import heapq
import os
from collections.abc import Callable
from functools import total_ordering
from pathlib import Path

from tether.tools.search.pattern import PathPattern
from tether.tools.search.rg import RgRun

__all__ = ["Later", "PathCollector"]


@total_ordering
class Later:
    """A path ordered backwards, so the heap's smallest entry is the one to drop first."""

    __slots__ = ("path",)

    def __init__(self, path: bytes) -> None:
        self.path = path

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Later) and self.path == other.path

    def __lt__(self, other: Later) -> bool:
        return self.path > other.path

    def __hash__(self) -> int:
        return hash(self.path)


class PathCollector:
    """Feed it the paths ripgrep lists under `root`; it keeps the newest `limit` that match
    `pattern` (all when none is given), and counts them all."""

    def __init__(
        self,
        root: Path,
        limit: int,
        display: Callable[[bytes], str],
        pattern: PathPattern | None = None,
    ) -> None:
        self.root = os.fsencode(root)
        self.limit = limit
        self._display = display
        self._pattern = pattern
        self._heap: list[tuple[int, Later]] = []
        self.total = 0

    def feed(self, path: bytes) -> None:
        """Take one listed path (relative to the root), if it matches the pattern."""
        if not path or (self._pattern and not self._pattern.matches(os.fsdecode(path))):
            return
        try:
            mtime = os.stat(os.path.join(self.root, path)).st_mtime_ns
        except OSError:
            return  # gone since ripgrep listed it
        self.total += 1
        entry = (mtime, Later(path))
        if len(self._heap) < self.limit:
            heapq.heappush(self._heap, entry)
        elif entry > self._heap[0]:
            heapq.heapreplace(self._heap, entry)

    def ended(self, run: RgRun) -> bool:
        """Close after the run; `False` when ripgrep failed (exit 2) and listed nothing."""
        # ripgrep exits 2 on any error, an unreadable directory too: what it listed stands.
        return not (run.returncode == 2 and self.total == 0)

    def paths(self) -> tuple[str, ...]:
        """The kept paths, newest first (equal times by path), as the model sees them."""
        ordered = sorted(self._heap, reverse=True)
        return tuple(self._display(later.path) for _, later in ordered)
