"""Running the checkout's own Python as `nobody`, for tests that need an ordinary user."""

from __future__ import annotations

import functools
import shutil
import subprocess
import sys

import pytest

__all__ = ["AS_NOBODY", "skip_unless_nobody_runs_the_checkout"]

AS_NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
"""The prefix that runs a command as `nobody` (root only)."""


@functools.cache
def _why_not() -> str | None:
    if shutil.which("setpriv") is None:
        return "setpriv is needed to run as nobody"
    done = subprocess.run(
        [*AS_NOBODY, sys.executable, "-c", "import tether"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if done.returncode != 0:
        # A checkout in a folder only its owner may enter (root's home, a `mktemp -d`).
        return (
            f"nobody cannot run this checkout's Python ({sys.executable}):"
            " clone it where others may read"
        )
    return None


def skip_unless_nobody_runs_the_checkout() -> None:
    """Skip, naming why, when `nobody` cannot run `sys.executable` with tether importable."""
    why = _why_not()
    if why is not None:
        pytest.skip(why)
