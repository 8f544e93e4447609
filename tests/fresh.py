"""Code run in a fresh interpreter: what a process loads and makes is seen from nothing."""

from __future__ import annotations

import subprocess
import sys

__all__ = ["printed"]


def printed(code: str, env: dict[str, str]) -> list[str]:
    """The lines a fresh interpreter running `code` prints (it must succeed).

    Its standard input is empty: an xdist worker's own is its channel to the controller,
    which nothing the code runs (a command reading a prompt from a pipe) may read."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()
