"""The messages `read` fails with, and the sibling suggestions for a missing file."""

from __future__ import annotations

import os
from itertools import islice
from pathlib import Path

__all__ = [
    "binary_message",
    "directory_message",
    "image_too_large_message",
    "not_found_message",
    "out_of_range_message",
    "similar_siblings",
]

_SUGGESTIONS = 3
_SCANNED_ENTRIES = 5000
"""A huge directory is only sampled: suggestions are a courtesy, not worth a long listing."""


def not_found_message(path: Path) -> str:
    """`File not found: PATH`, then up to three similar names from the same directory."""
    message = f"File not found: {path}"
    siblings = similar_siblings(path)
    if siblings:
        message += "\n\nDid you mean one of these?\n" + "\n".join(str(s) for s in siblings)
    return message


def similar_siblings(path: Path) -> list[Path]:
    """Up to three entries of the parent directory whose names resemble `path`'s name."""
    try:
        with os.scandir(path.parent) as entries:
            names = sorted(entry.name for entry in islice(entries, _SCANNED_ENTRIES))
    except OSError:
        return []
    wanted = path.name.lower()
    picked = [n for n in names if wanted in n.lower() or n.lower() in wanted]
    by_case = {n.lower(): n for n in names}
    import difflib  # here: only a missing file needs it

    close = difflib.get_close_matches(wanted, list(by_case), n=_SUGGESTIONS, cutoff=0.6)
    for lowered in close:
        name = by_case[lowered]
        if name not in picked:
            picked.append(name)
    return [path.parent / name for name in picked[:_SUGGESTIONS]]


def directory_message(path: Path) -> str:
    """A directory was named where a file was expected."""
    return f"{path} is a directory, not a file"


def binary_message(path: Path) -> str:
    """The file is not text."""
    return f"Cannot read binary file: {path}"


def out_of_range_message(offset: int, path: Path, total: int) -> str:
    """The offset lies past the last line."""
    return f'offset {offset} is out of range for "{path}" ({total} lines)'


def image_too_large_message(path: Path, size: int, limit: int) -> str:
    """An image above the size limit, with both sizes."""
    return f"Image too large to read: {path} is {_size(size)}; the limit is {_size(limit)}"


def _size(size: int) -> str:
    return f"{size:,} bytes ({size / (1024 * 1024):.1f} MB)"
