"""Where settings come from: the files, in the order they are merged, and the command line."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = [
    "CLAUDE_FILE",
    "CLAUDE_LOCAL_FILE",
    "FLAGS",
    "LOCAL_FILE",
    "PROJECT_DIR",
    "PROJECT_FILE",
    "USER_FILE",
    "Scope",
    "SettingsSource",
    "setting_sources",
]

Scope = Literal["user", "project", "local", "claude", "claude-local", "flags"]
"""`user`: `$TETHER_HOME/settings.json`; `project`: `.tether/settings.json` (committed);
`local`: `.tether/settings.local.json` (personal); `claude` and `claude-local`: Claude Code's
`.claude/settings.json` and `.claude/settings.local.json`, read for their `hooks` only;
`flags`: the command line."""

PROJECT_DIR = ".tether"
USER_FILE = "settings.json"
PROJECT_FILE = f"{PROJECT_DIR}/settings.json"
LOCAL_FILE = f"{PROJECT_DIR}/settings.local.json"
CLAUDE_FILE = ".claude/settings.json"
CLAUDE_LOCAL_FILE = ".claude/settings.local.json"


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
    def hooks_only(self) -> bool:
        """Whether only its `hooks` are read (Claude Code's files: their other keys are
        Claude Code's own)."""
        return self.scope in ("claude", "claude-local")

    def __str__(self) -> str:
        return "the command line" if self.path is None else str(self.path)


FLAGS = SettingsSource("flags")


def setting_sources(root: Path, home: Path) -> tuple[SettingsSource, ...]:
    """The files of a workspace rooted at `root`, in merge order (later wins)."""
    return (
        SettingsSource("user", home / USER_FILE),
        SettingsSource("project", root / PROJECT_FILE),
        SettingsSource("local", root / LOCAL_FILE),
        SettingsSource("claude", root / CLAUDE_FILE),
        SettingsSource("claude-local", root / CLAUDE_LOCAL_FILE),
    )
