"""The diff card: removed and added lines with their old and new line numbers."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text

from tether.linediff import DiffRow, PlacedDiff, placed_diffs
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
from tether.views import DiffCallView, DiffResultView

__all__ = ["MAX_ROWS_PER_FILE", "render_diff"]

MAX_ROWS_PER_FILE = 400
"""Rows shown per file before the rest is summarised: a whole new file can be long."""


def render_diff(view: DiffCallView | DiffResultView) -> RenderableType:
    """One section per file: the path and counts, then the changed lines with both numbers."""
    placed = placed_diffs(view.diffs, view.locations)
    sections: list[RenderableType] = []
    for path, same_file in groupby(placed, key=lambda p: p.diff.path):
        sections.append(_file_section(path, list(same_file)))
    if not sections:
        sections.append(note("no files changed"))
    title = Text(printable(view.title), style=HEADING) if view.title else None
    return card(Group(*sections), title=title)


def _file_section(path: str, diffs: list[PlacedDiff]) -> Group:
    blocks = [
        [row if d.placed else DiffRow(row.op, None, None, row.text) for row in hunk.rows]
        for d in diffs
        for hunk in d.hunks
    ]
    rows = [row for block in blocks for row in block]
    added = sum(row.op == "+" for row in rows)
    removed = sum(row.op == "-" for row in rows)
    header = Text.assemble(
        (printable(path), HEADING), "  ", (f"+{added}", ADDED), " ", (f"−{removed}", REMOVED)
    )
    new_files = all(d.diff.old_text is None for d in diffs)
    if len(diffs) == 1 and new_files:
        header.append("  new file", GUTTER)
    parts: list[RenderableType] = [header]
    if not rows:
        # A new file with no rows can only be an empty one.
        parts.append(note("empty file" if new_files else "no changes"))
    parts.extend(_render_blocks(blocks))
    return Group(*parts)


def _render_blocks(blocks: list[list[DiffRow]]) -> Iterator[Text]:
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


def _row_text(row: DiffRow, width: int) -> Text:
    old = "" if row.old is None else str(row.old)
    new = "" if row.new is None else str(row.new)
    text = Text(no_wrap=True, overflow="ellipsis")
    if width:
        text.append(f"{old:>{width}} {new:>{width}} │ ", GUTTER)
    line = printable(row.text.expandtabs(TAB_SIZE))
    text.append(f"{row.op} {line}", _ROW_STYLE[row.op])
    return text
