"""The read card: a highlighted window of a file with its real line numbers in a gutter."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.text import Text

from tether.render.bare_rows import fitting_rows, one_cell_each, padded_rows
from tether.render.code import code_rows, code_view
from tether.render.frame import bare_card
from tether.render.notebook_card import notebook_summary, render_notebook
from tether.render.theme import (
    HEADING,
    SUBTLE,
    TAB_SIZE,
    assembled,
    card,
    note,
    printable,
)
from tether.views import ReadResultView

__all__ = ["COLLAPSE_OVER", "KEEP_HEAD", "KEEP_TAIL", "bare_read_result", "render_read_result"]

COLLAPSE_OVER = 30
"""A read card longer than this many lines is shown collapsed unless asked in full."""
KEEP_HEAD = 12
"""Lines a collapsed card keeps from the start of its window."""
KEEP_TAIL = 6
"""Lines a collapsed card keeps from the end of its window."""


def render_read_result(
    view: ReadResultView, *, full: bool = True, brief: bool = False
) -> RenderableType:
    """Header with the path and the window, the code view, then how to continue.

    `brief` (the interactive terminal, unless `--verbose`): as short as Claude Code's, one
    line saying how many lines were read and from where (`Read 37 lines · src/app.py  lines
    1-37 of 37`); `/transcript` shows them. Else, unless `full`, a window of more than
    `COLLAPSE_OVER` lines keeps its first and last lines with `… N lines …` between. Only the
    lines shown are highlighted, so a card costs what it shows.
    """
    if view.notebook is not None:
        if brief:
            return notebook_summary(view.path, view.notebook)
        return render_notebook(view.path, view.notebook, full=full)
    if brief:
        return _summary(view)
    title = assembled((printable(view.path), HEADING), "  ", (_window_label(view), SUBTLE))
    parts: list[RenderableType] = [
        note(part) if isinstance(part, str) else code_view(*part, view.lang, _digits(view))
        for part in _parts(view, full=full)
    ]
    return card(Group(*parts), title=title)


def bare_read_result(
    view: ReadResultView, console: Console, options: ConsoleOptions, *, full: bool = True
) -> str | None:
    """What a console without colour writes of `render_read_result(view, full=full)` at
    `options`' width, made from the view's text alone (no rich text, group or frame); None
    where rich must lay some of it out (a line that does not fit as it is, a notebook)."""
    if view.notebook is not None:
        return None
    inner = options.max_width - 4
    digits = _digits(view)
    rows: list[str] = []
    for part in _parts(view, full=full):
        if isinstance(part, str):
            drawn = fitting_rows(part, inner)
        else:
            drawn = _bare_code(*part, view.lang, digits, inner)
        if drawn is None:
            return None
        rows += drawn
    title = f"{printable(view.path)}  {_window_label(view)}"
    return bare_card(console, options, title, rows)


def _bare_code(
    numbers: list[int], texts: list[str], lang: str | None, digits: int, inner: int
) -> list[str] | None:
    """`code_rows(numbers, texts, lang, digits).drawn_rows(inner)`, made at once where each
    character of the texts is one cell printed as it is (most code): a row is its number's
    gutter and its text, padded (no rows object, and the gutters, digits, need no look)."""
    if one_cell_each("".join(texts)):
        rows = [
            str(number).rjust(digits) + " │ " + text
            for number, text in zip(numbers, texts, strict=True)
        ]
        return padded_rows(rows, inner)
    return code_rows(numbers, texts, lang, digits).drawn_rows(inner)


def _parts(view: ReadResultView, *, full: bool) -> list[str | tuple[list[int], list[str]]]:
    """The card's body in order: windows of numbered lines (their numbers and texts), and
    notes."""
    lines = view.lines
    if not lines:
        if view.total_lines == 0:
            return ["empty file"]
        return [f"empty window: no lines shown from offset={view.offset} of {view.total_lines}"]
    parts: list[str | tuple[list[int], list[str]]]
    if not full and len(lines) > COLLAPSE_OVER:
        hidden = len(lines) - KEEP_HEAD - KEEP_TAIL
        head, tail = lines[:KEEP_HEAD], lines[-KEEP_TAIL:]
        parts = [
            (head.numbers, _expanded(head.texts)),
            f"… {hidden} lines …",
            (tail.numbers, _expanded(tail.texts)),
        ]
    else:
        parts = [(lines.numbers, _expanded(lines.texts))]
    last = lines.numbers[-1]
    if last < view.total_lines:
        parts.append(_continuation(view, last))
    return parts


def _digits(view: ReadResultView) -> int:
    """The gutter's width: the last line number's digits."""
    return len(str(view.lines.numbers[-1])) if view.lines else 0


def _summary(view: ReadResultView) -> Text:
    """The one line of a read, and how it continues when the file goes on."""
    count = len(view.lines)
    read = f"Read {count} line{'' if count == 1 else 's'}" if view.total_lines else "Read"
    line = Text.assemble(
        ("● ", "green"),
        (read, HEADING),
        " · ",
        printable(view.path),
        "  ",
        (_window_label(view), SUBTLE),
    )
    if view.lines and (last := view.lines.numbers[-1]) < view.total_lines:
        line.append(f"\n  {_continuation(view, last)}", SUBTLE)
    return line


def _continuation(view: ReadResultView, last: int) -> str:
    more = view.total_lines - last
    cut = f"cut at the {_size(view.byte_cap)} output cap · " if view.byte_cap else ""
    return f"{cut}… {more} more lines; continue at offset={last + 1}"


def _size(cap: int) -> str:
    return f"{cap // 1024} KB" if cap % 1024 == 0 else f"{cap} bytes"


def _expanded(texts: list[str]) -> list[str]:
    if "\t" not in "".join(texts):
        return texts
    return [text.expandtabs(TAB_SIZE) for text in texts]


def _window_label(view: ReadResultView) -> str:
    if view.total_lines == 0:
        return "empty file"
    if not view.lines:
        return f"0 lines of {view.total_lines}"
    first, last = view.lines.numbers[0], view.lines.numbers[-1]
    return f"lines {first}–{last} of {view.total_lines}"
