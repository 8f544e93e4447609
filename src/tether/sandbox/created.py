"""What a sandboxed command created among the protected entries, and what of it was disarmed.

Checked after each sandboxed command (the `bash` tool's and the hooks'): an entry missing at
its start that is there now, a protected symbolic link it changed, a submodule's `.git` it
added to a workspace index; a git directory among them is disarmed (`gitdefuse`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from tether.sandbox.gitdefuse import Defused, defuse
from tether.sandbox.policy import Confinement

__all__ = ["created_and_defused"]


def created_and_defused(
    confine: Confinement, roots: Sequence[Path]
) -> tuple[list[str], tuple[Defused, ...]]:
    """What became protected while the command ran, and what was disarmed in it (one trip to
    a thread after each sandboxed command; most create nothing)."""
    created = _created_protected(confine)
    if not created:
        return created, ()
    return created, defuse([Path(p) for p in created], roots, confine.protected)


def _created_protected(confine: Confinement) -> list[str]:
    """What became protected while the command ran: entries missing at its start that are
    there now, protected symbolic links it changed, and the `.git` of each submodule it
    added to a workspace index."""
    created = [p for p in confine.absent if os.path.lexists(p)]
    for path, target in confine.links:
        if _link_target(path) != target:
            created.append(path)  # replaced: what is there now was not protected
    for index in confine.indexes:
        created += index.added()
    return [str(p) for p in dict.fromkeys(created)]


def _link_target(path: Path) -> str | None:
    try:
        return os.readlink(path)
    except OSError:
        return None
