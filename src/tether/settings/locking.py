"""An exclusive lock held across processes while a settings or trust file is rewritten."""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tether.errors import LockTimeout

__all__ = ["LOCK_WAIT", "LockTimeout", "locked"]

LOCK_WAIT = 30.0
"""Seconds to wait for another writer before giving up (writers hold it for milliseconds)."""


@contextmanager
def locked(path: Path, *, directory: bool = False) -> Iterator[None]:
    """Hold an exclusive `flock` on `path` (a lock file created if missing, or a directory).

    A directory is locked as itself, so nothing is added to it; a symlink is never followed.
    """
    flags = os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW
    if directory:
        flags |= os.O_DIRECTORY
    else:
        flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW
    fd = os.open(path, flags, 0o600)
    try:
        deadline = time.monotonic() + LOCK_WAIT
        delay = 0.005
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise LockTimeout(f"{path} stayed locked by another process") from None
                time.sleep(delay)
                delay = min(delay * 2, 0.1)
        yield
    finally:
        os.close(fd)
