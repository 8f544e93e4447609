"""A file someone else changed too, and the one question a restore asks about it.

Every surface asks it in the same words (`Conflict.question`, `TAKE`, `KEEP`) and through
the same `ConflictAsker`; `settle` goes through a plan's conflicts, so no surface decides
on its own which files may be asked about.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from tether.checkpoints import Change

__all__ = ["KEEP", "KEPT", "TAKE", "Conflict", "ConflictAsker", "settle"]

TAKE = "Take the checkpoint's version"
"""The answer that restores a conflicting file (their change is lost)."""

KEEP = "Keep mine"
"""The answer that leaves a conflicting file as it is (the default)."""

KEPT = "kept as it is"
"""What is said of a conflicting file that is not restored."""


@dataclass(frozen=True)
class Conflict:
    """A path someone else changed too: restoring it would lose their change."""

    path: str
    reason: str
    diff: str
    """A short diff from the file now to the checkpoint's version (or why there is none)."""
    take: Change | None
    """The change that takes the checkpoint's version; `None` when it cannot be taken."""

    @property
    def heading(self) -> str:
        """`a.py: changed after tether last changed it`: the file and why it is asked about."""
        return f"{self.path}: {self.reason}"

    @property
    def question(self) -> str:
        """`Restore a.py?`: what the person is asked, answered with `TAKE` or `KEEP`."""
        return f"Restore {self.path}?"


class ConflictAsker(Protocol):
    """How one surface puts a conflict to the person."""

    async def ask(self, conflict: Conflict) -> bool:
        """Whether to take the checkpoint's version of a file that can be restored."""
        ...

    def keep(self, conflict: Conflict) -> None:
        """Show a conflict nothing can be put in place of (a folder stands there now): it stays."""
        ...


async def settle(conflicts: Sequence[Conflict], asker: ConflictAsker) -> frozenset[str]:
    """The conflicting paths the person takes from the checkpoint, each asked once."""
    take: set[str] = set()
    for conflict in conflicts:
        if conflict.take is None:
            asker.keep(conflict)
        elif await asker.ask(conflict):
            take.add(conflict.path)
    return frozenset(take)
