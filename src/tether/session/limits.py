"""How far a session goes before it stops or compacts: the defaults every surface's flags show.

A leaf, so that a command's `--help` names them without loading the session.
"""

from __future__ import annotations

__all__ = ["DEFAULT_COMPACT_AT", "DEFAULT_MAX_STEPS"]

DEFAULT_MAX_STEPS = 50
"""Model requests one prompt may make before it stops."""

DEFAULT_COMPACT_AT = 0.8
"""The fraction of the window past which the session compacts before sending."""
