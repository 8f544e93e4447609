"""A checkpoint records what it can and names what it could not: a tracked folder replaced by
a symbolic link, or a file git cannot read, never turns checkpoints off for the session or
for later ones in the workspace."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.session.helpers import Recorder, Sessions, call, script, text
from tether.session import FilesRestored, SessionConfig
from tether.session.events import CheckpointEvent
from tether.tools.bash.sandbox import SandboxPolicy
from tether.tools.defaults import default_tools

ROOT = os.geteuid() == 0
NOBODY = 65534


def _config(*turns: dict[str, object]) -> SessionConfig:
    return SessionConfig(
        model=script(*turns), tools=default_tools(SandboxPolicy("off")), mode="auto"
    )


async def test_a_folder_replaced_by_a_link_is_recorded_and_later_sessions_keep_checkpoints(
    tmp_path: Path, ws: Path, sessions: Sessions
) -> None:
    (ws / "d").mkdir()
    (ws / "d" / "a.txt").write_text("tracked\n")
    (ws / "b.txt").write_text("mine\n")
    other = tmp_path / "other"
    other.mkdir()
    (other / "a.txt").write_text("elsewhere\n")
    swap = f"rm -r d && ln -s {other} d && echo clobbered > b.txt"
    session = sessions.create(
        ws, _config({"toolCalls": [call("b", "bash", {"command": swap})]}, {"text": "done"})
    )
    assert await session.prompt(text("swap"), Recorder()) == "end_turn"
    saved = [e for e in session.events if isinstance(e, CheckpointEvent)]
    assert [(e.prompt, e.step) for e in saved] == [(1, 0), (1, 1)]
    assert set(saved[1].changed) == {"b.txt", "d", "d/a.txt"}
    # /undo puts back the file the step clobbered; the link is taken back to its folder
    # only if that can be done without writing through it.
    plan = await session.rewind.plan_undo()
    assert "b.txt" in plan.paths
    done = await session.rewind.restore(plan)
    assert isinstance(done, FilesRestored) and "b.txt" in done.restored
    assert (ws / "b.txt").read_text() == "mine\n"
    assert (other / "a.txt").read_text() == "elsewhere\n"  # nothing written through the link
    # A later session in the same workspace checkpoints as usual.
    (ws / "c.txt").write_text("before\n")
    later = sessions.create(
        ws,
        _config(
            {"toolCalls": [call("w", "bash", {"command": "echo after > c.txt"})]},
            {"text": "done"},
        ),
    )
    assert await later.prompt(text("change c"), Recorder()) == "end_turn"
    saved = [e for e in later.events if isinstance(e, CheckpointEvent)]
    assert [(e.prompt, e.step) for e in saved] == [(1, 0), (1, 1)]
    assert saved[1].changed == ("c.txt",)


_UNREADABLE = """
import json, os, sys
from pathlib import Path
from tether.checkpoints import open_store
home, ws = Path(sys.argv[1]), Path(sys.argv[2])
store = open_store(home, ws)
first = store.snapshot(None)
(ws / "secret.txt").write_text("changed\\n")
os.chmod(ws / "secret.txt", 0)
(ws / "b.txt").write_text("clobbered\\n")
second = store.snapshot(first.tree)
third = store.snapshot(second.tree)
print(json.dumps([second.changed, second.skipped, third.skipped]))
"""


@pytest.fixture
def shared() -> Iterator[Path]:
    """A folder `nobody` may enter (the test's own temporary folder may be closed to it)."""
    path = Path(tempfile.mkdtemp(prefix="tether-checkpoint-", dir="/var/tmp"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_a_file_git_cannot_read_is_named_and_the_rest_recorded(shared: Path) -> None:
    ws, home = shared / "ws", shared / "home"
    ws.mkdir()
    (ws / "secret.txt").write_text("first\n")
    (ws / "b.txt").write_text("mine\n")
    prefix: list[str] = []
    if ROOT:  # root reads every file: the store runs as `nobody` instead
        if shutil.which("setpriv") is None:
            pytest.skip("setpriv is needed to run the store as nobody")
        for path in (ws, *ws.iterdir()):
            os.chown(path, NOBODY, NOBODY)
        home.mkdir()
        os.chown(home, NOBODY, NOBODY)
        prefix = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    done = subprocess.run(
        [*prefix, sys.executable, "-c", _UNREADABLE, str(home), str(ws)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "HOME": str(shared)},
    )
    assert done.returncode == 0, done.stderr
    changed, skipped, later = json.loads(done.stdout)
    assert changed == ["b.txt"]
    assert skipped == ["secret.txt"] and later == ["secret.txt"]
