"""Which file versions the session has seen: edits and overwrites need an unchanged read."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from pydantic import ConfigDict

from tether.wire import WIRE_CONFIG

__all__ = [
    "HASHED_UP_TO",
    "FileObservations",
    "FileVersion",
    "data_version",
    "fd_version",
    "file_version",
]

_CHUNK = 1 << 20

HASHED_UP_TO = 64 << 20
"""Files up to this size are hashed; larger ones are known by size and mtime alone, so that
reading a huge file costs one pass and no hashing."""


@dataclass(frozen=True)
class FileVersion:
    """A file at one moment: its resolved path, size, mtime and SHA-256 ("" if too big to hash).

    The session records one for each file a call reads or writes, and the log keeps them with
    the call's result (`observed`), so a loaded session can still edit what it read.
    """

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    path: str
    size: int
    mtime_ns: int
    sha256: str


def file_version(path: Path) -> FileVersion:
    """The current version of a file, read in bounded chunks."""
    with path.open("rb") as handle:
        return fd_version(handle.fileno(), path)


def fd_version(fd: int, path: Path) -> FileVersion:
    """The version of the open file `fd` (at `path`), read from its start in bounded chunks."""
    stat = os.fstat(fd)
    if stat.st_size > HASHED_UP_TO:
        return FileVersion(str(path), stat.st_size, stat.st_mtime_ns, "")
    # Here, not at the top: every log's reader imports this module (OpenSSL's hashes are a
    # few milliseconds of `tether show`'s start), only a call that reads or writes hashes.
    import hashlib

    digest = hashlib.sha256()
    offset = 0
    while chunk := os.pread(fd, _CHUNK, offset):
        digest.update(chunk)
        offset += len(chunk)
    return FileVersion(str(path), stat.st_size, stat.st_mtime_ns, digest.hexdigest())


def data_version(path: Path, stat: os.stat_result, data: bytes) -> FileVersion:
    """The version of a file whose whole content `data` was just read (as `fd_version`)."""
    import hashlib  # as in `fd_version`

    sha = hashlib.sha256(data).hexdigest() if stat.st_size <= HASHED_UP_TO else ""
    return FileVersion(str(path), stat.st_size, stat.st_mtime_ns, sha)


@dataclass
class FileObservations:
    """The last version of each file the session read or wrote, keyed by resolved path.

    A `scoped()` view shares what is known and also lists what one tool call recorded, so
    the session can store it with the call's result and know it again when it is loaded.
    """

    _seen: dict[Path, FileVersion] = field(default_factory=dict)
    recorded: list[FileVersion] | None = None
    """What was recorded through this view (only for a `scoped()` one)."""

    def record(self, version: FileVersion) -> None:
        """Remember that the session has seen the file at `version.path` as it is there."""
        self._seen[Path(version.path)] = version
        if self.recorded is not None:
            self.recorded.append(version)

    def scoped(self) -> FileObservations:
        """A view over the same knowledge that lists what is recorded through it."""
        return FileObservations(self._seen, recorded=[])

    def get(self, path: Path) -> FileVersion | None:
        """The version last seen, or `None` when the session never read the file."""
        return self._seen.get(path)

    def forget(self, path: Path) -> None:
        """Drop what is known of a path (it was deleted or moved)."""
        self._seen.pop(path, None)
