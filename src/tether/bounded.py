"""Reading a file that a workspace or another program controls: bounded, regular, never blocking.

Configuration, instructions, commands, agents and skills come from files that a cloned
repository (or anything that wrote to `$TETHER_HOME`) may have made hostile: a symlink to
`/dev/zero` or `/dev/stdin`, a FIFO that no one writes, a gigabyte of text. Every such file is
read here: opened without blocking, checked with `fstat` to be a regular file, and read up to
a limit, so the worst a file can do is be refused with a message naming it.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tether.errors import ToolError, UnreadableFile
from tether.jsontext import parse_json

__all__ = [
    "DEFAULT_LIMIT",
    "Opener",
    "read_bounded",
    "read_bounded_fd",
    "read_bounded_json",
    "read_bounded_text",
]

DEFAULT_LIMIT = 1024 * 1024
"""Bytes a configuration or instruction file may hold (1 MiB)."""


Opener = Callable[[Path, int], int]
"""Opens a path with `os.open`'s flags and returns the descriptor (as `os.open` does)."""


def read_bounded(
    path: Path,
    *,
    limit: int = DEFAULT_LIMIT,
    follow_symlinks: bool = True,
    opener: Opener | None = None,
) -> bytes:
    """The bytes of regular file `path`, at most `limit` of them.

    `opener` opens it instead of `os.open` (`tether.beneath.opener_below`, which follows no
    symlink below a folder: a folder on the way swapped for a link after `path` was checked
    is refused, so what is read is the file that was checked to be inside).

    Raises `FileNotFoundError` when nothing is there (a dangling symlink included), and
    `UnreadableFile` naming the path and why for everything else: a directory, FIFO, socket
    or device, a file over `limit`, a symlink when `follow_symlinks` is false (or `beneath`
    is given).
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY
    if not follow_symlinks:
        flags |= os.O_NOFOLLOW
    try:
        fd = (opener or os.open)(path, flags)
    except FileNotFoundError:
        raise
    except ToolError as exc:  # the file, or a folder on the way, is a symbolic link
        if os.path.islink(path):
            raise UnreadableFile(f"{path}: a symbolic link, which is not followed here") from None
        raise UnreadableFile(str(exc)) from None
    except OSError as exc:
        if (opener or not follow_symlinks) and os.path.islink(path):
            raise UnreadableFile(f"{path}: a symbolic link, which is not followed here") from None
        mode = _mode(path)
        if mode is not None and not stat.S_ISREG(mode):  # a socket cannot even be opened
            raise UnreadableFile(f"{path}: not a regular file ({_kind(mode)})") from None
        raise UnreadableFile(f"{path}: {exc.strerror or exc}") from None
    try:
        return read_bounded_fd(fd, path, limit=limit)
    finally:
        os.close(fd)


def read_bounded_fd(fd: int, path: Path, *, limit: int = DEFAULT_LIMIT) -> bytes:
    """The bytes of `fd`, opened elsewhere (with `O_NONBLOCK`), checked as `read_bounded` does.

    For a caller that opened the file its own way (beneath a checked directory, say);
    `path` only names it in the `UnreadableFile` raised. The descriptor is left open.
    """
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFile(f"{path}: not a regular file ({_kind(info.st_mode)})")
        if info.st_size > limit:
            raise UnreadableFile(f"{path}: {info.st_size} bytes, more than the {limit} allowed")
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(fd, min(65536, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:  # it grew after fstat
                raise UnreadableFile(f"{path}: more than the {limit} bytes allowed")
        return b"".join(chunks)
    except OSError as exc:
        raise UnreadableFile(f"{path}: {exc.strerror or exc}") from None


def read_bounded_text(
    path: Path,
    *,
    limit: int = DEFAULT_LIMIT,
    follow_symlinks: bool = True,
    opener: Opener | None = None,
) -> str:
    """`read_bounded` decoded as UTF-8 (a BOM dropped); undecodable bytes are `UnreadableFile`."""
    data = read_bounded(path, limit=limit, follow_symlinks=follow_symlinks, opener=opener)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnreadableFile(f"{path}: not UTF-8 text (byte {exc.start})") from None


def read_bounded_json(
    path: Path, *, limit: int = DEFAULT_LIMIT, follow_symlinks: bool = True
) -> Any:
    """`read_bounded_text` parsed as strict JSON (`jsontext`); bad JSON is `UnreadableFile`."""
    text = read_bounded_text(path, limit=limit, follow_symlinks=follow_symlinks)
    try:
        return parse_json(text)
    except ValueError as exc:
        raise UnreadableFile(f"{path}: not valid JSON: {exc}") from None


def _mode(path: Path) -> int | None:
    try:
        return os.stat(path).st_mode
    except OSError:
        return None


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a file"
