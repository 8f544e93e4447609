"""Where instructions are: `AGENTS.md` (else `CLAUDE.md`) in each directory from the
repository's root down to the workspace, and the user's own files."""

from __future__ import annotations

from pathlib import Path

from tether.home import claude_home

__all__ = [
    "AGENTS_FILE",
    "CLAUDE_FILE",
    "claude_home",
    "directory_file",
    "project_chain",
    "repository_root",
    "user_files",
]

AGENTS_FILE = "AGENTS.md"
CLAUDE_FILE = "CLAUDE.md"


def directory_file(directory: Path) -> Path | None:
    """The instructions of one directory: its `AGENTS.md`, else its `CLAUDE.md`."""
    for name in (AGENTS_FILE, CLAUDE_FILE):
        candidate = directory / name
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


def user_files(home: Path) -> list[Path]:
    """The user's own instructions: tether's (`$TETHER_HOME/AGENTS.md`, else `CLAUDE.md`),
    then Claude Code's `~/.claude/CLAUDE.md`."""
    found = [path for path in (directory_file(home), claude_home() / CLAUDE_FILE) if path]
    unique: list[Path] = []
    for path in found:
        if path.is_file() and all(not _same(path, seen) for seen in unique):
            unique.append(path)
    return unique


def _same(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)
    except OSError:
        return False
