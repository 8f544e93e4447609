"""The `ls` tool's collector and text: a directory's files in path order, drawn as a tree.

ripgrep lists the files (so .gitignore is respected and hidden files are listed); the
collector keeps the first `limit` in path order, however many there are, and counts them all.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

from tether.tools.search.paths import Later
from tether.tools.search.rg import RgRun

__all__ = ["TreeCollector", "tree_text"]


class TreeCollector:
    """Feed it ripgrep's `--files --null` paths; it keeps the first `limit` in path order."""

    def __init__(self, limit: int, display: Callable[[bytes], str]) -> None:
        self.limit = limit
        self._display = display
        # The heap's smallest entry is the last path in order: the one to drop for a smaller.
        self._heap: list[Later] = []
        self.total = 0

    def feed(self, path: bytes) -> None:
        """Take one listed path, relative to the listed directory."""
        if not path:
            return
        self.total += 1
        entry = Later(path)
        if len(self._heap) < self.limit:
            heapq.heappush(self._heap, entry)
        elif path < self._heap[0].path:
            heapq.heapreplace(self._heap, entry)

    def ended(self, run: RgRun) -> bool:
        """Close after the run; `False` when ripgrep failed (exit 2) and listed nothing."""
        return not (run.returncode == 2 and self.total == 0)

    def relative(self) -> tuple[str, ...]:
        """The kept paths, relative to the listed directory, in path order."""
        return tuple(
            entry.path.decode("utf-8", "replace") for entry in sorted(self._heap, reverse=True)
        )

    def paths(self) -> tuple[str, ...]:
        """The kept paths as the model sees them, in path order."""
        return tuple(self._display(entry.path) for entry in sorted(self._heap, reverse=True))


def tree_text(root: str, relative: tuple[str, ...], total: int) -> str:
    """`- ROOT/` then each directory once and each file, indented two spaces a level."""
    lines = [f"- {root.rstrip('/')}/"]
    opened: list[str] = []
    for path in relative:
        *dirs, name = path.split("/")
        common = 0
        while common < min(len(opened), len(dirs)) and opened[common] == dirs[common]:
            common += 1
        for depth in range(common, len(dirs)):
            lines.append(f"{'  ' * (depth + 1)}- {dirs[depth]}/")
        opened = dirs
        lines.append(f"{'  ' * (len(dirs) + 1)}- {name}")
    if not relative:
        lines.append("  (no files)")
    if total > len(relative):
        lines += [
            "",
            f"(Showing the first {len(relative)} of {total} files. List a subdirectory, or use "
            "glob or grep, to see the rest.)",
        ]
    return "\n".join(lines)
