"""Markdown in the terminal: the model's text and a fetched page's preview, rendered by rich."""

from __future__ import annotations

from rich.markdown import Markdown

__all__ = ["markdown"]


def markdown(text: str) -> Markdown:
    """`text` as rich Markdown (code fences highlighted; links shown with their address)."""
    return Markdown(text, code_theme="ansi_dark", hyperlinks=False)
