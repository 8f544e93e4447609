"""Markdown in the terminal: the model's text and a fetched page's preview, rendered by rich.

rich's Markdown and its parser (with Pygments, which rich's Markdown loads for code blocks)
load with the first block that needs them: a session whose text is lines of plain words
prints without them.
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment

from tether.render.long_paragraph import LONG, LongParagraph
from tether.render.markdown_parser import markdown
from tether.render.written import WholeLines

__all__ = ["bare_block", "markdown", "text_block"]


def text_block(text: str) -> RenderableType:
    """A block of the model's text: a line of plain words drawn as rich's Markdown draws that
    paragraph, a long paragraph a piece at a time, anything else as rich's Markdown."""
    if len(text) >= LONG:
        return LongParagraph(text)
    line = text.strip("\n")
    if _PLAIN_LINE.fullmatch(line) and line.isprintable():
        return PlainParagraph(line, text)
    return markdown(text)


_PLAIN_LINE = re.compile(r"[^\W\d_][^\\`*_~\[\]!<>&|#\t\n]*(?<=\S)")
"""A line Markdown reads as one paragraph of one text, as it is: it starts with a letter
(not a list, heading, quote or code block), holds no character that marks anything up (no
escape, emphasis, code, link, image, HTML, entity or table) and ends on a non-space."""


class PlainParagraph(WholeLines):
    """One line of plain words: padded to the width as rich pads a Markdown paragraph, when
    it fits; rich's Markdown of the block when it must be wrapped."""

    def __init__(self, line: str, block: str) -> None:
        self.line = line
        self.block = block

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The line and its padding; the Markdown where it would differ."""
        drawn = self.drawn(console, options)
        if drawn is None:
            yield markdown(self.block)
        else:
            yield from drawn

    def drawn(self, console: Console, options: ConsoleOptions) -> list[Segment] | None:
        """The line padded to the width, then its line break; None if rich's Markdown must
        lay the block out (the line does not fit, or the theme styles paragraphs)."""
        padded = _padded(self.line, console, options)
        return None if padded is None else [Segment(padded)]


def bare_block(text: str, console: Console, options: ConsoleOptions) -> str | None:
    """What a console without colour (`written.bare_options`) writes of `text_block(text)`
    where that is a line of plain words that fits; None for any other block."""
    if len(text) >= LONG:
        return None
    line = text.strip("\n")
    if _PLAIN_LINE.fullmatch(line) and line.isprintable():
        return _padded(line, console, options)
    return None


def _padded(line: str, console: Console, options: ConsoleOptions) -> str | None:
    """A line of plain words padded to the width as rich pads a Markdown paragraph, with its
    line break; None if it does not fit, or the theme styles paragraphs."""
    width = options.max_width
    used = cell_len(line)
    if used > width or console.get_style("markdown.paragraph", default="none"):
        return None
    return line + " " * (width - used) + "\n"
