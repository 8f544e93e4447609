"""Paths whose content later runs with the user's full rights, outside any sandbox.

Git runs hooks and what its config names (`core.fsmonitor`, `core.hooksPath`, `core.pager`,
filters...); tether starts the servers of `.mcp.json` and runs the settings, commands and
hooks of `.tether/`; Claude Code does the same with `.claude/`; VS Code runs
`.vscode/tasks.json`. A model's edit there, or a sandboxed command's write, would be code
that runs later unconfined: the policy always asks before `edit`/`write` touches them, in
every mode, and the sandbox mounts the workspace's ones read-only.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from tether.home import data_dir

__all__ = ["PROTECTED_ENTRIES", "protected_reason"]

PROTECTED_ENTRIES: dict[str, str] = {
    ".git": "git runs its hooks and the commands its config names",
    ".mcp.json": "tether starts the MCP servers it names",
    ".tether": "tether runs the settings, commands and hooks in it",
    ".claude": "Claude Code and tether run the settings and hooks in it",
    ".vscode": "VS Code runs the tasks in it",
}
"""The names protected at any depth (a `.git` of a nested repository too), and why."""


def protected_reason(path: Path) -> str | None:
    """Why a write to resolved `path` runs later with the user's rights; `None` if it does not.

    Raises nothing: a path that cannot be compared is judged by its names alone.
    """
    for part in path.parts:
        # Case-folded: on a case-insensitive filesystem `.GIT/hooks` is `.git/hooks`.
        name = part.casefold()
        if why := PROTECTED_ENTRIES.get(name):
            return f"{name} is protected: {why}"
    home = data_dir()
    with contextlib.suppress(OSError, RuntimeError):
        home = home.resolve()
    if path == home or path.is_relative_to(home):
        return "tether's own settings, approvals and sessions are protected"
    return None
