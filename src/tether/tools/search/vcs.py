"""The version-control stores no search enters."""

from __future__ import annotations

__all__ = ["VCS_DIRS"]

VCS_DIRS = (".git", ".hg", ".svn", ".jj")
"""Version-control stores: never listed, even though hidden (and, when asked, ignored) files
are."""
