"""The read card: a highlighted window of a file with its real line numbers in a gutter."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from tether.render.code import code_view
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

__all__ = ["COLLAPSE_OVER", "KEEP_HEAD", "KEEP_TAIL", "render_read_result"]

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
    parts: list[RenderableType] = []
    if view.lines:
        lines = view.lines
        last = lines.numbers[-1]
        width = len(str(last))
        if not full and len(lines) > COLLAPSE_OVER:
            hidden = len(lines) - KEEP_HEAD - KEEP_TAIL
            head, tail = lines[:KEEP_HEAD], lines[-KEEP_TAIL:]
            parts.append(code_view(head.numbers, _expanded(head.texts), view.lang, width))
            parts.append(note(f"… {hidden} lines …"))
            parts.append(code_view(tail.numbers, _expanded(tail.texts), view.lang, width))
        else:
            parts.append(code_view(lines.numbers, _expanded(lines.texts), view.lang, width))
        if last < view.total_lines:
            parts.append(note(_continuation(view, last)))
    elif view.total_lines == 0:
        parts.append(note("empty file"))
    else:
        parts.append(
            note(f"empty window: no lines shown from offset={view.offset} of {view.total_lines}")
        )
    return card(Group(*parts), title=title)


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
    return [text.expandtabs(TAB_SIZE) for text in texts]


def _window_label(view: ReadResultView) -> str:
    if view.total_lines == 0:
        return "empty file"
    if not view.lines:
        return f"0 lines of {view.total_lines}"
    first, last = view.lines.numbers[0], view.lines.numbers[-1]
    return f"lines {first}–{last} of {view.total_lines}"
