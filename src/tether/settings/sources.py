"""Where settings come from: the files, in the order they are merged, and the command line."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = [
    "CLAUDE_FILE",
    "CLAUDE_LOCAL_FILE",
    "CLAUDE_USER_FILE",
    "FLAGS",
    "LOCAL_FILE",
    "PROJECT_DIR",
    "PROJECT_FILE",
    "USER_FILE",
    "Scope",
    "SettingsSource",
    "setting_sources",
]

Scope = Literal["claude-user", "user", "claude", "project", "claude-local", "local", "flags"]
"""`user`: `$TETHER_HOME/settings.json`; `project`: `.tether/settings.json` (committed);
`local`: `.tether/settings.local.json` (personal); `claude-user`, `claude` and
`claude-local`: Claude Code's `~/.claude/settings.json`, `.claude/settings.json` and
`.claude/settings.local.json`, read with Claude Code's meaning; `flags`: the command line."""

PROJECT_DIR = ".tether"
USER_FILE = "settings.json"
PROJECT_FILE = f"{PROJECT_DIR}/settings.json"
LOCAL_FILE = f"{PROJECT_DIR}/settings.local.json"
CLAUDE_FILE = ".claude/settings.json"
CLAUDE_LOCAL_FILE = ".claude/settings.local.json"
CLAUDE_USER_FILE = "settings.json"
"""In Claude Code's user directory (`$CLAUDE_CONFIG_DIR`, else `~/.claude`)."""


@dataclass(frozen=True)
class SettingsSource:
    """One layer of settings: its scope and its file (`None` for the command line)."""

    scope: Scope
    path: Path | None = None

    @property
    def from_workspace(self) -> bool:
        """Whether the workspace controls it (so it grants nothing until trusted)."""
        return self.scope in ("project", "local", "claude", "claude-local")

    @property
    def claude(self) -> bool:
        """Whether it is one of Claude Code's files (read with Claude Code's meaning)."""
        return self.scope in ("claude-user", "claude", "claude-local")

    def __str__(self) -> str:
        return "the command line" if self.path is None else str(self.path)


FLAGS = SettingsSource("flags")


def setting_sources(
    root: Path, home: Path, claude_dir: Path | None = None
) -> tuple[SettingsSource, ...]:
    """The files of a workspace rooted at `root`, in merge order (later wins).

    Claude Code's order, user < project < local, with Claude Code's file of each level just
    before tether's own, so that tether's file of a level wins over Claude Code's of it.
    `claude_dir` is Claude Code's user directory (`None`: not read)."""
    user = (
        ()
        if claude_dir is None
        else (SettingsSource("claude-user", claude_dir / CLAUDE_USER_FILE),)
    )
    return (
        *user,
        SettingsSource("user", home / USER_FILE),
        SettingsSource("claude", root / CLAUDE_FILE),
        SettingsSource("project", root / PROJECT_FILE),
        SettingsSource("claude-local", root / CLAUDE_LOCAL_FILE),
        SettingsSource("local", root / LOCAL_FILE),
    )
