"""`git` for tests that build repositories: the person's `GIT_*` variables and config files
left out, a fixed author, so a test's commits are the same on every machine."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

__all__ = ["git"]


def git(*args: str, cwd: Path) -> str:
    """Run `git ARGS` in `cwd` (it must succeed); its standard output as it came."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.invalid",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.invalid",
    )
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=True
    )
    return done.stdout
