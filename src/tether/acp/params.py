"""Parameters a client sends, checked: paths, directories and `session/list` cursors."""

from __future__ import annotations

import os
import re
from pathlib import Path

from tether.acp.errors import invalid_params

__all__ = ["client_path", "cursor_offset", "directory"]


def directory(raw: str, field: str) -> Path:
    """An absolute path to an existing directory; anything else is -32602 naming `field`."""
    path = client_path(raw, field)
    if not path.is_absolute():
        raise invalid_params(f"{field} must be an absolute path: {raw}", {field: raw})
    try:
        is_dir = path.is_dir()
    except OSError:  # a name too long, a directory that may not be searched
        is_dir = False
    if not is_dir:
        raise invalid_params(f"{field} is not a directory: {raw}", {field: raw})
    return path


def client_path(raw: str, field: str) -> Path:
    """A path a client sent; a NUL or a lone surrogate cannot name a file."""
    try:
        os.fsencode(raw)
    except UnicodeEncodeError:
        raise invalid_params(f"{field} is not a valid path: {raw!r}", {field: raw}) from None
    if "\0" in raw:
        raise invalid_params(f"{field} is not a valid path: {raw!r}", {field: raw})
    return Path(raw)


_CURSOR = re.compile(r"[0-9]{1,18}")
"""What `session/list` hands out: a decimal offset (ASCII digits, not `²` or a 5000-digit one)."""


def cursor_offset(cursor: str | None) -> int:
    """The offset a `session/list` cursor stands for (0 without one)."""
    if cursor is None:
        return 0
    if not _CURSOR.fullmatch(cursor):
        raise invalid_params(f"Not a cursor from session/list: {cursor!r}", {"cursor": cursor})
    return int(cursor)
