"""What git says about the workspace when a session starts: branch, short status, last commits.

The repository is the workspace's, so it is untrusted: its `.git/config` can name programs
for git to run (`core.fsmonitor`, a filter's `clean`, `gpg.program` through
`log.showSignature`). Every git call here turns those off, skips submodules, takes no
optional locks, prompts for nothing, and is bounded in time and in output, so reading a
hostile repository runs nothing of its own and cannot stall a session.
"""

from __future__ import annotations

import os
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

from tether.gitenv import SAFE_CONFIG

__all__ = ["MAX_COMMITS", "MAX_STATUS_LINES", "Repository", "read_repository"]

MAX_STATUS_LINES = 20
"""`git status --short` lines shown; the rest are counted."""
MAX_COMMITS = 5
"""Commit subjects shown, newest first."""
_MAX_SUBJECT = 120
_MAX_OUTPUT = 256 * 1024
_TIMEOUT = 3.0
_SAFE = (
    *SAFE_CONFIG,
    "core.quotePath=false",
    "log.showSignature=false",
    "status.showUntrackedFiles=normal",
)
"""Settings that keep git from running anything the repository names (and plain output)."""


@dataclass(frozen=True)
class Repository:
    """The workspace's git state, read once when the session started."""

    root: Path
    """The work tree's top directory (status paths are relative to it)."""
    branch: str | None
    """The branch checked out; `None` when HEAD is detached (see `head`)."""
    head: str | None
    """The short commit HEAD points at when detached; `None` before the first commit."""
    status: tuple[str, ...]
    """The first `git status --short` lines."""
    changes: int | None
    """How many status lines there are in all; `None` when there were too many to count."""
    commits: tuple[str, ...]
    """The last commits' subjects, newest first."""


def read_repository(root: Path) -> Repository | None:
    """The git state of the work tree `root` is in; `None` when it is in none (or git is
    missing, or refuses the repository, e.g. for its owner)."""
    inside = _git(root, "rev-parse", "--is-inside-work-tree", "--show-toplevel")
    if inside is None or not inside.startswith("true\n"):
        return None
    top = inside.removeprefix("true\n").strip()
    safe = _SAFE + _no_filters(root)
    branch = _git(root, "symbolic-ref", "--quiet", "--short", "HEAD", config=safe)
    head = None if branch else _git(root, "rev-parse", "--short", "HEAD", config=safe)
    status = _git(
        root,
        "status",
        "--porcelain=v1",
        "--ignore-submodules=all",
        "--no-renames",
        config=safe,
        limit=_MAX_OUTPUT,
    )
    lines = _lines(status or "")
    complete = status is not None and len(status) < _MAX_OUTPUT
    log = _git(
        root,
        "log",
        f"-{MAX_COMMITS}",
        "--format=%s",
        "--no-notes",
        "--no-show-signature",
        config=safe,
    )
    return Repository(
        root=Path(top) if top else root,
        branch=_first_line(branch),
        head=_first_line(head),
        status=tuple(_printable(line) for line in lines[:MAX_STATUS_LINES]),
        changes=len(lines) if complete else None,
        commits=tuple(_printable(s)[:_MAX_SUBJECT] for s in _lines(log or "")),
    )


def _no_filters(root: Path) -> tuple[str, ...]:
    # A filter's `clean` runs when status compares a file whose stat changed; each one the
    # configuration defines is emptied, which git reads as no filter at all.
    names = _git(root, "config", "--null", "--name-only", "--get-regexp", r"^filter\.")
    drivers = {
        name.removeprefix("filter.").rpartition(".")[0]
        for name in (names or "").split("\0")
        if name.startswith("filter.")
    }
    return tuple(
        f"filter.{driver}.{key}={'false' if key == 'required' else ''}"
        for driver in sorted(drivers)
        if driver
        for key in ("clean", "smudge", "process", "required")
    )


def _git(
    root: Path, *args: str, config: tuple[str, ...] = (), limit: int = 64 * 1024
) -> str | None:
    """Git's output (at most `limit` bytes, decoded), or `None` when it failed or is missing."""
    command = ["git", "--no-pager"]
    for setting in (*_SAFE, *config):
        command += ["-c", setting]
    try:
        process = subprocess.Popen(
            [*command, *args],
            cwd=root,
            env=_environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        return None
    assert process.stdout is not None
    timer = threading.Timer(_TIMEOUT, process.kill)
    timer.start()
    try:
        data = process.stdout.read(limit)
    finally:
        timer.cancel()
        if process.poll() is None:
            process.kill()  # more than `limit` bytes: what was read is enough
        process.stdout.close()
        code = process.wait()
    if code != 0 and len(data) < limit:
        return None
    return data.decode("utf-8", "replace")


def _environment() -> dict[str, str]:
    # Git's own variables could point it at another repository or another config.
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0")
    return env


def _first_line(text: str | None) -> str | None:
    lines = _lines(text or "")
    return _printable(lines[0].strip()) if lines else None


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def _printable(text: str) -> str:
    return "".join(c if c.isprintable() else "?" for c in text)
