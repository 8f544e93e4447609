"""The workspace files the configured hook commands run: guarded like `.git/hooks`.

A hook with `"sandbox": false` (and every hook of a session without a sandbox) runs with the
user's rights, so a script it names (`./scripts/check.sh`, `python tools/lint.py`,
`"$CLAUDE_PROJECT_DIR"/ci/guard.sh`) is code that may run later unconfined: were the model
free to edit it, or a sandboxed command free to write it, it could escape through the next
hook. This is the first guard, for every hook (a session's sandbox can be switched off
between calls); the complete one is `tether.hooks.guard`, which asks before such a hook runs
what changed. Such files are found by reading each
command as the shell splits it (`$CLAUDE_PROJECT_DIR` and `$TETHER_PROJECT_DIR` being the
workspace): of each simple command, its program when that is a path, or the script an
interpreter runs (`bash`, `python3`, `node`, `uv run`, ...), when it lies inside the
workspace (or one of its `additionalDirectories`) and is not a folder, whether the file
exists yet or not (one that is missing could be planted). Arguments are not programs (`ruff
check src/app.py` guards nothing), and what a command reaches indirectly (`npm run lint`
runs `package.json`'s script, `make` the Makefile) is not found; the README says so.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from tether.lazy import pattern
from tether.sandbox.protected import protected_reason
from tether.settings.loaded import Settings
from tether.settings.schema import CommandHook

__all__ = ["MAX_HOOK_FILES", "hook_files"]

MAX_HOOK_FILES = 256
"""At most this many files are guarded (the words of a few hundred commands)."""

_SEPARATORS = frozenset({"&&", "||", ";", "|", "&", "(", ")", ";;", "|&"})
_WRAPPERS = frozenset({"env", "exec", "command", "nohup", "time", "nice", "xargs", "timeout"})
_INTERPRETERS = frozenset(
    {"bash", "sh", "zsh", "dash", "ksh", "fish", "source", ".", "node", "deno", "bun", "tsx"}
    | {"ruby", "perl", "php", "lua", "Rscript", "pwsh", "osascript", "uv"}
)
_PYTHON = pattern(r"python[0-9.]*|pypy[0-9.]*")
_INLINE = frozenset({"-c", "-m", "-e", "--eval", "-E", "--command"})
_WRAPPER_ARGUMENT = pattern(r"-.*|[0-9.]+[smhd]?")
"""An option or a number before the program (`nice -n 5`, `timeout 10s`)."""
_ASSIGNMENT = pattern(r"[A-Za-z_][A-Za-z0-9_]*=")
_PROJECT = pattern(r"\$(?:\{(?:CLAUDE|TETHER)_PROJECT_DIR\}|(?:CLAUDE|TETHER)_PROJECT_DIR\b)")


def hook_files(settings: Settings) -> tuple[Path, ...]:
    """The files inside the workspace that `settings`' hook commands run, normalised."""
    root = _resolved(settings.root)
    # The extra directories are as writable as the workspace: a hook's script there counts.
    roots = (root, *(_resolved(entry.value) for entry in settings.additional_directories))
    found: dict[Path, None] = {}
    for entry in settings.hooks:
        for hook in entry.group.hooks:
            if not isinstance(hook, CommandHook):
                continue
            for path in _named(hook.command, root, roots):
                found[path] = None
                if len(found) >= MAX_HOOK_FILES:
                    return tuple(found)
    return tuple(found)


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return Path(os.path.abspath(path))


def _inside(path: Path, roots: tuple[Path, ...]) -> bool:
    return any(path != r and path.is_relative_to(r) for r in roots)


def _named(command: str, root: Path, roots: tuple[Path, ...]) -> list[Path]:
    """The paths inside `roots` of the programs `command` runs in `root`."""
    expanded = _PROJECT.sub(lambda _: str(root).replace("\\", "\\\\"), command)
    named: list[Path] = []
    for word in _programs(expanded):
        if "$" in word or "\0" in word or not word:
            continue
        path = Path(os.path.normpath(root / word))
        # One in `.claude/` or `.tether/` is protected whole already.
        if not _inside(path, roots) or path.is_dir() or protected_reason(path):
            continue
        named.append(path)
        try:
            # Reached through a link, the file edited is the one the link leads to.
            real = path.resolve()
        except (OSError, RuntimeError):
            continue
        if real != path and _inside(real, roots) and not protected_reason(real):
            named.append(real)
    return named


def _programs(command: str) -> list[str]:
    """The files each simple command of `command` runs: its first word when that is a path
    (`./scripts/check.sh`), or the script an interpreter is given (`python3 -u tools/lint.py`)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError:
        return []  # unbalanced quotes: the shell refuses it too, and it runs nothing
    found: list[str] = []
    expecting = "program"  # or "script" (after an interpreter), or "" (arguments)
    for word in words:
        if word in _SEPARATORS:
            expecting = "program"
        elif expecting == "program":
            if _ASSIGNMENT.match(word) or word in _WRAPPERS or _WRAPPER_ARGUMENT.fullmatch(word):
                continue  # `FOO=1 env X=2 ./run.sh`, `timeout 10 ./run.sh`: the program follows
            if os.path.basename(word) in _INTERPRETERS or _PYTHON.fullmatch(os.path.basename(word)):
                expecting = "script"
                continue
            if "/" in word:
                found.append(word)
            expecting = ""
        elif expecting == "script":
            if word == "run":
                continue  # `uv run tools/check.py`
            if word in _INLINE:
                expecting = ""  # `bash -c '...'`, `python -m tool`: no script file
            elif not word.startswith("-"):
                found.append(word)
                expecting = ""
    return found
