"""Which store a workspace's checkpoints go to: git's when there is a git, else pre-images."""

from __future__ import annotations

from pathlib import Path

from tether.checkpoints.errors import CheckpointError
from tether.checkpoints.git_store import GitStore
from tether.checkpoints.preimage_store import PreimageStore
from tether.checkpoints.store import SnapshotStore, workspace_key
from tether.gitenv import find_git

__all__ = ["SNAPSHOTS_DIR", "open_store"]

SNAPSHOTS_DIR = "snapshots"
"""Under tether's data directory: one store per workspace."""


def open_store(home: Path, root: Path) -> SnapshotStore:
    """The snapshot store of workspace `root` under tether's data directory `home`.

    With git, the whole workspace is saved (tether's own data directory left out when it is
    inside); without it, only what `edit` and `write` are about to change. A home or root
    directory gets no store (`CheckpointError`).
    """
    home, root = home.resolve(), root.resolve()
    if root in (Path(root.anchor), Path.home().resolve()):
        # Everything a person owns is no project: saving it all would take long and much disk.
        raise CheckpointError(
            f"checkpoints are off in {root} (a whole home or root directory); "
            "open a project directory to have them"
        )
    directory = home / SNAPSHOTS_DIR / workspace_key(root)
    git = find_git()
    if git is not None:
        return GitStore.open(directory, root, git, excluded=[home])
    return PreimageStore.open(directory / "preimages", root)
