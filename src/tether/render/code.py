"""Numbered, highlighted lines of code: the body of the read card and of a notebook's cells."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

from tether.highlight import highlight_lines
from tether.render.theme import GUTTER, code_text

__all__ = ["code_view"]


def code_view(
    numbers: list[int], texts: list[str], lang: str | None, width: int | None = None
) -> Group:
    """Numbered, highlighted lines: a dim right-aligned gutter, a rule, then the code.

    Each row is one uncropped gutter (`width` digits, else the widest number's) followed by
    the code, cropped with an ellipsis at the card's edge, so a long line never pushes the
    numbers out of their column.
    """
    width = width or len(str(max(numbers, default=0)))
    # One text of all the rows, a line each: rich cuts and draws each line of it as it would
    # a text of its own (no wrapping, an ellipsis at the edge), with far fewer objects.
    rows = Text("\n").join(
        Text.assemble((f"{number:>{width}} │ ", GUTTER), code_text(tokens))
        for number, tokens in zip(numbers, highlight_lines(texts, lang), strict=True)
    )
    rows.no_wrap, rows.overflow = True, "ellipsis"
    return Group(rows) if numbers else Group()
