"""Replacing a file so that a crash leaves the old bytes or the new ones, never a mix."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

__all__ = ["TEMP_PREFIX", "atomic_write"]

TEMP_PREFIX = ".tether-"
"""Temporary files start with this (a dotfile beside the target), so leftovers are recognisable."""

_CHUNK = 1 << 20


def atomic_write(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temp file in the same directory and `os.replace`.

    The temp file is fsynced before the rename and the directory after it, so a crash or a
    power cut leaves either the old file or the new one. An existing file keeps its
    permission bits (and its owner, when the process may set it); a new one gets the usual
    `0o666` minus the umask. A killed writer can leave a `.tether-NAME.*.tmp` file behind,
    never a partial file at `path`.
    """
    directory = path.parent
    try:
        existing: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        existing = None
    temp = directory / f"{TEMP_PREFIX}{path.name}.{secrets.token_hex(4)}.tmp"
    # O_EXCL: never write through a file or link someone else put at this name.
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        try:
            if existing is not None:
                _keep_owner_and_mode(fd, existing)
            view = memoryview(data)
            for start in range(0, len(view), _CHUNK):
                _write_all(fd, view[start : start + _CHUNK])
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _fsync_directory(directory)


def _keep_owner_and_mode(fd: int, existing: os.stat_result) -> None:
    # Only a privileged process can give a file away; anyone else keeps their own ownership.
    with contextlib.suppress(OSError):
        os.fchown(fd, existing.st_uid, existing.st_gid)
    os.fchmod(fd, stat.S_IMODE(existing.st_mode))


def _write_all(fd: int, chunk: memoryview) -> None:
    while chunk:
        written = os.write(fd, chunk)
        chunk = chunk[written:]


def _fsync_directory(directory: Path) -> None:
    """Make the rename itself durable; some filesystems cannot fsync a directory, which is fine."""
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
