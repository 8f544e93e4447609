"""Checkpoints: snapshots of a workspace, and restoring files from them through a journal.

store = open_store(home, workspace_root)        # git when there is one, else pre-images
first = store.snapshot(None)                    # a tree id
later = store.snapshot(first.tree)              # `changed`: paths that differ from `first`
restore(store, [Change(path, expected, target)], journal)   # crash-safe, never clobbers
"""

from tether.checkpoints.files import (
    MAX_SNAPSHOT_BYTES,
    Blob,
    DiskState,
    FileState,
    Unsnapshotted,
    disk_bytes,
    disk_state,
)
from tether.checkpoints.opening import SNAPSHOTS_DIR, open_store
from tether.checkpoints.restore import Change, Restored, finish, recover, restore
from tether.checkpoints.store import LineCount, Snapshot, SnapshotStore, StoreKind

__all__ = [
    "MAX_SNAPSHOT_BYTES",
    "SNAPSHOTS_DIR",
    "Blob",
    "Change",
    "DiskState",
    "FileState",
    "LineCount",
    "Restored",
    "Snapshot",
    "SnapshotStore",
    "StoreKind",
    "Unsnapshotted",
    "disk_bytes",
    "disk_state",
    "finish",
    "open_store",
    "recover",
    "restore",
]
