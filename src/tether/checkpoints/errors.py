"""Errors of the checkpoint store.

CheckpointError     a snapshot or a restore could not be made; the message says why.
"""

from __future__ import annotations

__all__ = ["CheckpointError"]


class CheckpointError(Exception):
    """A snapshot, a lookup or a restore failed (git failed, the store is unreadable)."""
