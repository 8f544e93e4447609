"""A file as a snapshot holds it (a blob and its mode, or nothing), and as the disk holds it now.

Blob ids are git's (`sha1("blob SIZE\\0" + bytes)`), so a snapshot made by git and the state
of a file on disk compare without asking git. Paths are relative to the workspace root, with
`/` between names, as git writes them.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from tether.beneath import opened_dir
from tether.bounded import read_bounded_fd
from tether.errors import ToolError, UnreadableFile

__all__ = [
    "MAX_SNAPSHOT_BYTES",
    "Blob",
    "DiskState",
    "FileMode",
    "FileState",
    "Unsnapshotted",
    "blob_id",
    "disk_bytes",
    "disk_state",
    "mode_of",
    "read_fd",
]

MAX_SNAPSHOT_BYTES = 10 * 1024 * 1024
"""Files larger than this are left out of snapshots (said once per session)."""

FileMode = Literal["100644", "100755", "120000"]
"""A regular file, an executable one, a symbolic link (what git records of a mode)."""

_CHUNK = 1 << 20


@dataclass(frozen=True)
class Blob:
    """A file's content (its git blob id) and mode."""

    oid: str
    mode: FileMode


FileState = Blob | None
"""What a snapshot holds for a path: a blob, or `None` when the file did not exist."""


@dataclass(frozen=True)
class Unsnapshotted:
    """Something on disk that no snapshot holds: a directory, a FIFO, a file over the limit."""

    what: str
    """`a directory`, `a file over 10 MB`, ... (for messages)."""


DiskState = Blob | Unsnapshotted | None
"""A path as it is on disk now."""


def blob_id(data: bytes) -> str:
    """The git blob id of `data`."""
    digest = hashlib.sha1(b"blob %d\0" % len(data), usedforsecurity=False)
    digest.update(data)
    return digest.hexdigest()


def mode_of(st_mode: int) -> FileMode:
    """The git mode of a regular file or symbolic link (the owner's execute bit decides)."""
    if stat.S_ISLNK(st_mode):
        return "120000"
    return "100755" if st_mode & stat.S_IXUSR else "100644"


def disk_state(root: Path, path: str) -> DiskState:
    """What `root/path` is now, read without following a symbolic link on the way."""
    target = root / path
    try:
        with opened_dir(target.parent, [root]) as parent:
            return _state_at(parent, target.name)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return None  # a parent is a file now: nothing is at this path
    except ToolError:
        return Unsnapshotted("behind a symbolic link")


def disk_bytes(root: Path, path: str, limit: int) -> bytes:
    """The bytes of regular file `root/path` now, read as `disk_state` reads, at most `limit`.

    Raises `FileNotFoundError` when nothing is there, and `UnreadableFile` (its message
    without the path) when the path is not a regular file, is larger than `limit`, or
    it or a folder on the way has become a symbolic link since it was checked.
    """
    target = root / path
    try:
        with opened_dir(target.parent, [root]) as parent:
            flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOCTTY
            try:
                fd = os.open(target.name, flags, dir_fd=parent)
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    raise UnreadableFile("a symbolic link") from None
                if exc.errno in (errno.ENXIO, errno.EOPNOTSUPP):  # a socket
                    raise UnreadableFile("not a regular file") from None
                raise
    except NotADirectoryError:
        raise FileNotFoundError(errno.ENOENT, "a folder on the way is a file", path) from None
    except ToolError:
        raise UnreadableFile("behind a symbolic link") from None
    try:
        return read_bounded_fd(fd, Path(path), limit=limit)
    except UnreadableFile as exc:
        raise UnreadableFile(str(exc).removeprefix(f"{path}: ")) from None
    finally:
        os.close(fd)


def _state_at(parent: int, name: str) -> DiskState:
    try:
        info = os.stat(name, dir_fd=parent, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode):
        link = os.readlink(name, dir_fd=parent)
        return Blob(blob_id(os.fsencode(link)), "120000")
    if stat.S_ISDIR(info.st_mode):
        return Unsnapshotted("a directory")
    if not stat.S_ISREG(info.st_mode):
        return Unsnapshotted("not a regular file")
    if info.st_size > MAX_SNAPSHOT_BYTES:
        return Unsnapshotted("a file over 10 MB")
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, dir_fd=parent)
    try:
        return Blob(blob_id(read_fd(fd)), mode_of(info.st_mode))
    finally:
        os.close(fd)


def read_fd(fd: int, limit: int = MAX_SNAPSHOT_BYTES) -> bytes:
    """The content of an open file, up to `limit` bytes and one more (so a grown file shows)."""
    chunks, size = [], 0
    while size <= limit and (chunk := os.read(fd, min(_CHUNK, limit + 1 - size))):
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)
