"""Line diffs, one engine for every surface.

The edit tool cuts a change into hunks (`hunks`: texts and where each starts in the new
file); the terminal card and the web page number the rows of a card's diffs
(`placed_diffs`: the same placement rule for both). Lines are numbered as the read tool
numbers them: split at `\\n` only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal, NamedTuple

from tether.views import FileDiff, Location

__all__ = [
    "CONTEXT_LINES",
    "DiffRow",
    "Hunk",
    "PlacedDiff",
    "RowHunk",
    "display_lines",
    "hunks",
    "placed_diffs",
    "row_hunks",
]

CONTEXT_LINES = 3
"""Unchanged lines kept around each change, as in a unified diff."""


@dataclass(frozen=True)
class Hunk:
    """One hunk: its old and new lines (line endings kept) and where it starts in the new file."""

    old_text: str
    new_text: str
    new_start: int
    """1-based line in the new file where the hunk's first line is."""


class DiffRow(NamedTuple):
    """One row of a numbered hunk: `op` is ' ' (context), '-' (removed) or '+' (added)."""

    # This and the placing below are tuples: a replayed session numbers the rows of every
    # edit it shows, and a tuple is made at a third of a frozen dataclass's cost.

    op: Literal[" ", "-", "+"]
    old: int | None
    new: int | None
    text: str


class RowHunk(NamedTuple):
    """A run of changed rows with their context; numbers are 1-based."""

    old_start: int
    new_start: int
    rows: tuple[DiffRow, ...]


class PlacedDiff(NamedTuple):
    """A card's file diff, numbered where the file puts it; `placed` is false when unknown."""

    diff: FileDiff
    placed: bool
    hunks: tuple[RowHunk, ...]


class _Change(NamedTuple):
    old_start: int
    old_end: int
    new_start: int
    new_end: int


class _Span(NamedTuple):
    """A group of changes with its context: half-open line ranges of both sides."""

    old_start: int
    old_end: int
    new_start: int
    new_end: int
    changes: tuple[_Change, ...]


def hunks(old: str, new: str, context: int = CONTEXT_LINES) -> list[Hunk]:
    """The hunks that turn `old` into `new`; empty when they are equal."""
    a, b = _lines_with_ends(old), _lines_with_ends(new)
    return [
        Hunk(
            "".join(a[span.old_start : span.old_end]),
            "".join(b[span.new_start : span.new_end]),
            span.new_start + 1,
        )
        for span in _spans(a, b, context)
    ]


def display_lines(text: str | None) -> list[str]:
    """Lines as shown: split at `\\n`, one trailing `\\r` dropped; `None` (no file) has none."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def row_hunks(
    old_text: str | None, new_text: str, old_start: int = 1, new_start: int = 1
) -> list[RowHunk]:
    """The numbered hunks that turn `old_text` into `new_text` (`None` = new file).

    `old_start`/`new_start` are the file line numbers of the texts' first lines, for texts
    that are a fragment of a file (an edit's hunk) rather than the whole of it.
    """
    old, new = display_lines(old_text), display_lines(new_text)
    o, n = old_start - 1, new_start - 1

    def equal(i: int, end: int, j: int) -> list[DiffRow]:
        """Context rows: old lines `i:end`, which are the new lines from `j` on."""
        return [DiffRow(" ", o + k + 1, n + j + k - i + 1, old[k]) for k in range(i, end)]

    out = []
    for span in _spans(old, new, CONTEXT_LINES):
        rows: list[DiffRow] = []
        i, j = span.old_start, span.new_start
        for change in span.changes:
            rows.extend(equal(i, change.old_start, j))
            rows.extend(
                DiffRow("-", o + k + 1, None, old[k])
                for k in range(change.old_start, change.old_end)
            )
            rows.extend(
                DiffRow("+", None, n + k + 1, new[k])
                for k in range(change.new_start, change.new_end)
            )
            i, j = change.old_end, change.new_end
        rows.extend(equal(i, span.old_end, j))
        out.append(RowHunk(o + span.old_start + 1, n + span.new_start + 1, tuple(rows)))
    return out


def placed_diffs(
    diffs: Sequence[FileDiff], locations: Sequence[Location] | None
) -> list[PlacedDiff]:
    """A card's diffs with their hunks numbered where the file puts them.

    A location pairs with a diff only when there is one per diff, naming the same file: its
    line is where the diff's text starts in the new file, and a paired location without a
    line (an edit not yet applied) leaves the place unknown: numbered from 1 with `placed`
    false, so surfaces show no numbers rather than wrong ones. A diff without a paired
    location is a whole file, as ACP's diffs are. Earlier fragments of the same file shift
    the old numbering by what they added or removed.
    """
    paired = locations is not None and len(locations) == len(diffs)
    shift: dict[str, int] = {}
    out = []
    for index, diff in enumerate(diffs):
        start: int | None = 1
        if paired and locations is not None and locations[index].path == diff.path:
            start = locations[index].line
        moved = shift.get(diff.path, 0)
        if start is None:
            found = row_hunks(diff.old_text, diff.new_text)
        else:
            found = row_hunks(diff.old_text, diff.new_text, start - moved, start)
        out.append(PlacedDiff(diff, start is not None, tuple(found)))
        shift[diff.path] = moved + _line_count(diff.new_text) - _line_count(diff.old_text)
    return out


def _line_count(text: str | None) -> int:
    """`len(display_lines(text))`, without making the lines."""
    if not text:
        return 0
    return text.count("\n") + (not text.endswith("\n"))


def _changed(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int, int, int]]:
    """The ranges of `a` and `b` that differ, as `SequenceMatcher`'s opcodes other than
    `equal` give them (`a` and `b` share no first or last line)."""
    if len(a) <= 1 and len(b) <= 1:
        # A line replaced, added or removed (most edits, once their common head and tail are
        # cut off): its one change, without the matcher's set-up.
        return [(0, len(a), 0, len(b))] if a or b else []
    matcher = SequenceMatcher(None, a, b, False)
    return [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _lines_with_ends(text: str) -> list[str]:
    """Lines ending at `\\n` (kept), numbered as the read tool numbers them."""
    # Not `str.splitlines`: it also splits at form feeds and Unicode line separators.
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _spans(a: Sequence[str], b: Sequence[str], context: int) -> list[_Span]:
    """The changes from `a` to `b`, grouped with their context.

    The common head and tail are cut off first, so only the changed middle is diffed: an
    edit to a large file costs a pass over it, not a quadratic line match. Changes whose
    context would touch or overlap go in one group.
    """
    shorter = min(len(a), len(b))
    head = 0
    while head < shorter and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < shorter - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    groups: list[list[_Change]] = []
    for i1, i2, j1, j2 in _changed(a[head : len(a) - tail], b[head : len(b) - tail]):
        change = _Change(i1 + head, i2 + head, j1 + head, j2 + head)
        if groups and change.old_start - groups[-1][-1].old_end <= 2 * context:
            groups[-1].append(change)
        else:
            groups.append([change])
    spans = []
    for group in groups:
        first, last = group[0], group[-1]
        # Lines before the first change and after the last are equal on both sides, so the
        # context around them has the same length in the old and the new file.
        lead = min(context, first.old_start)
        trail = min(context, len(a) - last.old_end)
        spans.append(
            _Span(
                first.old_start - lead,
                last.old_end + trail,
                first.new_start - lead,
                last.new_end + trail,
                tuple(group),
            )
        )
    return spans
