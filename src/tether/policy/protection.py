"""What later runs with the user's rights, outside any sandbox: the gate always asks first.

A protected path (`tether.sandbox.protected`: `.git`, `.mcp.json`, `.tether/`, `.claude/`,
`.vscode/`, tether's data directory) and the workspace files the configured hooks run
(`tether.settings.hookfiles`) hold what later runs unconfined, so editing one always asks,
and so does a command that redirects its output into one (`printf ... > .git/hooks/pre-commit`),
in every mode and whatever the rules: with `--sandbox off` nothing else would stop it.
"""

from __future__ import annotations

import functools
from pathlib import Path

from tether.sandbox.protected import protected_reason
from tether.settings import Settings
from tether.settings.hookfiles import hook_files
from tether.shell.invocations import analyze_command
from tether.tools.access import Access, CommandAccess, FileAccess, UnsandboxedAccess
from tether.tools.workspace import Workspace

__all__ = ["Protection"]


class Protection:
    """Why a write lands on what later runs with the user's rights; the files the settings'
    hooks run are found once per hooks configuration."""

    def __init__(self) -> None:
        self._hook_files: tuple[object, frozenset[Path]] = (None, frozenset())

    def of(self, access: Access, workspace: Workspace, settings: Settings | None) -> str | None:
        """Why `access` writes what later runs with the user's rights: an edit of such a path,
        or a command's output redirection into one; `None` when it does not."""
        match access:
            case FileAccess(action="edit", path=path):
                return self.reason(path, settings)
            case CommandAccess() | UnsandboxedAccess():
                for path in _writes(access.command, workspace.cwd, tuple(workspace.roots)):
                    if why := self.reason(path, settings):
                        return f"it writes to {path}; {why}"
                return None
            case _:
                return None

    def reason(self, path: Path, settings: Settings | None) -> str | None:
        """Why a write to resolved `path` runs later with the user's rights, if it does."""
        if why := protected_reason(path):
            return why
        if settings is None or not settings.hooks:
            return None
        if self._hook_files[0] is not settings.hooks:
            self._hook_files = (settings.hooks, frozenset(hook_files(settings)))
        if path in self._hook_files[1]:
            return f"{path.name} is protected: a configured hook runs it outside the sandbox"
        return None


@functools.lru_cache(maxsize=64)
def _writes(command: str, cwd: Path, roots: tuple[Path, ...]) -> tuple[Path, ...]:
    """The files `command`'s output redirections write (parsed once per command)."""
    return analyze_command(command, cwd, roots).writes
