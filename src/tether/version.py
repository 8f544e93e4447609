"""What `tether --version` says: the release (`tether.__version__`) and the commit it was
built from, when that is known."""

from __future__ import annotations

import subprocess
from pathlib import Path

import tether
from tether.gitenv import SAFE_CONFIG, find_git, isolated_environment

__all__ = ["COMMIT_FILE", "build_commit", "version_line"]

COMMIT_FILE = "_commit"
"""Written into the package by the build backend: the commit a wheel or sdist was made from."""

_PACKAGE = Path(__file__).resolve().parent


def build_commit() -> str | None:
    """The commit these sources come from: the one stamped at build, else the checkout's own.

    An editable install runs the checkout itself, so its commit is the checkout's HEAD now;
    `None` when neither is known (no stamp, no git, not a repository).
    """
    try:
        stamped = (_PACKAGE / COMMIT_FILE).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        stamped = ""
    if stamped:
        return stamped[:12]
    git = find_git()
    if git is None:
        return None
    try:
        done = subprocess.run(
            [git, *_configs(), "rev-parse", "--short=12", "HEAD"],
            cwd=_PACKAGE,
            env=isolated_environment(),
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and commit else None


def version_line() -> str:
    """`tether 0.1.0 (commit 1f5f007a9b3c)`, or without the commit when it is not known."""
    commit = build_commit()
    suffix = f" (commit {commit})" if commit else ""
    return f"tether {tether.__version__}{suffix}"


def _configs() -> list[str]:
    return [arg for setting in SAFE_CONFIG for arg in ("-c", setting)]
