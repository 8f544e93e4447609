"""A session log's bytes as they are on disk, read without blocking and without parsing.

Apart from the log machinery so that listing sessions, which needs only this, loads nothing
else: a FIFO or a device where a log should be is refused, never read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tether.errors import CorruptLog

__all__ = ["MAX_HEADER_BYTES", "read_log_bytes"]

MAX_HEADER_BYTES = 1024 * 1024
"""A header line longer than this is not one (read as cut, then refused)."""


def read_log_bytes(path: Path, *, first_line: bool = False, offset: int = 0) -> bytes:
    """A log's bytes from `offset` on (or its first line, at most `MAX_HEADER_BYTES`):
    `CorruptLog` when it cannot be read or is not a regular file (a FIFO there must not hang
    a listing)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except OSError as exc:
        raise CorruptLog(f"{path}: cannot read the session log: {exc.strerror}") from exc
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise CorruptLog(f"{path}: not a regular file")
        if first_line:
            with os.fdopen(fd, "rb", closefd=False) as handle:
                handle.seek(offset)
                return handle.readline(MAX_HEADER_BYTES)
        return _rest(fd, offset, status.st_size)
    except OSError as exc:
        raise CorruptLog(f"{path}: cannot read the session log: {exc.strerror}") from exc
    finally:
        os.close(fd)


def _rest(fd: int, offset: int, size: int) -> bytes:
    """The file's bytes from `offset` to its end, read to the end even if it grew since
    `size` was taken."""
    # Plain reads, no buffered file object: listing sessions reads a thousand logs whole, and
    # making a reader for each was half of that reading.
    chunks: list[bytes] = []
    while chunk := os.pread(fd, max(size - offset, 0) + 1, offset):
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)
