"""Where tether keeps its data: sessions, approvals, the web token."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["HOME_ENV", "data_dir"]

HOME_ENV = "TETHER_HOME"
"""The environment variable that names the data directory."""


def data_dir() -> Path:
    """tether's data directory: `$TETHER_HOME`, else the platform's user data dir."""
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home)
    import platformdirs  # only when no directory is given

    return Path(platformdirs.user_data_dir("tether"))
