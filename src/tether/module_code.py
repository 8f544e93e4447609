"""Modules' bytecode read from one table for a whole start, instead of one file per module.

A start imports hundreds of modules (`tether run`, up to its first request, about 640 from
source files: tether's own, pydantic's, rich's, httpx's and the standard library's), and
Python reads each one's bytecode from a file of its own: it works out the file's name, opens
it, reads it into a new buffer, checks its header and closes it again. That was a twentieth of
`tether run`'s time to its first request.

`reuse_module_code` gives the path finders a loader that takes a module's code from one table
instead (`module_table_path`, beside tether's own bytecode, for this interpreter and
optimization level): one read of its index, then one read per module. The source file is
checked as Python checks it against its bytecode (its modification time and size, as the
bytecode was compiled from them), and what the table holds is the bytecode Python itself
wrote, so a module runs the code it would have run. A module the table does not hold, or whose
entry no longer matches its source, is loaded as Python loads it, and is added to the table at
the end of the process: the table is written again with the entries of the one on disk whose
sources are unchanged, and the new ones, taken from the bytecode files Python wrote. Nothing is
written when bytecode is not (`PYTHONDONTWRITEBYTECODE`), and a table that does not read back
is ignored and written afresh. Bytecode checked by a hash of its source instead of its time is
not kept (its check is Python's to make).

The table is trusted as Python trusts the bytecode beside it: whoever may write one may write
the other.
"""

from __future__ import annotations

import _imp
import atexit
import marshal
import os
import sys

# Where `importlib.util` takes them from: importing it loads its loaders' base classes, which
# a start has no use for.
from importlib._bootstrap_external import MAGIC_NUMBER, cache_from_source
from importlib.machinery import (
    BYTECODE_SUFFIXES,
    EXTENSION_SUFFIXES,
    SOURCE_SUFFIXES,
    ExtensionFileLoader,
    FileFinder,
    SourceFileLoader,
    SourcelessFileLoader,
)
from types import CodeType

# Not `typing.TYPE_CHECKING`: this module is imported before any other, to serve them, and
# imports as little as it can (no `typing`, no `pathlib`) so that they come from the table.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["module_table_path", "reuse_module_code"]

_FORMAT = 1
"""The layout of the table's index: `(_FORMAT, _VERSIONS, {source path: (mtime, size, start,
length)})`, the bytecode of each module following the index, from `start` on."""

_VERSIONS = (MAGIC_NUMBER,)
"""What a table is made for: the interpreter's bytecode."""

_HEAD = 8
"""The index's length, in bytes, before it (little-endian)."""

_FIRST_READ = 1 << 16
"""Bytes read at once to find the index (`tether run`'s modules make one of about 50 KB)."""

_Entry = tuple[int, int, int, int]
"""`(mtime, size, start, length)`: the source's time and size as its bytecode's header holds
them, and where its code lies after the index."""


def module_table_path() -> str:
    """Where the table lives: beside tether's bytecode, named as Python names bytecode for
    this interpreter and optimization level (`modules.cpython-311.table`)."""
    bytecode = cache_from_source(os.path.join(os.path.dirname(__file__), "modules.py"))
    return os.path.splitext(bytecode)[0] + ".table"


def reuse_module_code(path: str | None = None) -> None:
    """From now on, modules found on the path take their code from the table at `path` (by
    default `module_table_path()`) where it holds what their source needs; the table is
    saved at exit with the modules it did not hold."""
    if _TABLE:
        return
    table = _Table(path or module_table_path())
    _TABLE.append(table)
    # Before the path finders' own hook: every folder on the path gets this one's finder,
    # which is Python's with `_TableLoader` for source files. The finders made so far are
    # dropped, to be made again by it.
    sys.path_hooks.insert(
        sys.path_hooks.index(_PYTHONS_HOOK) if _PYTHONS_HOOK in sys.path_hooks else 0,
        FileFinder.path_hook(
            (_TableLoader, SOURCE_SUFFIXES),
            (ExtensionFileLoader, EXTENSION_SUFFIXES),
            (SourcelessFileLoader, BYTECODE_SUFFIXES),
        ),
    )
    sys.path_importer_cache.clear()
    atexit.register(table.save)


_TABLE: list[_Table] = []
"""The process's table, once `reuse_module_code` set it up."""

_PYTHONS_HOOK = next(
    (hook for hook in sys.path_hooks if getattr(hook, "__qualname__", "").startswith("FileFinder")),
    None,
)
"""The path finders' hook Python installed (`FileFinder.path_hook`'s)."""


class _TableLoader(SourceFileLoader):
    """Python's loader of a source file, which takes the module's code from the table when
    the table holds it for the source as it is now."""

    def get_code(self, fullname: str) -> CodeType | None:
        """The module's code: the table's, else what Python's loader reads or compiles."""
        table = _TABLE[0]
        code = table.code(self.path)
        if code is None:
            table.missed.add(self.path)
            return super().get_code(fullname)
        return code


