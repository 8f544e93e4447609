"""A session's title: the first line of its first prompt, short enough for a list."""

from __future__ import annotations

from collections.abc import Sequence

from tether.content import ContentBlock, TextContent

__all__ = ["RENAME_LENGTH", "TITLE_LENGTH", "given_title", "title_from"]

TITLE_LENGTH = 60
"""At most this many characters, an ellipsis included."""
RENAME_LENGTH = 200
"""The longest title a person may give a session (a first prompt's is cut at `TITLE_LENGTH`)."""


def title_from(content: Sequence[ContentBlock]) -> str | None:
    """The title a prompt gives, or `None` when it has no text."""
    text = next((b.text for b in content if isinstance(b, TextContent) and b.text.strip()), None)
    if text is None:
        return None
    line = text.strip().splitlines()[0].strip()
    return line if len(line) <= TITLE_LENGTH else line[: TITLE_LENGTH - 1].rstrip() + "…"


def given_title(text: str) -> str:
    """A title a person typed, on one line with its spaces collapsed; `ValueError` when it is
    empty or longer than `RENAME_LENGTH`."""
    title = " ".join(text.split())
    if not title:
        raise ValueError("a session's title cannot be empty")
    if len(title) > RENAME_LENGTH:
        raise ValueError(f"a session's title has at most {RENAME_LENGTH} characters")
    return title
