"""Where tether keeps its data: `$TETHER_HOME`, else the platform's user data directory.

A module of its own, below everything, so what starts fast (the interactive terminal's
history) finds the directory without importing the session machinery.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["data_dir"]


def data_dir() -> Path:
    """tether's data directory: `$TETHER_HOME`, else the platform's user data dir."""
    home = os.environ.get("TETHER_HOME")
    if home:
        return Path(home)
    import platformdirs

    return Path(platformdirs.user_data_dir("tether"))