class _Table:
    """The table file (kept open to read each module's code from), its index, and the modules
    it did not hold (or held for another version of their source)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.missed: set[str] = set()
        self._file = _File.open(path)

    def code(self, source: str) -> CodeType | None:
        """The code of the module whose source is at `source`, when the table holds it for
        that source as it is now; else `None`."""
        found = self._file.entry(source)
        if found is None:
            return None
        try:
            code = marshal.loads(found[2])
        except (ValueError, TypeError, EOFError):
            return None  # an entry that does not read back
        if type(code) is not CodeType:
            return None
        # As Python does with bytecode: a source moved since names its own path.
        _imp._fix_co_filename(code, source)  # type: ignore[attr-defined]
        return code

    def save(self) -> None:
        """Write the table again with what this process loaded that it did not hold; nothing
        when nothing is new or bytecode is not written."""
        if not self.missed or sys.dont_write_bytecode or not _writable(self.path):
            return  # before reading any bytecode: an installation no one may write to
        # A copy, taken at once: a thread still running at exit may import one more.
        missed = tuple(self.missed)
        new = {source: found for source in missed if (found := _bytecode(source))}
        if not new:
            return  # bytecode checked by hash, or none written: nothing to keep
        now = _File.open(self.path)  # as it is now: another process may have saved meanwhile
        try:
            kept = {}
            for source in now.index:
                if type(source) is str and source not in new and (found := now.entry(source)):
                    kept[source] = found
        finally:
            now.close()
        # Only sources that are still as their entries were: what an upgrade or an edit left
        # behind, or a folder since removed, is dropped here.
        _write(self.path, {**kept, **new})


class _File:
    """A table file, open: its index, and where its modules' code lies."""

    def __init__(self, fd: int, base: int, end: int, index: dict[str, Any]) -> None:
        self.fd = fd
        self.base = base
        """Where the code of the first module starts."""
        self.end = end
        """The file's size."""
        self.index = index

    @classmethod
    def open(cls, path: str) -> _File:
        """The table at `path`; one with no entries when there is none, or it is not one (of
        this layout and interpreter)."""
        try:
            # Not blocking: a pipe there is no table, and must not hold the start.
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
        except OSError:
            return cls(-1, 0, 0, {})
        try:
            found = os.fstat(fd)  # anything but a file reads as too short, or not at all
            first = os.pread(fd, _FIRST_READ, 0)
            length = int.from_bytes(first[:_HEAD], "little")
            if _HEAD + length > found.st_size:
                raise ValueError("shorter than its index")
            head = first[_HEAD : _HEAD + length]
            if len(head) < length:
                head += os.pread(fd, length - len(head), len(first))
            table = marshal.loads(head)
            if not (isinstance(table, tuple) and len(table) == 3):
                raise ValueError("not a table")
            layout, versions, index = table
            if (layout, versions) != (_FORMAT, _VERSIONS) or not isinstance(index, dict):
                raise ValueError("another layout's or interpreter's table")
        except (OSError, ValueError, TypeError, EOFError):
            os.close(fd)
            return cls(-1, 0, 0, {})
        return cls(fd, _HEAD + length, found.st_size, index)

    def entry(self, source: str) -> tuple[int, int, bytes] | None:
        """The entry of `source`, as `_write` takes it, when the table holds one and the
        source is still as it was; else `None`."""
        entry = self.index.get(source)
        if entry is None:
            return None
        try:
            mtime, size, start, length = entry  # four ints, or refused below
            if min(start, length) < 0 or self.base + start + length > self.end:
                return None  # not within the file
            if _stamp(source) != (mtime, size):
                return None
            data = os.pread(self.fd, length, self.base + start)
        except (OSError, ValueError, TypeError):
            return None  # no such source now, or not an entry
        return (mtime, size, data) if len(data) == length else None

    def close(self) -> None:
        """Let the file go."""
        if self.fd >= 0:
            os.close(self.fd)


def _writable(path: str) -> bool:
    """Whether a file can be made at `path` (in its folder, or the folder's, to be made)."""
    folder = os.path.dirname(path)
    while folder and not os.path.isdir(folder):
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return os.access(folder or ".", os.W_OK)


def _stamp(source: str) -> tuple[int, int]:
    """The source's modification time and size as bytecode records them (seconds and bytes,
    32 bits each), to be compared as Python compares them."""
    found = os.stat(source)
    return int(found.st_mtime) & 0xFFFFFFFF, found.st_size & 0xFFFFFFFF


def _bytecode(source: str) -> tuple[int, int, bytes] | None:
    """The bytecode Python wrote for `source`, as `_write` takes it, when it is this
    interpreter's, checked by time and size, and made from the source as it is now."""
    try:
        with open(cache_from_source(source), "rb") as file:
            data = file.read()
        stamp = _stamp(source)
    except (OSError, ValueError, NotImplementedError):
        return None
    # Magic, flags (0: checked by time and size), the source's time, its size, then the code.
    if len(data) < 16 or data[:4] != MAGIC_NUMBER or data[4:8] != bytes(4):
        return None
    mtime, size = int.from_bytes(data[8:12], "little"), int.from_bytes(data[12:16], "little")
    return (mtime, size, data[16:]) if stamp == (mtime, size) else None


def _write(path: str, entries: dict[str, tuple[int, int, bytes]]) -> None:
    """`entries` written as the table at `path`, replacing it whole."""
    from pathlib import Path

    from tether.kept_table import replace_file

    index: dict[str, _Entry] = {}
    start = 0
    for source, (mtime, size, data) in entries.items():
        index[source] = (mtime, size, start, len(data))
        start += len(data)
    head = marshal.dumps((_FORMAT, _VERSIONS, index))
    pieces = [len(head).to_bytes(_HEAD, "little"), head]
    pieces += (data for _, _, data in entries.values())
    replace_file(Path(path), pieces)
