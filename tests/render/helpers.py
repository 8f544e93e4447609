"""Rendering cards to text and styled segments, as a terminal would show them."""

from __future__ import annotations

import io
from pathlib import Path

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
