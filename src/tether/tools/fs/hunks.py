"""The hunks of a change to one file: changed lines with three lines of context around them."""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

__all__ = ["CONTEXT_LINES", "Hunk", "hunks"]

CONTEXT_LINES = 3


@dataclass(frozen=True)
class Hunk:
    """One hunk: its old and new lines (line endings kept) and where it starts in the new file."""

    old_text: str
    new_text: str
    new_start: int
    """1-based line in the new file where the hunk's first line is."""


@dataclass(frozen=True)
class _Change:
    old_start: int
    old_end: int
    new_start: int
    new_end: int


def hunks(old: str, new: str, context: int = CONTEXT_LINES) -> list[Hunk]:
    """The hunks that turn `old` into `new`; empty when they are equal.

    The common head and tail are cut off first, so only the changed middle is diffed: an
    edit to a large file costs a pass over it, not a quadratic line match.
    """
    a = _lines(old)
    b = _lines(new)
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    matcher = SequenceMatcher(None, a[head : len(a) - tail], b[head : len(b) - tail], False)
    changes = [
        _Change(i1 + head, i2 + head, j1 + head, j2 + head)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]
    return [_hunk(a, b, group, context) for group in _groups(changes, context)]


def _lines(text: str) -> list[str]:
    """Lines ending at `\\n` (kept), numbered as the read tool numbers them."""
    # Not `str.splitlines`: it also splits at form feeds and Unicode line separators.
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _groups(changes: list[_Change], context: int) -> list[list[_Change]]:
    """Changes whose context would touch or overlap go in one hunk."""
    groups: list[list[_Change]] = []
    for change in changes:
        if groups and change.old_start - groups[-1][-1].old_end <= 2 * context:
            groups[-1].append(change)
        else:
            groups.append([change])
    return groups


def _hunk(a: list[str], b: list[str], group: list[_Change], context: int) -> Hunk:
    first, last = group[0], group[-1]
    # Lines before the first change and after the last are equal on both sides, so the
    # context around them has the same length in the old and the new file.
    lead = min(context, first.old_start)
    trail = min(context, len(a) - last.old_end)
    old_lines = a[first.old_start - lead : last.old_end + trail]
    new_lines = b[first.new_start - lead : last.new_end + trail]
    return Hunk("".join(old_lines), "".join(new_lines), first.new_start - lead + 1)
