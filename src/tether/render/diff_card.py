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
from tether.render.bare_rows import fitting_rows, one_cell_each, padded_rows
from tether.render.frame import bare_card
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
    rows' and headers' bare text in the frame's, made from the rows alone (no text, group or
    frame); None where rich must lay some of it out (a line that does not fit as it is)."""
    inner = options.max_width - 4
    rows: list[str] = []
    placed = placed_diffs(view.diffs, view.locations)
    for path, same_file in groupby(placed, key=_path):
        drawn = _bare_section(path, list(same_file), inner)
        if drawn is None:
            return None
        rows += drawn
    if not placed:
        drawn = fitting_rows(_NO_FILES, inner)
        if drawn is None:
            return None
        rows += drawn
    title = Text(printable(view.title)).plain if view.title else None
    return bare_card(console, options, title, rows)


def _sections(view: DiffCallView | DiffResultView) -> list[RenderableType]:
    """A section per file, or a note that none changed."""
    placed = placed_diffs(view.diffs, view.locations)
    sections: list[RenderableType] = [
        _file_section(path, list(same_file)) for path, same_file in groupby(placed, key=_path)
    ]
    return sections or [note(_NO_FILES)]


_NO_FILES = "no files changed"


def _path(placed: PlacedDiff) -> str:
    return placed.diff.path


def _file_blocks(diffs: list[PlacedDiff]) -> tuple[list[list[DiffRow]], bool]:
    """A file's blocks of rows (numbered where they are placed), and whether all its diffs
    are of new files."""
    blocks = [
        list(hunk.rows)
        if d.placed
        else [DiffRow(row.op, None, None, row.text) for row in hunk.rows]
        for d in diffs
        for hunk in d.hunks
    ]
    return blocks, all(d.diff.old_text is None for d in diffs)


def _counts(blocks: list[list[DiffRow]]) -> tuple[int, int, int]:
    """The rows of a file's blocks: all, added and removed."""
    ops = [row.op for block in blocks for row in block]
    return len(ops), ops.count("+"), ops.count("-")


def _file_section(path: str, diffs: list[PlacedDiff]) -> Group:
    blocks, new_files = _file_blocks(diffs)
    rows, added, removed = _counts(blocks)
    header = assembled(
        (printable(path), HEADING), "  ", (f"+{added}", ADDED), " ", (f"−{removed}", REMOVED)
    )
    if len(diffs) == 1 and new_files:
        header.append(_NEW_FILE, GUTTER)
    parts: list[RenderableType] = [header]
    if not rows:
        # A new file with no rows can only be an empty one.
        parts.append(note("empty file" if new_files else "no changes"))
    for part in _parts(blocks):
        if isinstance(part, DiffRows):
            parts.append(part)
        else:
            gap, said = part
            parts.append(Text(said, style=GUTTER) if gap else note(said))
    return Group(*parts)


_NEW_FILE = "  new file"


def _bare_section(path: str, diffs: list[PlacedDiff], inner: int) -> list[str] | None:
    """`_file_section`'s rows as a console without colour draws them at the card's inside
    width `inner`; None where rich must lay one out."""
    blocks, new_files = _file_blocks(diffs)
    rows, added, removed = _counts(blocks)
    # The header's text as `assembled` makes it: `printable` left the path no control code
    # for it to strip.
    header = f"{printable(path)}  +{added} −{removed}"
    if len(diffs) == 1 and new_files:
        header += _NEW_FILE
    texts: list[str | DiffRows] = [header]
    if not rows:
        texts.append("empty file" if new_files else "no changes")
    texts += [part if isinstance(part, DiffRows) else part[1] for part in _parts(blocks)]
    drawn: list[str] = []
    for text in texts:
        lines = text.drawn_rows(inner) if isinstance(text, DiffRows) else fitting_rows(text, inner)
        if lines is None:
            return None
        drawn += lines
    return drawn


def _parts(blocks: list[list[DiffRow]]) -> Iterator[DiffRows | tuple[bool, str]]:
    """A file's blocks of rows, with a gap between them (`(True, text)`) and a note of the
    rows left out (`(False, text)`)."""
    rows = [row for block in blocks for row in block]
    numbers = [n for r in rows for n in (r.old, r.new) if n is not None]
    width = len(str(max(numbers))) if numbers else 0  # no numbers: no gutter at all
    gap = f"{'⋯':>{width}} {'':>{width}} │" if width else "⋯"
    left = MAX_ROWS_PER_FILE
    for index, block in enumerate(blocks):
        if index:
            yield True, gap
        if shown := block[:left]:
            yield DiffRows(shown, width)
        if len(block) > left:
            yield False, f"… {len(rows) - MAX_ROWS_PER_FILE} more diff lines not shown"
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
