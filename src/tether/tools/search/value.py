"""The canonical values of `grep` and `glob`: what was found, how much, and whether it was cut."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tether.views import SearchFile

__all__ = ["SEARCH_TIMEOUT_SECONDS", "GlobValue", "GrepValue", "OutputMode", "Stop"]

SEARCH_TIMEOUT_SECONDS = 30.0
"""How long one search may run before its group is stopped (`rg.run_rg`). Here, not with the
runner, so that a replayed card's footer names it without loading the runner's processes."""

Stop = Literal["timeout", "cancelled", "overflow"]
OutputMode = Literal["content", "files_with_matches", "count"]


@dataclass(frozen=True)
class GrepValue:
    """What a search found, by `mode`.

    - `content`: the first matching lines grouped by file (with any context lines);
      `total` is the exact number of matching lines.
    - `count`: the first files in path order, each with its `count`; `total` is the
      number of matching lines, `total_files` of files.
    - `files_with_matches`: the newest matching files, no lines; `total` counts the files.
    """

    pattern: str
    files: tuple[SearchFile, ...]
    total: int
    stopped: Stop | None = None
    """Set when the search was stopped before its end; `total` then counts what it saw."""
    total_files: int | None = None
    """Files with a match, listed or not (`None` when unknown)."""
    mode: OutputMode = "content"
    offset: int = 0
    """Entries left out before those listed (the call's `offset`)."""

    @property
    def shown(self) -> int:
        """How much of `total` is listed: matching lines, or files."""
        match self.mode:
            case "content":
                return sum(not m.context for f in self.files for m in f.matches)
            case "count":
                return sum(f.count or 0 for f in self.files)
            case "files_with_matches":
                return len(self.files)

    @property
    def truncated(self) -> bool:
        """Whether matches exist that are not listed."""
        return self.stopped is not None or self.shown < self.total


@dataclass(frozen=True)
class GlobValue:
    """The newest matching files, and how many matched in all."""

    pattern: str
    paths: tuple[str, ...]
    total: int
    stopped: Stop | None = None

    @property
    def truncated(self) -> bool:
        """Whether matching files exist that are not listed."""
        return self.stopped is not None or len(self.paths) < self.total
