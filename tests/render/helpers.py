"""Rendering cards to text and styled segments, as a terminal would show them."""

from __future__ import annotations

import copy
import io
import re
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from rich.console import Console, RenderableType
from rich.panel import Panel
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


CONSOLES = {
    "plain": {"color_system": None},
    "plain, recorded": {"color_system": None, "record": True},
    "truecolor": {"color_system": "truecolor", "force_terminal": True},
    "256 colours": {"color_system": "256", "force_terminal": True},
    "no colour": {"color_system": "truecolor", "force_terminal": True, "no_color": True},
    "ascii": {"color_system": "standard", "force_terminal": True, "legacy_windows": False},
}
"""The consoles a card is drawn on: plain, recorded, in colour, 256 colours, NO_COLOR, ASCII."""
LINK_ID = re.compile(r"\x1b]8;id=\d+;")
# Wide, zero-width and combining characters, tabs, breaks and control codes among plain words.
ALPHABET = st.sampled_from(
    [*"abc xyz", "  ", "\t", "\n", "名", "🎉", "é", "e\u0301", "\u200b", "\x1b", "\x07", "…", "│"]
)


def drawn(renderable: RenderableType, kind: str, width: int) -> str:
    """What `console.print` writes for `renderable` on a console of `kind`."""
    options = dict(CONSOLES[kind])
    encoding = "ascii" if kind == "ascii" else "utf-8"
    out = io.TextIOWrapper(io.BytesIO(), encoding=encoding, errors="replace")
    console = Console(file=out, width=width, highlight=False, **options)  # type: ignore[arg-type]
    console.print(renderable)
    out.flush()
    buffer = out.buffer
    assert isinstance(buffer, io.BytesIO)
    # A hyperlink's id is drawn at random: equal output is equal but for it.
    return LINK_ID.sub("\x1b]8;id=0;", buffer.getvalue().decode(encoding, "replace"))


def as_rich_draws(drawn_card: Panel) -> Panel:
    """The same card as a plain rich `Panel`: rich's own layout, the reference."""
    panel = copy.copy(drawn_card)
    panel.__class__ = Panel
    return panel
