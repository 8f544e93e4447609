"""Which store a workspace's checkpoints go to: git's when there is a git, else pre-images."""

from __future__ import annotations

from pathlib import Path

from tether.checkpoints.git_store import GitStore
from tether.checkpoints.preimage_store import PreimageStore
from tether.checkpoints.store import SnapshotStore, workspace_key
from tether.errors import CheckpointError
from tether.gitenv import find_git
from tether.settings.sources import LOCAL_FILE

__all__ = ["OWN_FILES", "SNAPSHOTS_DIR", "open_store"]

OWN_FILES = (LOCAL_FILE,)
"""What tether itself writes into a workspace (the rules "always allow for this project"
adds): the person's, not a prompt's change, so no checkpoint holds it and no undo removes it."""

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
        return GitStore.open(directory, root, git, excluded=[home], own=OWN_FILES)
    return PreimageStore.open(directory / "preimages", root)
