"""The diff card: removed and added lines with their old and new line numbers."""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import groupby

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text

from tether.render.theme import (
    ADDED,
    GUTTER,
    HEADING,
    REMOVED,
    TAB_SIZE,
    card,
    note,
    printable,
)
from tether.views import DiffCallView, DiffResultView, FileDiff

__all__ = ["MAX_ROWS_PER_FILE", "render_diff", "split_lines"]

CONTEXT = 3
"""Unchanged lines kept around each change, as in a unified diff."""
MAX_ROWS_PER_FILE = 400
"""Rows shown per file before the rest is summarised: a whole new file can be long."""


@dataclass(frozen=True)
class _Row:
    old: int | None
    new: int | None
    sign: str
    text: str


@dataclass(frozen=True)
class _Hunk:
    diff: FileDiff
    start: int | None
    """The new-file line the diff's text starts at; `None` when its place is unknown."""


def render_diff(view: DiffCallView | DiffResultView) -> RenderableType:
    """One section per file: the path and counts, then the changed lines with both numbers."""
    hunks = [_Hunk(d, s) for d, s in zip(view.diffs, _starts(view), strict=True)]
    sections: list[RenderableType] = []
    for path, same_file in groupby(hunks, key=lambda h: h.diff.path):
        sections.append(_file_section(path, list(same_file)))
    if not sections:
        sections.append(note("no files changed"))
    title = Text(printable(view.title), style=HEADING) if view.title else None
    return card(Group(*sections), title=title)


def split_lines(text: str) -> list[str]:
    """Lines as the read tool counts them: split at `\\n`, one trailing `\\r` dropped."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def _starts(view: DiffCallView | DiffResultView) -> list[int | None]:
    """Where each diff starts in its new file.

    A location pairs with a diff only when there is one per diff, naming the same file. A
    paired location without a line (an edit not yet applied) leaves the place unknown, so no
    numbers are shown rather than wrong ones; a diff without a location is a whole file.
    """
    locations = view.locations or ()
    if len(locations) != len(view.diffs):
        return [1] * len(view.diffs)
    return [
        loc.line if loc.path == diff.path else 1
        for loc, diff in zip(locations, view.diffs, strict=True)
    ]


def _file_section(path: str, hunks: list[_Hunk]) -> Group:
    blocks: list[list[_Row]] = []
    shift = 0  # lines the earlier hunks of this file added, to place later ones in the old file
    for hunk in hunks:
        old = split_lines(hunk.diff.old_text) if hunk.diff.old_text is not None else []
        new = split_lines(hunk.diff.new_text)
        new_base = (hunk.start or 1) - 1
        found = _blocks(old, new, new_base - shift, new_base)
        if hunk.start is None:
            found = [[replace(row, old=None, new=None) for row in block] for block in found]
        blocks.extend(found)
        shift += len(new) - len(old)
    rows = [row for block in blocks for row in block]
    added = sum(row.sign == "+" for row in rows)
    removed = sum(row.sign == "-" for row in rows)
    header = Text.assemble(
        (printable(path), HEADING), "  ", (f"+{added}", ADDED), " ", (f"−{removed}", REMOVED)
    )
    if len(hunks) == 1 and hunks[0].diff.old_text is None:
        header.append("  new file", GUTTER)
    parts: list[RenderableType] = [header]
    if not rows:
        # A new file with no rows can only be an empty one.
        parts.append(note("empty file" if _all_new(hunks) else "no changes"))
    parts.extend(_render_blocks(blocks))
    return Group(*parts)


def _all_new(hunks: Sequence[_Hunk]) -> bool:
    return all(h.diff.old_text is None for h in hunks)


def _blocks(old: list[str], new: list[str], old_base: int, new_base: int) -> list[list[_Row]]:
    """The changed regions of one old/new pair with their context, numbered from the bases."""
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    blocks: list[list[_Row]] = []
    # difflib leaves out groups without a change, so identical texts give no blocks at all.
    for group in matcher.get_grouped_opcodes(CONTEXT):
        rows: list[_Row] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                rows.extend(
                    _Row(old_base + i + 1, new_base + j + 1, " ", old[i])
                    for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
                )
                continue
            rows.extend(_Row(old_base + i + 1, None, "-", old[i]) for i in range(i1, i2))
            rows.extend(_Row(None, new_base + j + 1, "+", new[j]) for j in range(j1, j2))
        blocks.append(rows)
    return blocks


def _render_blocks(blocks: list[list[_Row]]) -> Iterator[Text]:
    rows = [row for block in blocks for row in block]
    numbers = [n for r in rows for n in (r.old, r.new) if n is not None]
    width = len(str(max(numbers))) if numbers else 0  # no numbers: no gutter at all
    gap = f"{'⋯':>{width}} {'':>{width}} │" if width else "⋯"
    shown = 0
    for index, block in enumerate(blocks):
        if index:
            yield Text(gap, style=GUTTER)
        for row in block:
            if shown == MAX_ROWS_PER_FILE:
                yield note(f"… {len(rows) - shown} more diff lines not shown")
                return
            shown += 1
            yield _row_text(row, width)


_ROW_STYLE = {"+": ADDED, "-": REMOVED, " ": Style()}


def _row_text(row: _Row, width: int) -> Text:
    old = "" if row.old is None else str(row.old)
    new = "" if row.new is None else str(row.new)
    text = Text(no_wrap=True, overflow="ellipsis")
    if width:
        text.append(f"{old:>{width}} {new:>{width}} │ ", GUTTER)
    line = printable(row.text.expandtabs(TAB_SIZE))
    text.append(f"{row.sign} {line}", _ROW_STYLE[row.sign])
    return text
