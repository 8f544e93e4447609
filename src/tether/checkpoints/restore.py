"""Putting files back as a snapshot holds them, through a journal that a crash cannot outrun.

A restore first writes its journal (every change: the path, what it must hold now, what it
gets), then applies the changes one file at a time, each atomically (a temp file beside it,
fsynced, renamed), then removes the journal. A process killed midway leaves no half-written
file, and `recover` finishes the journal's changes the next time: each change is applied
only while the file still holds what the journal expected (or is skipped when it already
holds the target), so a file changed since is never overwritten.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import secrets
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import JsonValue

from tether.beneath import opened_dir
from tether.bounded import read_bounded
from tether.checkpoints.files import Blob, FileState, disk_state
from tether.checkpoints.store import SnapshotStore
from tether.errors import CheckpointError, ToolError, UnreadableFile
from tether.jsontext import parse_json
from tether.tools.fs.atomic import temp_name, temp_stem

__all__ = ["MAX_JOURNAL_BYTES", "Change", "Restored", "finish", "recover", "restore"]

MAX_JOURNAL_BYTES = 256 * 1024 * 1024
"""A restore journal larger than this is not read (it lists paths and ids: far less)."""

_VERSION = 1


@dataclass(frozen=True)
class Change:
    """One path to restore: what it must hold now (`expected`) and what it gets (`target`)."""

    path: str
    expected: FileState
    target: FileState


@dataclass(frozen=True)
class Restored:
    """What a restore did: paths put back, and paths left alone because they changed meanwhile."""

    restored: tuple[str, ...]
    kept: tuple[str, ...]


def restore(
    store: SnapshotStore, changes: Sequence[Change], journal: Path, note: JsonValue = None
) -> Restored:
    """Apply `changes` under the store's lock, through `journal` (`note` kept for `recover`).

    The journal stays until `finish`: the caller records the restore first, so a crash
    before that record leaves the journal for `recover` to finish.
    """
    with store.locked():
        _write_journal(journal, store.root, changes, note)
        return _apply(store, changes)


def finish(journal: Path) -> None:
    """The restore is recorded: its journal goes."""
    _remove(journal)


def recover(store: SnapshotStore, journal: Path) -> tuple[Restored, JsonValue] | None:
    """Finish the restore a killed process left in `journal`; `None` when there is none.

    Returns what was restored in all (before and after the crash) and the journal's note;
    the journal stays until `finish`.
    """
    try:
        raw = read_bounded(journal, limit=MAX_JOURNAL_BYTES, follow_symlinks=False)
    except FileNotFoundError:
        return None
    except UnreadableFile as exc:  # a FIFO or a link put there: never waited on or followed
        raise CheckpointError(f"cannot read the restore journal: {exc}") from exc
    try:
        data = parse_json(raw)
        if data["version"] != _VERSION or data["root"] != str(store.root):
            raise ValueError("another version or workspace")
        changes = [
            Change(path, _state(expected), _state(target))
            for path, expected, target in data["changes"]
        ]
        note: JsonValue = data.get("note")
    except (ValueError, KeyError, TypeError) as exc:
        raise CheckpointError(f"the restore journal {journal} is not readable: {exc}") from exc
    with store.locked():
        done = _apply(store, changes)
    return done, note


def _apply(store: SnapshotStore, changes: Sequence[Change]) -> Restored:
    root = store.root
    restored: list[str] = []
    kept: list[str] = []
    touched: set[Path] = set()
    # Removals deepest first (a directory a removal empties goes too), then writes
    # shallowest first (a file that stood where a directory must be is gone by then).
    removals = sorted((c for c in changes if c.target is None), key=_depth, reverse=True)
    writes = sorted((c for c in changes if c.target is not None), key=_depth)
    with store.blobs() as read:
        for change in (*removals, *writes):
            _clean_temps(root, change.path)
            now = disk_state(root, change.path)
            if now == change.target:
                restored.append(change.path)
            elif now != change.expected:
                kept.append(change.path)
            elif _put(root, change, now, read):
                restored.append(change.path)
                touched.add((root / change.path).parent)
            else:
                kept.append(change.path)
    for directory in touched:
        _fsync_dir(directory)
    return Restored(tuple(sorted(restored)), tuple(sorted(kept)))


def _put(root: Path, change: Change, now: FileState, read: Callable[[str], bytes]) -> bool:
    """Make `change.path` hold the target; `False` when the way there is blocked."""
    target = root / change.path
    try:
        if change.target is None:
            with opened_dir(target.parent, [root]) as parent:
                os.unlink(target.name, dir_fd=parent)
            _prune_empty(root, target.parent)
            return True
        data = read(change.target.oid)
        with opened_dir(target.parent, [root], create=True) as parent:
            _write(parent, target.name, data, change.target, now)
        return True
    except (OSError, ToolError):
        return False


def _write(parent: int, name: str, data: bytes, target: Blob, now: FileState) -> None:
    temp = temp_name(name)
    if target.mode == "120000":
        os.symlink(os.fsdecode(data), temp, dir_fd=parent)
    else:
        executable = target.mode == "100755"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        # A new file gets the usual mode (the umask applies); an existing one keeps its own.
        fd = os.open(temp, flags, 0o777 if executable else 0o666, dir_fd=parent)
        try:
            if isinstance(now, Blob) and now.mode != "120000":
                old = stat.S_IMODE(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode)
                os.fchmod(fd, _with_exec(old, executable))
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        except BaseException:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=parent)
            raise
        os.close(fd)
    try:
        os.replace(temp, name, src_dir_fd=parent, dst_dir_fd=parent)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp, dir_fd=parent)
        raise


def _with_exec(mode: int, executable: bool) -> int:
    if executable:
        return mode | ((mode & 0o444) >> 2)  # execute wherever it may be read
    return mode & ~0o111


def _prune_empty(root: Path, directory: Path) -> None:
    """Remove directories a removal left empty, up to the workspace root."""
    while directory != root and directory.is_relative_to(root):
        try:
            with opened_dir(directory.parent, [root]) as parent:
                os.rmdir(directory.name, dir_fd=parent)
        except (OSError, ToolError):
            return
        directory = directory.parent


def _clean_temps(root: Path, path: str) -> None:
    """Remove temp files a killed restore left beside `path`."""
    target = root / path
    prefix = f"{temp_stem(target.name)}."
    with contextlib.suppress(OSError, ToolError), opened_dir(target.parent, [root]) as parent:
        fd = os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=parent)
        try:
            names = os.listdir(fd)
        finally:
            os.close(fd)
        for leftover in names:
            if leftover.startswith(prefix) and leftover.endswith(".tmp"):
                os.unlink(leftover, dir_fd=parent)


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _depth(change: Change) -> int:
    return change.path.count("/")


def _write_journal(journal: Path, root: Path, changes: Sequence[Change], note: JsonValue) -> None:
    data = {
        "version": _VERSION,
        "root": str(root),
        "note": note,
        "changes": [[c.path, _dumped(c.expected), _dumped(c.target)] for c in changes],
    }
    temp = journal.with_name(f"{journal.name}.{secrets.token_hex(4)}.tmp")
    with temp.open("xb") as handle:
        handle.write(json.dumps(data).encode())
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temp, journal)
    _fsync_dir(journal.parent)


def _remove(journal: Path) -> None:
    try:
        journal.unlink()
    except OSError as exc:
        if exc.errno != errno.ENOENT:
            raise
    _fsync_dir(journal.parent)


def _dumped(state: FileState) -> list[str] | None:
    return None if state is None else [state.oid, state.mode]


def _state(raw: object) -> FileState:
    if raw is None:
        return None
    if (
        isinstance(raw, list)
        and len(raw) == 2
        and isinstance(raw[0], str)
        and raw[1] in ("100644", "100755", "120000")
    ):
        return Blob(raw[0], raw[1])
    raise ValueError(f"not a file state: {raw!r}")
