"""Rendering cards to text and styled segments, as a terminal would show them."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from rich.console import Console, RenderableType
from rich.segment import Segment

GOLDEN = Path(__file__).parent / "golden"
WIDTH = 100


def plain(renderable: RenderableType, width: int = WIDTH) -> str:
    """The card as uncoloured text."""
    console = Console(record=True, width=width, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def segments(renderable: RenderableType, width: int = WIDTH) -> list[Segment]:
    """The card as styled segments, rendered for a truecolor terminal."""
    console = Console(
        record=True, width=width, color_system="truecolor", force_terminal=True, file=io.StringIO()
    )
    return list(console.render(renderable))


def body_lines(text: str) -> list[str]:
    """The lines inside a card's frame, without the border and its padding."""
    rows = text.splitlines()[1:-1]
    return [row[2:-2].rstrip() for row in rows]


KINDS: dict[str, dict[str, Any]] = {
    "plain": {"color_system": None},
    "truecolor": {"color_system": "truecolor", "force_terminal": True},
}
"""The consoles a long paragraph is written to: without colour, and in colour."""


def paragraph_written(block: str, kind: str, width: int, sizes: tuple[int, int, int] | None) -> str:
    """What is written of `block`: a piece at a time (`sizes`: group, most, window), or rich's
    Markdown whole (`None`)."""
    from tether.render.long_paragraph import LongParagraph
    from tether.render.markdown import markdown
    from tether.render.written import print_renderable

    out = io.StringIO()
    console = Console(file=out, width=width, height=25, highlight=False, **KINDS[kind])
    if sizes is None:
        console.print(markdown(block))
    else:
        group, most, window = sizes
        print_renderable(console, LongParagraph(block, group=group, most=most, window=window))
    return out.getvalue()
