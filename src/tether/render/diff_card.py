"""The diff card: removed and added lines with their old and new line numbers."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby
from operator import add

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.style import Style
from rich.text import Span, Text

from tether.linediff import DiffRow, PlacedDiff, placed_diffs
from tether.render.frame import bare_card, fitting_rows, one_cell_each, padded_rows
from tether.render.theme import (
    ADDED,
    GUTTER,
    HEADING,
    REMOVED,
    TAB_SIZE,
    assembled,
    card,
    note,
    printable,
)
from tether.views import DiffCallView, DiffResultView

__all__ = ["MAX_ROWS_PER_FILE", "bare_diff", "render_diff"]

MAX_ROWS_PER_FILE = 400
"""Rows shown per file before the rest is summarised: a whole new file can be long."""


def render_diff(view: DiffCallView | DiffResultView) -> RenderableType:
    """One section per file: the path and counts, then the changed lines with both numbers."""
    title = Text(printable(view.title), style=HEADING) if view.title else None
    return card(Group(*_sections(view)), title=title)


def bare_diff(
    view: DiffCallView | DiffResultView, console: Console, options: ConsoleOptions
) -> str | None:
    """What a console without colour writes of `render_diff(view)` at `options`' width, its
    rows' and headers' bare text in the frame's (no group or frame made); None where rich
    must lay some of it out (a line that does not fit as it is)."""
    inner = options.max_width - 4
    rows: list[str] = []
    for section in _sections(view):
        parts = section.renderables if isinstance(section, Group) else [section]
        for part in parts:
            if isinstance(part, DiffRows):
                drawn = part.drawn_rows(inner)
            elif isinstance(part, Text) and part.justify is None and part.end == "\n":
                drawn = fitting_rows(part.plain, inner)
            else:
                return None
            if drawn is None:
                return None
            rows += drawn
    title = Text(printable(view.title)).plain if view.title else None
    return bare_card(console, options, title, rows)


def _sections(view: DiffCallView | DiffResultView) -> list[RenderableType]:
    """A section per file, or a note that none changed."""
    placed = placed_diffs(view.diffs, view.locations)
    sections: list[RenderableType] = [
        _file_section(path, list(same_file))
        for path, same_file in groupby(placed, key=lambda p: p.diff.path)
    ]
    return sections or [note("no files changed")]


def _file_section(path: str, diffs: list[PlacedDiff]) -> Group:
    blocks = [
        [row if d.placed else DiffRow(row.op, None, None, row.text) for row in hunk.rows]
        for d in diffs
        for hunk in d.hunks
    ]
    rows = [row for block in blocks for row in block]
    added = sum(row.op == "+" for row in rows)
    removed = sum(row.op == "-" for row in rows)
    header = assembled(
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


def _render_blocks(blocks: list[list[DiffRow]]) -> Iterator[RenderableType]:
    rows = [row for block in blocks for row in block]
    numbers = [n for r in rows for n in (r.old, r.new) if n is not None]
    width = len(str(max(numbers))) if numbers else 0  # no numbers: no gutter at all
    gap = f"{'⋯':>{width}} {'':>{width}} │" if width else "⋯"
    left = MAX_ROWS_PER_FILE
    for index, block in enumerate(blocks):
        if index:
            yield Text(gap, style=GUTTER)
        if shown := block[:left]:
            yield DiffRows(shown, width)
        if len(block) > left:
            yield note(f"… {len(rows) - MAX_ROWS_PER_FILE} more diff lines not shown")
            return
        left -= len(block)


_ROW_STYLE = {"+": ADDED, "-": REMOVED, " ": Style()}


class DiffRows:
    """A block's rows, each its two numbers (in a gutter `width` digits wide, none at 0), its
    operation and its text: rich draws each as a text of its own, cut with an ellipsis at the
    card's edge; without colour, a card writes each row's bare line as it is when it fits."""

    def __init__(self, rows: list[DiffRow], width: int) -> None:
        self.gutters = [_gutter(row, width) for row in rows] if width else [""] * len(rows)
        self.ops = [row.op for row in rows]
        self.lines = [f"{row.op} {printable(row.text.expandtabs(TAB_SIZE))}" for row in rows]

    def texts(self) -> list[Text]:
        """Each row as rich text: the gutter dim, the line in its operation's colour."""
        texts = []
        for gutter, op, line in zip(self.gutters, self.ops, self.lines, strict=True):
            # What `Text.append` makes of the two pieces (`printable` left no control code
            # for it to strip; a plain style gets no span), made at once.
            end = len(gutter) + len(line)
            spans = [Span(0, len(gutter), GUTTER)] if gutter else []
            if op != " ":
                spans.append(Span(len(gutter), end, _ROW_STYLE[op]))
            texts.append(Text(gutter + line, no_wrap=True, overflow="ellipsis", spans=spans))
        return texts

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The rows as rich draws their texts."""
        yield from self.texts()

    def drawn_rows(self, width: int) -> list[str] | None:
        """Each row's bare line padded to `width`; None if a row does not fit as it is."""
        rows = list(map(add, self.gutters, self.lines))
        if one_cell_each("".join(rows)):
            return padded_rows(rows, width)
        rows = []
        for gutter, line in zip(self.gutters, self.lines, strict=True):
            if "\n" in line:
                return None
            # Printable ASCII is a cell a character (`printable` left no control code).
            used = cell_len(gutter) + (len(line) if line.isascii() else cell_len(line))
            if used > width:
                return None
            rows.append(f"{gutter}{line}{' ' * (width - used)}")
        return rows


def _gutter(row: DiffRow, width: int) -> str:
    old = "" if row.old is None else str(row.old)
    new = "" if row.new is None else str(row.new)
    return f"{old.rjust(width)} {new.rjust(width)} │ "
