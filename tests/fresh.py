"""Code run in a fresh interpreter: what a process loads and makes is seen from nothing."""

from __future__ import annotations

import subprocess
import sys

__all__ = ["printed", "ran"]


def printed(code: str, env: dict[str, str]) -> list[str]:
    """The lines a fresh interpreter running `code` prints (it must succeed)."""
    return ran(code, env=env).stdout.splitlines()


def ran(
    code: str,
    *args: str,
    env: dict[str, str] | None = None,
    user: tuple[str, ...] = (),
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """A fresh interpreter's run of `code` with `args` (as the user the `user` prefix runs
    as, when given), its output captured as text; it must succeed.

    Its standard input is empty: an xdist worker's own is its channel to the controller,
    which nothing the code runs (a command reading a prompt from a pipe) may read."""
    done = subprocess.run(
        [*user, sys.executable, "-c", code, *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done
