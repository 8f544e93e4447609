"""What besides its arguments decides a call's cards: where it ran and how its tool was set."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CardContext"]


@dataclass(frozen=True)
class CardContext:
    """The workspace a call ran in and the binding stored with it, as presenters see them.

    The session builds it from its workspace and the binding it stores with each call; replay
    builds the same from the log's header and the stored call, so the cards come out the same.
    """

    cwd: str | None = None
    """The workspace root, as the log's header names it; `None` when no workspace is known."""
    binding: str | None = None
    """What the tool's `binding()` said when the call was made (bash: how it was confined)."""
