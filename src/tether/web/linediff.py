"""Line diffs for the diff card: hunks of context, removed and added lines with numbers."""

from __future__ import annotations

import difflib
from typing import Literal, TypedDict

__all__ = ["DiffLine", "Hunk", "diff_hunks"]

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


def diff_hunks(old_text: str | None, new_text: str) -> list[Hunk]:
    """The unified-diff hunks that turn `old_text` into `new_text` (`None` = new file)."""
    old, new = _split(old_text), _split(new_text)
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    hunks: list[Hunk] = []
    for group in matcher.get_grouped_opcodes(CONTEXT_LINES):
        rows: list[DiffLine] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                rows.extend(
                    DiffLine(op=" ", old=i + 1, new=j + 1, text=old[i])
                    for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
                )
                continue
            rows.extend(DiffLine(op="-", old=i + 1, new=None, text=old[i]) for i in range(i1, i2))
            rows.extend(DiffLine(op="+", old=None, new=j + 1, text=new[j]) for j in range(j1, j2))
        first = group[0]
        hunks.append(Hunk(oldStart=first[1] + 1, newStart=first[3] + 1, lines=rows))
    return hunks
