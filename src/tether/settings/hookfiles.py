"""The workspace files the configured hook commands run: guarded like `.git/hooks`.

A hook runs outside the sandbox with the user's rights, so a script it names
(`./scripts/check.sh`, `python tools/lint.py`, `"$CLAUDE_PROJECT_DIR"/ci/guard.sh`) is code
that runs later unconfined: were the model free to edit it, or a sandboxed command free to
write it, it would escape through the next hook. Such files are found by reading each
command's words (as the shell splits them, `$CLAUDE_PROJECT_DIR` and `$TETHER_PROJECT_DIR`
being the workspace) and keeping those that name a path inside the workspace, whether the
file exists yet or not: one that is missing could be planted. What a command reaches
indirectly (`npm run lint` runs `package.json`'s script, `make` the Makefile) is not found;
the README says so.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

from tether.settings.loaded import Settings
from tether.settings.schema import CommandHook

__all__ = ["MAX_HOOK_FILES", "hook_files"]

MAX_HOOK_FILES = 256
"""At most this many files are guarded (the words of a few hundred commands)."""

_PROJECT = re.compile(r"\$(?:\{(?:CLAUDE|TETHER)_PROJECT_DIR\}|(?:CLAUDE|TETHER)_PROJECT_DIR\b)")


def hook_files(settings: Settings) -> tuple[Path, ...]:
    """The paths inside the workspace that `settings`' hook commands name, normalised."""
    try:
        root = settings.root.resolve()
    except (OSError, RuntimeError):
        root = Path(os.path.abspath(settings.root))
    found: dict[Path, None] = {}
    for entry in settings.hooks:
        for hook in entry.group.hooks:
            if not isinstance(hook, CommandHook):
                continue
            for path in _named(hook.command, root):
                found[path] = None
                if len(found) >= MAX_HOOK_FILES:
                    return tuple(found)
    return tuple(found)


def _named(command: str, root: Path) -> list[Path]:
    """The paths inside `root` that the words of `command` name."""
    expanded = _PROJECT.sub(lambda _: str(root).replace("\\", "\\\\"), command)
    try:
        words = shlex.split(expanded, comments=True)
    except ValueError:
        # Unbalanced quotes: the shell would refuse it too; its plain words still count.
        words = expanded.split()
    named: list[Path] = []
    for said in words:
        # `--config=tools/lint.toml` names a file after its `=`.
        word = said.split("=", 1)[1] if said.startswith("-") and "=" in said else said
        # A bare word (`bash`, `lint`) is a program from PATH or an argument, not a file:
        # only what looks like a path is one.
        if "/" not in word or "$" in word or "\0" in word:
            continue
        path = Path(os.path.normpath(root / word))
        if path == root or not path.is_relative_to(root):
            continue
        named.append(path)
        try:
            # Reached through a link, the file edited is the one the link leads to.
            real = path.resolve()
        except (OSError, RuntimeError):
            continue
        if real != path and real.is_relative_to(root):
            named.append(real)
    return named
