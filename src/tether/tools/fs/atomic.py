"""Replacing a file so that a crash leaves the old bytes or the new ones, never a mix."""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import stat
from collections.abc import Sequence
from pathlib import Path

from tether.beneath import opened_dir, swapped_message
from tether.errors import ToolError
from tether.tools.observations import FileVersion, data_version

__all__ = ["TEMP_PREFIX", "atomic_write", "temp_name", "temp_stem"]

TEMP_PREFIX = ".tether-"
"""Temporary files start with this (a dotfile beside the target), so leftovers are recognisable."""
_NAME_MAX = 255
"""The longest file name, in bytes, of Linux's file systems."""
_SUFFIX_BYTES = len(".12345678.tmp")


def temp_stem(name: str) -> str:
    """What the temporary files beside `name` start with (then `.RANDOM.tmp`): the prefix and
    the name, cut and given a digest of the whole when that would make too long a name (a
    250-byte name is a valid file, and its temporary file must be one too)."""
    stem = f"{TEMP_PREFIX}{name}"
    raw = os.fsencode(stem)
    if len(raw) + _SUFFIX_BYTES <= _NAME_MAX:
        return stem
    digest = hashlib.sha256(os.fsencode(name)).hexdigest()[:16]
    keep = _NAME_MAX - _SUFFIX_BYTES - len(digest) - 1
    # Cut on a byte count; a character the cut split (or any byte not UTF-8) is left out.
    cut = raw[:keep].decode("utf-8", errors="ignore")
    return f"{cut}~{digest}"


def temp_name(name: str) -> str:
    """A fresh temporary file name beside `name` (see `temp_stem`)."""
    return f"{temp_stem(name)}.{secrets.token_hex(4)}.tmp"


_CHUNK = 1 << 20


def atomic_write(
    path: Path,
    data: bytes,
    roots: Sequence[Path] = (),
    *,
    make_parents: bool = False,
    mode: int | None = None,
    replace_link: bool = False,
) -> FileVersion:
    """Write `data` to `path` through a temp file in the same directory and a rename.

    The temp file is fsynced before the rename and the directory after it, so a crash or a
    power cut leaves either the old file or the new one. An existing file keeps its
    permission bits (and its owner, when the process may set it); a new one gets the usual
    `0o666` minus the umask. A killed writer can leave a `.tether-NAME.*.tmp` file behind,
    never a partial file at `path`.

    The directory is opened once, walked from the root among `roots` that holds it without
    following a symlink (`make_parents` creates what is missing), and the temp file and the
    rename both happen inside that open directory: a symlink swapped in on the way is
    refused, never written through. Returns the version written.

    `mode` gives the file exactly those permission bits (a secret's `0o600`), whatever the
    umask or the file it replaces. A symbolic link at `path` is refused, unless
    `replace_link` (for tether's own files, where no policy checked the path): then the link
    itself is replaced, and what it pointed to is left as it was.
    """
    with opened_dir(path.parent, roots, create=make_parents) as directory:
        try:
            existing: os.stat_result | None = os.stat(
                path.name, dir_fd=directory, follow_symlinks=False
            )
        except FileNotFoundError:
            existing = None
        if existing is not None and stat.S_ISLNK(existing.st_mode):
            if not replace_link:
                raise ToolError(swapped_message(path, path.name))
            existing = None
        temp = temp_name(path.name)
        # O_EXCL: never write through a file or link someone else put at this name.
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(temp, flags, 0o666 if mode is None else mode, dir_fd=directory)
        try:
            try:
                if mode is not None:
                    os.fchmod(fd, mode)
                elif existing is not None:
                    _keep_owner_and_mode(fd, existing)
                view = memoryview(data)
                for start in range(0, len(view), _CHUNK):
                    _write_all(fd, view[start : start + _CHUNK])
                os.fsync(fd)
                written = data_version(path, os.fstat(fd), data)
            finally:
                os.close(fd)
            os.replace(temp, path.name, src_dir_fd=directory, dst_dir_fd=directory)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=directory)
            raise
        _fsync_directory(directory)
    return written


def _keep_owner_and_mode(fd: int, existing: os.stat_result) -> None:
    # Only a privileged process can give a file away; anyone else keeps their own ownership.
    with contextlib.suppress(OSError):
        os.fchown(fd, existing.st_uid, existing.st_gid)
    os.fchmod(fd, stat.S_IMODE(existing.st_mode))


def _write_all(fd: int, chunk: memoryview) -> None:
    while chunk:
        written = os.write(fd, chunk)
        chunk = chunk[written:]


def _fsync_directory(directory: int) -> None:
    """Make the rename itself durable; some filesystems cannot fsync a directory, which is fine."""
    # The walk's descriptor is O_PATH, which cannot be fsynced: open the directory itself.
    with contextlib.suppress(OSError):
        fd = os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=directory)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
