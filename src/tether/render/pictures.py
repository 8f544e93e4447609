"""Control characters shown as their pictures: what text from outside becomes before it is
printed.

Apart from the theme (which re-exports `printable`) so that listing sessions, which prints
its headers' titles and cwds through it, loads none of the cards' styles, boxes or panels.
"""

from __future__ import annotations

__all__ = ["printable"]

# Control characters would reach the terminal raw (an ESC can clear the screen or retitle the
# window), so each is shown as its Unicode control picture; tab and newline keep their meaning
# unless the text must stay on one row.
_ROW_PICTURES = {
    **{c: 0x2400 + c for c in range(0x20)},
    0x7F: 0x2421,
    **dict.fromkeys(range(0x80, 0xA0), 0xFFFD),
}
_PICTURES = {c: p for c, p in _ROW_PICTURES.items() if chr(c) not in "\t\n"}


def printable(text: str, *, one_line: bool = False) -> str:
    """The text with control characters made visible, one for one, so it is safe to print;
    `one_line` shows tabs and line breaks too, so the text stays on its row."""
    if text.isprintable():  # every character pictured is one Python finds unprintable
        return text
    return text.translate(_ROW_PICTURES if one_line else _PICTURES)
