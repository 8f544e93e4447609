"""rich's Markdown as the terminal draws the model's text, and the parser behind it (both
loaded with the first block that needs them)."""

from __future__ import annotations

import copy
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from rich.markdown import Markdown

__all__ = ["block_parser", "inline_parser", "markdown", "template"]


def markdown(text: str) -> Markdown:
    """`text` as rich Markdown (code fences highlighted; links shown with their address)."""
    # rich's constructor builds a new parser for every block it is given, which is most of
    # what a short paragraph costs; one parser, set up as rich sets up its own, parses them all
    # (parsing keeps no state in the parser). The rest of the object is the template's.
    shown = copy.copy(template())
    shown.markup = text
    shown.parsed = inline_parser().parse(text)
    return shown


@cache
def template() -> Markdown:
    """The Markdown object every block's is copied from (rich's settings for the terminal)."""
    from rich.markdown import Markdown

    return Markdown("", code_theme="ansi_dark", hyperlinks=False)


@cache
def inline_parser() -> MarkdownIt:
    """The parser of every block, set up as rich sets up its own."""
    from markdown_it import MarkdownIt

    return MarkdownIt().enable("strikethrough").enable("table")


@cache
def block_parser() -> MarkdownIt:
    """`inline_parser` that reads a block's structure only (its paragraphs' lines left as
    they are)."""
    from markdown_it import MarkdownIt

    return MarkdownIt().enable("strikethrough").enable("table").disable("inline")
