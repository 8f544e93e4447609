"""What the paths a hook reads hold now, and what changed in them since: stat data, a link's
target, a folder's entries, and the start of each file's text (to show a diff).

A file is compared on its inode, size, modification and change times, mode and owner: a
write changes the change time (which no one can set back), a rename the inode. A folder is
compared on its entries (each one's own stat data; a sub-folder by its inode only, so that
a busy sub-folder is not a change of its parent), leaving out the files no interpreter loads
(`inert`: not executable, not code or configuration by their suffix — a log beside a script).
What disappeared is not a change: nothing that is not there runs.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from tether.bounded import read_bounded_text
from tether.errors import UnreadableFile

__all__ = ["MAX_ENTRIES", "Fingerprint", "State", "changes", "fingerprint", "inert"]

MAX_ENTRIES = 4096
"""Entries of a folder compared one by one; past them, the folder's own times stand for all."""

_TEXT_BYTES = 64 * 1024
"""Of a file, the text kept to show what changed."""

_DIFF_LINES = 40
"""Lines of diff shown per changed file."""

_CODE_SUFFIXES = frozenset(
    {".sh", ".bash", ".zsh", ".fish", ".py", ".pyc", ".pyw", ".pth", ".so", ".pl", ".pm"}
    | {".rb", ".js", ".mjs", ".cjs", ".ts", ".mts", ".php", ".lua", ".r", ".ps1", ".tcl"}
    | {".env", ".cfg", ".ini", ".toml", ".json", ".yaml", ".yml", ".mk", ".jar", ".dylib"}
)
"""What an interpreter may load or read as configuration: never taken as a log's change."""

Kind = Literal["missing", "file", "link", "folder", "other"]


@dataclass(frozen=True)
class State:
    """One path as it was seen."""

    kind: Kind
    identity: tuple[int, ...] = ()
    target: str | None = None
    """Where a symbolic link points."""
    entries: tuple[tuple[str, Kind, tuple[int, ...]], ...] | None = None
    """A folder's entries (name, kind, identity), sorted."""
    text: str | None = field(default=None, compare=False)
    """The start of a file's text, when it is text."""


Fingerprint = Mapping[tuple[str, Path], State]
"""Each watched path (`file` or `folder`) and its state."""


def fingerprint(files: Iterable[Path], folders: Iterable[Path]) -> dict[tuple[str, Path], State]:
    """The states of `files` and of `folders`' entries now."""
    seen: dict[tuple[str, Path], State] = {}
    for path in files:
        seen["file", path] = _file(path)
    for path in folders:
        seen["folder", path] = _folder(path)
    return seen


def changes(before: Fingerprint, now: Fingerprint) -> list[str]:
    """What appeared or changed from `before` to `now`, one line each (a diff follows a
    changed text file); a path `before` did not watch counts as new unless it is missing."""
    said: list[str] = []
    files = {path for what, path in now if what == "file"}
    for key, state in now.items():
        what, path = key
        old = before.get(key)
        if what == "folder":
            said += _folder_changes(path, old, state, files)
        elif state.kind != "missing" and old != state:
            said += _file_change(path, old, state)
    return said


def inert(path: Path, state: State) -> bool:
    """Whether a change to `path` is of the kind a hook's own run makes (a log, a note):
    a regular file, not executable, not code or configuration by its suffix."""
    if state.kind == "missing":
        return True
    if state.kind != "file" or not state.identity:
        return False
    mode = state.identity[5]
    return not mode & 0o111 and path.suffix.lower() not in _CODE_SUFFIXES


def _identity(info: os.stat_result) -> tuple[int, ...]:
    return (
        info.st_ino,
        info.st_dev,
        info.st_size,
        info.st_mtime_ns,
        info.st_ctime_ns,
        info.st_mode,
        info.st_uid,
    )


def _kind(mode: int) -> Kind:
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISREG(mode):
        return "file"
    return "other"


def _file(path: Path) -> State:
    try:
        info = os.lstat(path)
    except OSError:
        return State("missing")
    kind = _kind(info.st_mode)
    if kind == "link":
        try:
            target: str | None = os.readlink(path)
        except OSError:
            target = None
        return State(kind, _identity(info), target=target)
    if kind == "folder":
        return State(kind, (info.st_ino, info.st_dev))
    text = None
    if kind == "file" and info.st_size <= _TEXT_BYTES:
        try:
            text = read_bounded_text(path, limit=_TEXT_BYTES, follow_symlinks=False)
        except (OSError, UnreadableFile):
            text = None
    return State(kind, _identity(info), text=text)


def _folder(path: Path) -> State:
    try:
        info = os.lstat(path)
    except OSError:
        return State("missing")
    if not stat.S_ISDIR(info.st_mode):
        return _file(path)
    entries: list[tuple[str, Kind, tuple[int, ...]]] = []
    try:
        with os.scandir(path) as listing:
            for entry in listing:
                if len(entries) >= MAX_ENTRIES:
                    # Too many to compare one by one: the folder's times change on any
                    # entry added, removed or renamed.
                    own = (info.st_ino, info.st_mtime_ns, info.st_ctime_ns)
                    return State("folder", own, entries=tuple(sorted(entries)))
                try:
                    entry_info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                kind = _kind(entry_info.st_mode)
                identity = (entry_info.st_ino,) if kind == "folder" else _identity(entry_info)
                entries.append((entry.name, kind, identity))
    except OSError:
        return State("other", (info.st_ino,))
    return State("folder", (info.st_ino,), entries=tuple(sorted(entries)))


def _file_change(path: Path, old: State | None, new: State) -> list[str]:
    if old is None:
        return [f"{path}: not seen when the session started"]
    if old.kind == "missing":
        return [f"{path}: appeared"]
    if new.kind == "link" and old.kind == "link" and new.target != old.target:
        return [f"{path}: now points to {new.target} (was {old.target})"]
    if new.kind != old.kind:
        return [f"{path}: replaced ({old.kind} then, {new.kind} now)"]
    line = f"{path}: changed"
    if old.text is None or new.text is None or old.text == new.text:
        return [line]
    from tether.linediff import row_hunks  # the diff engine, with the first changed file

    rows = [
        f"{row.op}{row.text}"
        for hunk in row_hunks(old.text, new.text)
        for row in hunk.rows
        if row.op != " "
    ]
    shown = rows[:_DIFF_LINES]
    if len(rows) > len(shown):
        shown.append(f"… {len(rows) - len(shown)} more lines")
    return [line, *(f"    {row}" for row in shown)]


def _folder_changes(path: Path, old: State | None, new: State, files: set[Path]) -> list[str]:
    """What appeared or changed among a folder's entries (those watched as files aside)."""
    if new.kind == "missing" or (old is not None and old == new):
        return []
    if old is None:
        return [f"{path}/: not seen when the session started"]
    if old.kind == "missing" or old.entries is None or new.entries is None:
        return [f"{path}: appeared"] if old.kind == "missing" else [f"{path}: changed"]
    before = {name: (kind, identity) for name, kind, identity in old.entries}
    said = []
    for name, kind, identity in new.entries:
        if before.get(name) == (kind, identity) or path / name in files:
            continue
        if inert(path / name, State(kind, identity)):
            continue  # a log or a note beside a script is not what runs
        said.append(f"{path / name}: {'changed' if name in before else 'appeared'}")
    if not said and old.identity != new.identity:
        said.append(f"{path}: entries were added or renamed")
    return said
