"""Pydantic's plugin scan, answered without `importlib.metadata` when no plugin is installed.

Pydantic looks for plugins (the `pydantic` entry-point group) when it builds its first
validator: `importlib.metadata` reads every installed distribution, and importing it loads
`zipfile`, `csv` and `email` besides — about 6% of `tether run`'s CPU to its first request.
`settle` reads the same metadata files itself: when none of them declares the group, pydantic
is told its plugins are none, which is what its own scan would find. Whenever the answer is not
certain (a path entry that is an archive, another finder of distributions, a file that cannot
be read, a `pydantic` group anywhere), pydantic scans as it always did.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from types import ModuleType

__all__ = ["LOADER", "declares_no_plugins", "settle"]

LOADER = "pydantic.plugin._loader"
"""The module whose `_plugins` caches pydantic's scan (`None` until it has scanned)."""

_GROUP = "pydantic"
_GROUP_BYTES = _GROUP.encode()
"""The group's name as its header holds it: a file without these bytes cannot declare it."""
_CHUNK = 1 << 16
_METADATA = (".dist-info", ".egg-info")
_EGG_METADATA = "egg-info"
"""An egg's own metadata folder (`EGG-INFO` inside a `.egg` on the path)."""


def settle(loader: ModuleType) -> None:
    """Set pydantic's plugins to none, as its scan would, when no installed distribution can
    declare one; otherwise leave pydantic to scan."""
    if getattr(loader, "_plugins", 0) is None and declares_no_plugins(sys.path):
        loader.__dict__["_plugins"] = {}


def declares_no_plugins(path: Iterable[str]) -> bool:
    """Whether `importlib.metadata` would find no `pydantic` entry point on `path`: `False`
    when that is not certain."""
    from importlib.machinery import PathFinder

    for finder in sys.meta_path:
        # Only the path finder finds distributions here; any other finder may add its own.
        if finder is not PathFinder and getattr(finder, "find_distributions", None) is not None:
            return False
    for entry in path:
        folder = entry or "."
        try:
            children = os.listdir(folder)
        except NotADirectoryError:
            return False  # an archive on the path: its metadata is not read here
        except OSError:
            if os.path.lexists(folder):
                return False
            continue  # a path entry that does not exist holds no distribution
        for child in children:
            low = child.lower()
            # Joined by hand: `os.path.join` cost more than the check, a hundred times a start.
            if (low.endswith(_METADATA) or low == _EGG_METADATA) and _declares(f"{folder}/{child}"):
                return False
    return True


def _declares(metadata: str) -> bool:
    """Whether one distribution's metadata may declare the group (`True` if unreadable)."""
    # Read with the system's own calls, not a file object: a start asks this of every
    # installed distribution, and making a file object for each cost most of the scan.
    try:
        fd = os.open(f"{metadata}/entry_points.txt", os.O_RDONLY | os.O_CLOEXEC)
    except (FileNotFoundError, NotADirectoryError):
        return False  # no entry points, or metadata that is a single file (PKG-INFO)
    except OSError:
        return True
    try:
        text = _read_all(fd)
    except OSError:  # not a file (a folder of that name) or not readable
        return True
    finally:
        os.close(fd)
    if _GROUP_BYTES not in text:
        return False  # most distributions' entry points name no such group: nothing to parse
    # The group is a section header, `[pydantic]`, spaced or not: any such line counts.
    for line in text.splitlines():
        stripped = line.strip()
        header = stripped.startswith(b"[") and stripped.endswith(b"]")
        if header and stripped[1:-1].strip().decode("utf-8", "replace") == _GROUP:
            return True
    return False


def _read_all(fd: int) -> bytes:
    """Everything left to read from `fd`."""
    chunks = []
    while chunk := os.read(fd, _CHUNK):
        chunks.append(chunk)
    return b"".join(chunks)
