"""The submodules a git index records (its gitlinks), read without running git.

A sandboxed command may write the workspace's index (`git add` and `git commit` work in the
sandbox), and a gitlink it adds there over a repository it made (`lib/.git` with a config of
its own) is a submodule: the person's next `git status` runs a status inside it, with that
config's `core.fsmonitor`. Such a `.git` is named in the command's result; finding it needs
the gitlinks of the index, read here (formats 2, 3 and 4; SHA-1 or SHA-256 ids).
"""

from __future__ import annotations

import os
import stat
import struct
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from tether.bounded import read_bounded
from tether.errors import UnreadableFile

__all__ = [
    "MAX_INDEX_BYTES",
    "IndexStamp",
    "WatchedIndex",
    "gitlinks",
    "index_stamp",
    "watch_indexes",
]

MAX_INDEX_BYTES = 64 * 1024 * 1024
"""A larger index is not read (its gitlinks go unnamed)."""

_HEADER = struct.Struct(">4sII")
_FIXED = 40
"""ctime, mtime, dev, ino, mode, uid, gid, size: ten 32-bit words before the object id."""
_GITLINK = 0o160000
_EXTENDED = 0x4000
_NAME_MASK = 0x0FFF

IndexStamp = tuple[int, int, int] | None
"""An index file's inode, size and modification time (`None`: there is none)."""


@dataclass(frozen=True)
class WatchedIndex:
    """A workspace repository's index as a command starts: to name the submodules it adds."""

    root: Path
    """The work tree (gitlink paths are relative to it)."""
    index: Path
    stamp: IndexStamp
    known: frozenset[Path]
    """The `.git` entries protected already when the command started."""

    def added(self) -> tuple[Path, ...]:
        """The `.git` of each gitlink not protected at the start, when the index changed."""
        if index_stamp(self.index) == self.stamp:
            return ()
        entries = (self.root / path / ".git" for path in gitlinks(self.index))
        return tuple(e for e in entries if e not in self.known and os.path.lexists(e))


def watch_indexes(roots: Sequence[Path], protected: Collection[Path]) -> tuple[WatchedIndex, ...]:
    """The index of each root whose `.git` is a directory, as it is now."""
    # A `.git` directory is protected through its config and hooks.
    known = frozenset([*protected, *(p.parent for p in protected if p.parent.name == ".git")])
    watched = []
    for root in roots:
        git = root / ".git"
        if git.is_dir() and not git.is_symlink():
            index = git / "index"
            watched.append(WatchedIndex(root, index, index_stamp(index), known))
    return tuple(watched)


def index_stamp(index: Path) -> IndexStamp:
    """What tells whether `index` was written since (`None` when it is not there)."""
    try:
        info = os.stat(index, follow_symlinks=False)
    except OSError:
        return None
    return info.st_ino, info.st_size, info.st_mtime_ns


def gitlinks(index: Path) -> tuple[str, ...]:
    """The paths the index `index` records as gitlinks; `()` when it cannot be read."""
    try:
        data = read_bounded(index, limit=MAX_INDEX_BYTES, follow_symlinks=False)
    except (OSError, UnreadableFile):
        return ()
    for oid_size in (20, 32):  # SHA-1, then SHA-256: the config says which; the entries tell
        found = _parse(data, oid_size)
        if found is not None:
            return found
    return ()


def _parse(data: bytes, oid_size: int) -> tuple[str, ...] | None:
    """The gitlinks of index bytes `data`, or `None` when they do not parse as such."""
    if len(data) < _HEADER.size:
        return None
    signature, version, count = _HEADER.unpack_from(data)
    if signature != b"DIRC" or version not in (2, 3, 4):
        return None
    at = _HEADER.size
    previous = b""
    found: list[str] = []
    try:
        for _ in range(count):
            start = at
            mode = struct.unpack_from(">I", data, at + 24)[0]
            at += _FIXED + oid_size
            flags = struct.unpack_from(">H", data, at)[0]
            at += 2
            if flags & _EXTENDED:
                if version < 3:
                    return None
                at += 2
            if version == 4:
                strip, at = _varint(data, at)
                end = data.index(b"\0", at)
                if strip > len(previous):
                    return None
                name = previous[: len(previous) - strip] + data[at:end]
                at = end + 1
            else:
                end = data.index(b"\0", at)
                name = data[at:end]
                length = flags & _NAME_MASK
                if length != _NAME_MASK and length != len(name):
                    return None
                at = start + ((end - start) // 8 + 1) * 8  # NUL-padded to a multiple of 8
            previous = name
            if stat.S_IFMT(mode) == _GITLINK:
                found.append(os.fsdecode(name))
    except (struct.error, ValueError):
        return None
    if at > len(data):
        return None
    return tuple(found)


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """Git's offset encoding (each continuation adds one before shifting)."""
    byte = data[at]
    at += 1
    value = byte & 0x7F
    while byte & 0x80:
        byte = data[at]
        at += 1
        value = ((value + 1) << 7) | (byte & 0x7F)
    return value, at
