"""The checks before a change: a file changes only as the session last saw it, up to a size.

An edit or an overwrite needs a read of the file in this session, and the file's version
(size, mtime, content hash) must be the one that read recorded. The version is checked twice:
before the change is worked out, and again after permission was granted, since a person may
take minutes to answer while the file changes under them.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from io import FileIO
from pathlib import Path
from typing import Literal

from tether.beneath import open_file, opened_dir, swapped_message
from tether.errors import ToolError
from tether.tools.observations import FileObservations, FileVersion, data_version, fd_version

__all__ = [
    "MAX_EDIT_BYTES",
    "Verb",
    "current_version",
    "ensure_unchanged",
    "read_to_change",
    "read_unchanged",
]

Verb = Literal["edit", "write"]

_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK

MAX_EDIT_BYTES = 256 << 20
"""The largest existing file `edit` changes or `write` replaces (256 MiB).

Both work on the whole text in memory (matching, encoding, the diff shown), a few times the
file's size at peak; above this they refuse, so memory stays bounded whatever the file."""


def current_version(path: Path, roots: Sequence[Path] = ()) -> FileVersion | None:
    """The file's version now, or `None` when there is no file; other kinds of entry are refused.

    A directory, a FIFO or a device is an error rather than something to open and hash (opening
    a FIFO would block until a writer came along). The file is reached without following a
    symlink from the root among `roots` that holds it (see `beneath`).
    """
    try:
        with opened_dir(path.parent, roots) as parent:
            mode = os.stat(path.name, dir_fd=parent, follow_symlinks=False).st_mode
            if stat.S_ISLNK(mode):
                raise ToolError(swapped_message(path, path.name))
            if stat.S_ISDIR(mode):
                raise ToolError(f"{path} is a directory")
            if not stat.S_ISREG(mode):
                raise ToolError(f"{path} is not a regular file")
            fd = os.open(path.name, _READ, dir_fd=parent)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        # E.g. a name too long or a directory that may not be searched: say so, do not crash.
        raise ToolError(f"Cannot access {path}: {exc.strerror}") from None
    try:
        return fd_version(fd, path)
    finally:
        os.close(fd)


def read_to_change(
    path: Path, observations: FileObservations, verb: Verb, roots: Sequence[Path] = ()
) -> tuple[FileVersion, bytes] | None:
    """The file a change replaces, as the session read it: its version and content.

    `None` when there is no file. Refuses a file too large to change, one the session has not
    read, and one that changed since it was read.
    """
    before = current_version(path, roots)
    if before is None:
        return None
    _require_editable_size(path, before, verb)
    _require_observed(observations, path, before)
    return before, read_unchanged(path, before, roots)


def read_unchanged(path: Path, before: FileVersion, roots: Sequence[Path] = ()) -> bytes:
    """The whole content of `path`, which must still be version `before` (else `ToolError`)."""
    try:
        fd = open_file(path, _READ, roots)
    except OSError as exc:
        raise ToolError(f"Cannot read {path}: {exc.strerror}") from None
    with FileIO(fd, "rb") as handle:
        data = handle.readall()
        now = data_version(path, os.fstat(fd), data)
    if now != before or len(data) != now.size:
        raise ToolError(_changed(path))
    return data


def _require_editable_size(path: Path, current: FileVersion, verb: Verb) -> None:
    """Refuse to load an existing file larger than `MAX_EDIT_BYTES`, saying both sizes."""
    if current.size <= MAX_EDIT_BYTES:
        return
    action = "edit" if verb == "edit" else "overwrite"
    raise ToolError(
        f"Cannot {action} {path}: the file is {current.size / (1 << 30):.1f} GiB "
        f"({current.size} bytes), more than the {MAX_EDIT_BYTES >> 20} MiB "
        f"({MAX_EDIT_BYTES} bytes) {verb} takes; change a file this large with bash (e.g. sed -i)"
    )


def _require_observed(observations: FileObservations, path: Path, current: FileVersion) -> None:
    """Refuse to change an existing file the session has not read, or that changed since."""
    seen = observations.get(path)
    if seen is None:
        raise ToolError(_unread(path))
    if seen != current:
        raise ToolError(_changed(path))


def ensure_unchanged(path: Path, before: FileVersion | None, roots: Sequence[Path] = ()) -> None:
    """Refuse when the file is no longer the version the change was worked out from."""
    now = current_version(path, roots)
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
