"""Where instructions are, in each directory from the repository's root down to the workspace
and in the user's own folders.

In one directory, in this order (each that exists, all of them): `AGENTS.md`, Claude Code's
`CLAUDE.md` and `.claude/CLAUDE.md`, the rule files `.claude/rules/**/*.md` (by path), and
last `CLAUDE.local.md` (the person's own, not shared: it has the last word). The user's: tether's
`$TETHER_HOME/AGENTS.md` and `CLAUDE.md`, then Claude Code's `~/.claude/CLAUDE.md` and
`~/.claude/rules/**/*.md` (`$CLAUDE_CONFIG_DIR` moves `~/.claude`).
"""

from __future__ import annotations

import itertools
import logging
import os
from pathlib import Path

from tether.home import claude_home

__all__ = [
    "AGENTS_FILE",
    "CLAUDE_DIR_FILE",
    "CLAUDE_FILE",
    "CLAUDE_LOCAL_FILE",
    "MAX_RULE_FILES",
    "RULES_DIR",
    "claude_home",
    "directory_files",
    "is_rule_file",
    "project_chain",
    "repository_root",
    "rule_files",
    "user_files",
]

log = logging.getLogger(__name__)

AGENTS_FILE = "AGENTS.md"
CLAUDE_FILE = "CLAUDE.md"
CLAUDE_DIR_FILE = f".claude/{CLAUDE_FILE}"
CLAUDE_LOCAL_FILE = "CLAUDE.local.md"
RULES_DIR = ".claude/rules"
MAX_RULE_FILES = 100
"""Rule files read from one `rules` folder, in path order; more are left out (and said)."""
_MAX_RULE_DEPTH = 4


def directory_files(directory: Path, *, rules: bool = True) -> list[Path]:
    """The instruction files of one directory, in the order they are read (see above);
    `rules`: with its `.claude/rules/` files."""
    found = [_file(directory / name) for name in (AGENTS_FILE, CLAUDE_FILE, CLAUDE_DIR_FILE)]
    if rules:
        found.extend(rule_files(directory / RULES_DIR))
    found.append(_file(directory / CLAUDE_LOCAL_FILE))
    return [path for path in found if path is not None]


def rule_files(folder: Path) -> list[Path]:
    """The `.md` files of a `rules` folder and its sub-folders, by path (links to folders
    are not entered: a file is read where it is, or refused)."""
    if not folder.is_dir() or folder.is_symlink():
        return []
    found: list[Path] = []
    for top, folders, files in os.walk(folder):
        depth = len(Path(top).relative_to(folder).parts)
        folders[:] = sorted(f for f in folders if not f.startswith(".") and depth < _MAX_RULE_DEPTH)
        found.extend(Path(top) / name for name in files if name.endswith(".md"))
    if len(found) > MAX_RULE_FILES:
        log.warning("%s: more than %d rule files; the rest are left out", folder, MAX_RULE_FILES)
    return sorted(found, key=lambda p: p.relative_to(folder).parts)[:MAX_RULE_FILES]


def is_rule_file(path: Path) -> bool:
    """Whether `path` is in a `.claude/rules/` folder (its front matter may scope it)."""
    parts = path.parts
    return any(pair == (".claude", "rules") for pair in itertools.pairwise(parts))


def _file(candidate: Path) -> Path | None:
    # Anything but a directory: a FIFO or a device is then refused by name, not skipped.
    if candidate.exists() and not candidate.is_dir():
        return candidate
    return None


def repository_root(cwd: Path) -> Path | None:
    """The top of the git working tree holding `cwd` (a `.git` directory or file), if any."""
    for directory in (cwd, *cwd.parents):
        if (directory / ".git").exists():
            return directory
    return None


def project_chain(cwd: Path) -> list[Path]:
    """The directories whose instructions apply at `cwd`: from the repository's root (else
    `cwd` alone) down to `cwd`, the nearest last."""
    top = repository_root(cwd) or cwd
    chain = [cwd]
    while chain[-1] != top and chain[-1].parent != chain[-1]:
        chain.append(chain[-1].parent)
    return list(reversed(chain))


def user_files(home: Path | None) -> list[Path]:
    """The user's own instructions: tether's (`$TETHER_HOME/AGENTS.md` and `CLAUDE.md`), then
    Claude Code's `~/.claude/CLAUDE.md` and `~/.claude/rules/` files."""
    claude = claude_home()
    found: list[Path | None] = [
        *(_file(home / name) for name in (AGENTS_FILE, CLAUDE_FILE) if home is not None),
        claude / CLAUDE_FILE,
        *rule_files(claude / "rules"),
    ]
    unique: list[Path] = []
    for path in found:
        if path is not None and path.is_file() and all(not _same(path, seen) for seen in unique):
            unique.append(path)
    return unique


def _same(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)
    except OSError:
        return False
