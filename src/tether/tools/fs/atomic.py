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
    permission bits; a new one gets the usual `0o666` minus the umask.
    """
    directory = path.parent
    try:
        mode: int | None = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = None
    temp = directory / f"{TEMP_PREFIX}{path.name}.{secrets.token_hex(4)}.tmp"
    # O_EXCL: never write through a file or link someone else put at this name.
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        try:
            if mode is not None:
                os.fchmod(fd, mode)
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
