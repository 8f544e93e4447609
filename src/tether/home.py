"""Where tether keeps its data: sessions, approvals, the web token."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["CLAUDE_CONFIG_ENV", "HOME_ENV", "claude_home", "data_dir", "shown_path"]

HOME_ENV = "TETHER_HOME"
"""The environment variable that names the data directory."""

CLAUDE_CONFIG_ENV = "CLAUDE_CONFIG_DIR"
"""Claude Code's variable for its user directory (`~/.claude` without it)."""


def data_dir() -> Path:
    """tether's data directory: `$TETHER_HOME`, else the platform's user data dir."""
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home)
    import platformdirs  # only when no directory is given

    return Path(platformdirs.user_data_dir("tether"))


def claude_home() -> Path:
    """Claude Code's user directory: `$CLAUDE_CONFIG_DIR`, else `~/.claude`."""
    configured = os.environ.get(CLAUDE_CONFIG_ENV)
    return Path(configured) if configured else Path.home() / ".claude"


def shown_path(path: Path, workspace: Path) -> str:
    """A file as people read it: relative to the workspace, else `~/...` below the home
    directory, else in full."""
    if path.is_relative_to(workspace):
        return str(path.relative_to(workspace))
    home = Path.home()
    if path.is_relative_to(home):
        return f"~/{path.relative_to(home)}"
    return str(path)
