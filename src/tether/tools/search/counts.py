"""Grep's `count` collector: ripgrep's `--count --null` lines folded into the first files.

Each line is `PATH\\0N`: the number of matching lines in one file. Files arrive in no fixed
order; the first `limit` in path order are kept (sorted, the last evicted past the limit),
so memory stays bounded whatever the number of files, and every count adds to the totals.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable

from tether.tools.search.rg import RgRun
from tether.views import SearchFile

__all__ = ["CountCollector"]


class CountCollector:
    """Feed it ripgrep's count lines; it keeps the first `limit` files and sums them all."""

    def __init__(self, limit: int, display: Callable[[bytes], str]) -> None:
        self.limit = limit
        self._display = display
        self._kept: list[tuple[tuple[bytes, ...], bytes, int]] = []
        self.total = 0
        """Matching lines in every file."""
        self.total_files = 0
        """Files with at least one matching line."""

    def feed(self, line: bytes) -> None:
        """Take one `PATH\\0N` line; anything else (a path holding a newline) is skipped."""
        path, separator, number = line.rpartition(b"\0")
        if not separator or not path or not number.isdigit():
            return
        count = int(number)
        if count == 0:
            return
        self.total += count
        self.total_files += 1
        bisect.insort(self._kept, (tuple(path.split(b"/")), path, count))
        if len(self._kept) > self.limit:
            self._kept.pop()

    def ended(self, run: RgRun) -> bool:
        """Close after the run; `False` when ripgrep failed (exit 2) and counted nothing."""
        return not (run.returncode == 2 and self.total_files == 0)

    def files(self) -> tuple[SearchFile, ...]:
        """The kept files in path order, each with its count and no lines."""
        return tuple(
            SearchFile(path=self._display(path), matches=(), count=count)
            for _, path, count in self._kept
        )
