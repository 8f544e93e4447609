"""The snapshot store of one workspace: what a checkpoint saves, and how it is looked up again.

Stores live under `$TETHER_HOME/snapshots/<workspace key>/`, one per workspace whatever the
session, so a fork or a second session in the same directory shares them. A store knows
nothing of sessions or logs: it makes trees (ids of saved states) and answers what a tree
holds for a path; the session keeps the trees in its log.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

from tether.checkpoints.files import FileState

__all__ = [
    "LineCount",
    "Snapshot",
    "SnapshotStore",
    "StoreKind",
    "store_lock",
    "workspace_key",
]

log = logging.getLogger(__name__)

StoreKind = Literal["git", "preimages"]
"""How a store saves: the whole workspace with git, or the files edit and write changed."""


@dataclass(frozen=True)
class Snapshot:
    """A saved state: its tree, the paths that differ from the previous tree, files left out."""

    tree: str
    changed: tuple[str, ...]
    skipped: tuple[str, ...] = ()
    """Files left out of this snapshot because they are over the size limit."""


@dataclass(frozen=True)
class LineCount:
    """Lines added and deleted in one path between two trees (`None` for a binary file)."""

    path: str
    added: int | None
    deleted: int | None


class SnapshotStore(Protocol):
    """Saves a workspace's state as trees and reads them back."""

    kind: StoreKind
    root: Path
    """The workspace root (every path is relative to it)."""

    def snapshot(self, previous: str | None) -> Snapshot:
        """Save the workspace now; `changed` lists the paths that differ from `previous`."""
        ...

    def track(self, previous: str | None, paths: Sequence[str]) -> None:
        """Before tether changes `paths`: keep what they hold now (a store that saves everything
        does nothing)."""
        ...

    def states(self, tree: str, paths: Collection[str]) -> dict[str, FileState]:
        """What `tree` holds for each path it knows (a git tree knows every path)."""
        ...

    def origins(self, tree: str, paths: Collection[str]) -> dict[str, FileState]:
        """For paths unknown to an older tree: what they held before tether first changed them,
        as `tree` remembers it."""
        ...

    def diff(self, old: str, new: str) -> list[str]:
        """The paths whose state differs between two trees."""
        ...

    def line_counts(self, old: str, new: str) -> list[LineCount]:
        """Lines added and deleted per changed path between two trees."""
        ...

    def content(self, oid: str) -> bytes:
        """The bytes of a blob the store holds."""
        ...

    def blobs(self) -> contextlib.AbstractContextManager[Callable[[str], bytes]]:
        """A reader of many blobs in a row (cheaper than `content` for each)."""
        ...

    def locked(self) -> contextlib.AbstractContextManager[None]:
        """Hold the store's lock (a restore holds it so no snapshot sees it half done)."""
        ...


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def workspace_key(root: Path) -> str:
    """The directory name of a workspace's store: its base name and a hash of its path."""
    digest = hashlib.sha256(str(root).encode(errors="surrogateescape")).hexdigest()[:16]
    name = _UNSAFE.sub("-", root.name)[:40].strip("-.") or "root"
    return f"{name}-{digest}"


@contextlib.contextmanager
def store_lock(path: Path) -> Iterator[int]:
    """An exclusive lock on `path`, waited for (snapshots of one workspace take turns).

    Yields the locked descriptor. A child process given it holds the lock as long as it
    runs: a git left running by a killed tether keeps the next holder waiting until it ends.
    """
    with path.open("ab") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        yield handle.fileno()
    # Closed, not unlocked: the lock goes when the last process holding it lets go.


def known(states: Mapping[str, FileState], paths: Collection[str]) -> dict[str, FileState]:
    """The entries of `states` for `paths` (helper for stores that hold a mapping)."""
    return {p: states[p] for p in paths if p in states}
