"""The observation gate: a file is changed only as the session last saw it.

An edit or an overwrite needs a read of the file in this session, and the file's version
(size, mtime, content hash) must be the one that read recorded. The version is checked twice:
before the change is worked out, and again after permission was granted, since a person may
take minutes to answer while the file changes under them.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Literal

from tether.tools.errors import ToolError
from tether.tools.observations import FileObservations, FileVersion, file_version

__all__ = ["Verb", "current_version", "ensure_unchanged", "require_observed"]

Verb = Literal["edit", "write"]


def current_version(path: Path) -> FileVersion | None:
    """The file's version now, or `None` when there is no file; other kinds of entry are refused.

    A directory, a FIFO or a device is an error rather than something to open and hash (opening
    a FIFO would block until a writer came along).
    """
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        # E.g. a name too long or a directory that may not be searched: say so, do not crash.
        raise ToolError(f"Cannot access {path}: {exc.strerror}") from None
    if stat.S_ISDIR(mode):
        raise ToolError(f"{path} is a directory")
    if not stat.S_ISREG(mode):
        raise ToolError(f"{path} is not a regular file")
    return file_version(path)


def require_observed(
    observations: FileObservations, path: Path, current: FileVersion | None
) -> None:
    """Refuse to change an existing file the session has not read, or that changed since."""
    if current is None:
        return
    seen = observations.get(path)
    if seen is None:
        raise ToolError(_unread(path))
    if seen != current:
        raise ToolError(_changed(path))


def ensure_unchanged(path: Path, before: FileVersion | None) -> None:
    """Refuse when the file is no longer the version the change was worked out from."""
    now = current_version(path)
    if now == before:
        return
    if before is None:
        raise ToolError(_unread(path))
    raise ToolError(_changed(path))


def _unread(path: Path) -> str:
    # The specified wording, for an overwrite by `write` as much as for an `edit`.
    return f"edit requires reading {path} first"


def _changed(path: Path) -> str:
    return f"{path} changed since it was read; read it again"
