"""A session log's bytes as they are on disk, read without blocking and without parsing.

Apart from the log machinery so that listing sessions, which needs only this, loads nothing
else: a FIFO or a device where a log should be is refused, never read.
"""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING

from tether.errors import CorruptLog

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

__all__ = ["LINE_BLOCK", "MAX_HEADER_BYTES", "log_lines", "read_log_bytes"]

MAX_HEADER_BYTES = 1024 * 1024
"""A header line longer than this is not one (read as cut, then refused)."""

LINE_BLOCK = 1024 * 1024
"""How much of a log `log_lines` reads at a time."""


def read_log_bytes(path: Path, *, first_line: bool = False, offset: int = 0) -> bytes:
    """A log's bytes from `offset` on (or its first line, at most `MAX_HEADER_BYTES`):
    `CorruptLog` when it cannot be read or is not a regular file (a FIFO there must not hang
    a listing)."""
    fd, size = _opened(path)
    try:
        if first_line:
            with os.fdopen(fd, "rb", closefd=False) as handle:
                handle.seek(offset)
                return handle.readline(MAX_HEADER_BYTES)
        return _rest(fd, offset, size)
    except OSError as exc:
        raise CorruptLog(f"{path}: cannot read the session log: {exc.strerror}") from exc
    finally:
        os.close(fd)


def log_lines(path: Path) -> Generator[bytes, None, None]:
    """A log's lines, each with its newline (but a last one cut before it), read a block at a
    time as they are taken, to its end even if it grows meanwhile: a long log is never held
    whole. Refused as `read_log_bytes` refuses it, when the first line is asked for; the file
    stays open until the last line is taken or the iterator is closed.

    A line cut before its newline is the last (what is read after it would be its rest, being
    written): the log's readers take that for granted, and look at no other line's end.
    """
    fd, _ = _opened(path)
    try:
        raw = _ToItsEnd(fd)
    except BaseException:
        os.close(fd)
        raise
    handle = io.BufferedReader(raw, LINE_BLOCK)
    # One block read into a buffer that is used again, and each line copied out of it, costs a
    # third of reading a large log whole into one new buffer (its pages are each new to the
    # process) and cutting its lines out of that.
    with handle:
        try:
            yield from handle
        except OSError as exc:
            raise CorruptLog(f"{path}: cannot read the session log: {exc.strerror}") from exc


class _ToItsEnd(io.FileIO):
    """A file read until its end is met, once: after that it reads as ended, so that its
    reader's last line is where the end was met (cut there, when it was being written)."""

    ended = False

    def readinto(self, buffer: WriteableBuffer, /) -> int | None:
        """`FileIO.readinto`, or nothing once a read has met the end."""
        if self.ended:
            return 0
        count = super().readinto(buffer)
        self.ended = not count
        return count


def _opened(path: Path) -> tuple[int, int]:
    """A read-only descriptor of the regular file at `path` and its size, else `CorruptLog`."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except OSError as exc:
        raise CorruptLog(f"{path}: cannot read the session log: {exc.strerror}") from exc
    try:
        status = os.fstat(fd)
    except OSError as exc:
        os.close(fd)
        raise CorruptLog(f"{path}: cannot read the session log: {exc.strerror}") from exc
    if not stat.S_ISREG(status.st_mode):
        os.close(fd)
        raise CorruptLog(f"{path}: not a regular file")
    return fd, status.st_size


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
