"""The canonical values of `grep` and `glob`: what was found, how much, and whether it was cut."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tether.views import SearchFile

__all__ = ["GlobValue", "GrepValue", "Stop"]

Stop = Literal["timeout", "cancelled", "overflow"]


@dataclass(frozen=True)
class GrepValue:
    """The first matches grouped by file, and the exact number of matching lines."""

    pattern: str
    files: tuple[SearchFile, ...]
    total: int
    stopped: Stop | None = None
    """Set when the search was stopped before its end; `total` then counts what it saw."""
    total_files: int | None = None
    """Files with a match, listed or not (`None` when unknown)."""

    @property
    def shown(self) -> int:
        """How many matches are listed."""
        return sum(len(f.matches) for f in self.files)

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
