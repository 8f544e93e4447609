"""A session's title: the first line of its first prompt, short enough for a list."""

from __future__ import annotations

from collections.abc import Sequence

from tether.content import ContentBlock, TextContent

__all__ = ["TITLE_LENGTH", "title_from"]

TITLE_LENGTH = 60
"""At most this many characters, an ellipsis included."""


def title_from(content: Sequence[ContentBlock]) -> str | None:
    """The title a prompt gives, or `None` when it has no text."""
    text = next((b.text for b in content if isinstance(b, TextContent) and b.text.strip()), None)
    if text is None:
        return None
    line = text.strip().splitlines()[0].strip()
    return line if len(line) <= TITLE_LENGTH else line[: TITLE_LENGTH - 1].rstrip() + "…"
