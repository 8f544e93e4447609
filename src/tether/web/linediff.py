"""Line diffs for the diff card: hunks of context, removed and added lines with numbers."""

from __future__ import annotations

import difflib
from typing import Literal, TypedDict

__all__ = ["DiffLine", "Hunk", "diff_hunks", "line_count"]

CONTEXT_LINES = 3
"""Unchanged lines shown around each change, as in a unified diff."""


class DiffLine(TypedDict):
    """One row of a hunk: `op` is ' ' (context), '-' (removed) or '+' (added)."""

    op: Literal[" ", "-", "+"]
    old: int | None
    new: int | None
    text: str


class Hunk(TypedDict):
    """A run of changed lines with their context; numbers are 1-based."""

    oldStart: int
    newStart: int
    lines: list[DiffLine]


def _split(text: str | None) -> list[str]:
    # A missing file and an empty file both have no lines; CRLF shows as plain lines.
    if not text:
        return []
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if text.endswith("\n"):
        lines.pop()
    return lines


def line_count(text: str | None) -> int:
    """Lines in a text as the diff counts them (a last line without a newline counts)."""
    return len(_split(text))


def diff_hunks(
    old_text: str | None, new_text: str, old_start: int = 1, new_start: int = 1
) -> list[Hunk]:
    """The unified-diff hunks that turn `old_text` into `new_text` (`None` = new file).

    `old_start`/`new_start` are the file line numbers of the texts' first lines, for
    texts that are a fragment of a file (an edit's hunk) rather than the whole of it.
    """
    old, new = _split(old_text), _split(new_text)
    o, n = old_start - 1, new_start - 1
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    hunks: list[Hunk] = []
    for group in matcher.get_grouped_opcodes(CONTEXT_LINES):
        rows: list[DiffLine] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                rows.extend(
                    DiffLine(op=" ", old=o + i + 1, new=n + j + 1, text=old[i])
                    for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
                )
                continue
            rows.extend(
                DiffLine(op="-", old=o + i + 1, new=None, text=old[i]) for i in range(i1, i2)
            )
            rows.extend(
                DiffLine(op="+", old=None, new=n + j + 1, text=new[j]) for j in range(j1, j2)
            )
        first = group[0]
        hunks.append(Hunk(oldStart=o + first[1] + 1, newStart=n + first[3] + 1, lines=rows))
    return hunks
