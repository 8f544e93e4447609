"""Rows of bare text as rich draws them without colour: padded with spaces to a card's inside
width when each fits as it is, measured at once where every character is one cell wide."""

from __future__ import annotations

from rich.cells import cell_len

__all__ = ["fitting_rows", "one_cell_each", "padded_rows"]


def fitting_rows(plain: str, width: int) -> list[str] | None:
    """The lines of a text of no justification, as rich draws them without colour at `width`
    (padded to it), when each fits as it is; None when rich must lay them out."""
    if "\t" in plain:
        return None
    rows = plain.split("\n")
    # Line breaks are not printed as they are, but they are not in any row either.
    if one_cell_each(plain.replace("\n", "") if len(rows) > 1 else plain):
        return padded_rows(rows, width)
    padded = []
    for row in rows:
        used = cell_len(row)
        if used > width:
            return None
        padded.append(row + " " * (width - used))
    return padded


def padded_rows(rows: list[str], width: int) -> list[str] | None:
    """Lines of characters one cell wide each (`one_cell_each`), padded with spaces to `width`
    as rich pads a line that fits; None if one is wider."""
    # Nothing to measure line by line: a line's cells are its characters.
    if rows and max(map(len, rows)) > width:
        return None
    return [row.ljust(width) for row in rows]


def one_cell_each(text: str) -> bool:
    """Whether each character of `text` is one cell wide and printed as it is: printable
    ASCII, and the rule of a gutter (`│`)."""
    if "│" in text:
        text = text.replace("│", "")
    return text.isascii() and text.isprintable()
