"""Markdown in the terminal: the model's text and a fetched page's preview, rendered by rich."""

from __future__ import annotations

import copy
from functools import cache

from markdown_it import MarkdownIt
from rich.markdown import Markdown

__all__ = ["markdown"]


def markdown(text: str) -> Markdown:
    """`text` as rich Markdown (code fences highlighted; links shown with their address)."""
    # rich's constructor builds a new parser for every block it is given, which is most of
    # what a short paragraph costs; one parser, set up as rich sets up its own, parses them all
    # (parsing keeps no state in the parser). The rest of the object is the template's.
    shown = copy.copy(_template())
    shown.markup = text
    shown.parsed = _parser().parse(text)
    return shown


@cache
def _template() -> Markdown:
    return Markdown("", code_theme="ansi_dark", hyperlinks=False)


@cache
def _parser() -> MarkdownIt:
    return MarkdownIt().enable("strikethrough").enable("table")
