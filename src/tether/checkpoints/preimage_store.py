"""Snapshots without git: the files `edit` and `write` are about to change, kept before they do.

A tree here is a manifest (a JSON object stored by its hash) of the files tether has changed
so far: `states` maps each to its blob (or `null`: no such file), `origins` keeps what each
held before tether first changed it. Changes made by `bash` or MCP tools are not seen.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import secrets
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tether.beneath import open_file
from tether.checkpoints.files import (
    Blob,
    FileMode,
    FileState,
    Unsnapshotted,
    blob_id,
    disk_state,
    mode_of,
    read_fd,
)
from tether.checkpoints.store import LineCount, Snapshot, StoreKind, known, store_lock
from tether.errors import CheckpointError
from tether.jsontext import parse_json

__all__ = ["PreimageStore"]

_ID = re.compile(r"[0-9a-f]{40}")


@dataclass(frozen=True)
class _Manifest:
    states: dict[str, FileState] = field(default_factory=dict)
    origins: dict[str, FileState] = field(default_factory=dict)


class PreimageStore:
    """The pre-image store of one workspace (used when git is missing)."""

    kind: StoreKind = "preimages"

    def __init__(self, directory: Path, root: Path) -> None:
        self.directory = directory
        self.root = root
        self._objects = directory / "objects"
        self._lock = directory / "lock"
        self._pending: dict[str, FileState] = {}

    @classmethod
    def open(cls, directory: Path, root: Path) -> PreimageStore:
        """The store in `directory` for the workspace `root`, created on first use."""
        (directory / "objects").mkdir(parents=True, exist_ok=True)
        return cls(directory, root)

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the store's lock."""
        with store_lock(self._lock):
            yield

    def track(self, previous: str | None, paths: Sequence[str]) -> None:
        """Keep what `paths` hold now, before tether changes them (once per path and tree chain)."""
        manifest = self._manifest(previous) if previous else _Manifest()
        with self.locked():
            for path in paths:
                if path in manifest.states or path in self._pending:
                    continue
                state = self._save(path)
                if not isinstance(state, Unsnapshotted):
                    self._pending[path] = state

    def snapshot(self, previous: str | None) -> Snapshot:
        """Save the tracked files as they are now."""
        old = self._manifest(previous) if previous else _Manifest()
        with self.locked():
            states: dict[str, FileState] = {}
            for path in sorted({*old.states, *self._pending}):
                state = self._save(path)
                if not isinstance(state, Unsnapshotted):
                    states[path] = state
            manifest = _Manifest(states, {**self._pending, **old.origins})
            self._pending.clear()
            tree = self._put_manifest(manifest)
        changed = tuple(p for p in states if p not in old.states or old.states[p] != states[p])
        return Snapshot(tree, changed if previous else ())

    def states(self, tree: str, paths: Collection[str]) -> dict[str, FileState]:
        """What `tree` holds for the tracked paths among `paths`."""
        return known(self._manifest(tree).states, paths)

    def origins(self, tree: str, paths: Collection[str]) -> dict[str, FileState]:
        """What `paths` held before tether first changed them, as `tree` remembers."""
        return known(self._manifest(tree).origins, paths)

    def diff(self, old: str, new: str) -> list[str]:
        """Tracked paths whose state differs between two manifests."""
        a, b = self._manifest(old).states, self._manifest(new).states
        return sorted(p for p in {*a, *b} if a.get(p, ...) != b.get(p, ...))

    def line_counts(self, old: str, new: str) -> list[LineCount]:
        """Lines added and deleted per path (computed here, as git would)."""
        a, b = self._manifest(old).states, self._manifest(new).states
        return [self._count(p, a.get(p), b.get(p)) for p in self.diff(old, new)]

    def content(self, oid: str) -> bytes:
        """The bytes of a saved blob."""
        try:
            return self._object(oid).read_bytes()
        except OSError as exc:
            raise CheckpointError(f"the snapshot store has no blob {oid}") from exc

    @contextlib.contextmanager
    def blobs(self) -> Iterator[Callable[[str], bytes]]:
        """A reader of saved blobs."""
        yield self.content

    def _count(self, path: str, old: FileState, new: FileState) -> LineCount:
        from tether.linediff import row_hunks  # the diff engine, with the first count

        texts = []
        for state in (old, new):
            data = self.content(state.oid) if state is not None else b""
            if b"\0" in data[:8192]:
                return LineCount(path, None, None)
            texts.append(data.decode("utf-8", errors="replace"))
        rows = [row for hunk in row_hunks(texts[0] or None, texts[1]) for row in hunk.rows]
        return LineCount(path, sum(r.op == "+" for r in rows), sum(r.op == "-" for r in rows))

    def _save(self, path: str) -> FileState | Unsnapshotted:
        """The state of `path` now, its content stored."""
        state = disk_state(self.root, path)
        if not isinstance(state, Blob):
            return state
        target = self.root / path
        if state.mode == "120000":
            data = os.fsencode(os.readlink(target))
        else:
            fd = open_file(target, os.O_RDONLY | os.O_NONBLOCK, [self.root])
            try:
                data = read_fd(fd)
                mode = mode_of(os.fstat(fd).st_mode)
            finally:
                os.close(fd)
            state = Blob(blob_id(data), mode)
        self._put(state.oid, data)
        return state

    def _object(self, oid: str) -> Path:
        if not _ID.fullmatch(oid):
            raise CheckpointError(f"not an object id: {oid!r}")
        return self._objects / oid[:2] / oid[2:]

    def _put(self, oid: str, data: bytes) -> None:
        path = self._object(oid)
        if path.exists():
            return
        path.parent.mkdir(exist_ok=True)
        temp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        with temp.open("xb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)

    def _put_manifest(self, manifest: _Manifest) -> str:
        data = json.dumps(
            {"states": _dumped(manifest.states), "origins": _dumped(manifest.origins)},
            sort_keys=True,
        ).encode()
        oid = hashlib.sha1(b"manifest\0" + data, usedforsecurity=False).hexdigest()
        self._put(oid, data)
        return oid

    def _manifest(self, tree: str) -> _Manifest:
        try:
            raw = parse_json(self._object(tree).read_bytes())  # too deep: a ValueError too
            return _Manifest(_loaded(raw["states"]), _loaded(raw["origins"]))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise CheckpointError(f"checkpoint {tree} is not in the pre-image store") from exc


def _dumped(states: Mapping[str, FileState]) -> dict[str, list[str] | None]:
    return {p: [s.oid, s.mode] if s is not None else None for p, s in states.items()}


def _loaded(raw: Mapping[str, list[str] | None]) -> dict[str, FileState]:
    states: dict[str, FileState] = {}
    for path, value in raw.items():
        if value is None:
            states[path] = None
        else:
            oid, mode = value
            states[path] = Blob(oid, _MODES.get(mode, "100644"))
    return states


_MODES: dict[str, FileMode] = {"100644": "100644", "100755": "100755", "120000": "120000"}
