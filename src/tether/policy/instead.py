"""What a person said to do instead of a refused call, as the refusal's message carries it: a
leaf, so that a replayed card shows it without loading the askers and their accesses
(`tether.policy.asker`, which offers the same names)."""

from __future__ import annotations

__all__ = ["INSTEAD", "said_instead"]

INSTEAD = "The person says to do this instead: "
"""What follows a refusal's message when the person said what to do instead."""


def said_instead(refusal: str) -> str | None:
    """What the person said to do instead, from a refusal's message (`None` when nothing)."""
    _, found, message = refusal.partition(INSTEAD)
    return message if found else None
