"""Atomic replacement: permissions, cleanup, and a writer killed mid-write by SIGKILL."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tether.errors import ToolError
from tether.tools.fs.atomic import TEMP_PREFIX, _fsync_directory, atomic_write

MIB = 1 << 20


def test_creates_and_replaces(tmp_path: Path) -> None:
    target = tmp_path / "f.bin"
    atomic_write(target, b"first")
    assert target.read_bytes() == b"first"
    data = os.urandom(3 * MIB + 17)  # several chunks and a partial one
    atomic_write(target, data)
    assert target.read_bytes() == data
    atomic_write(target, b"")
    assert target.read_bytes() == b""
    assert os.listdir(tmp_path) == ["f.bin"]


def test_new_file_mode_follows_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        atomic_write(tmp_path / "new.txt", b"x")
    finally:
        os.umask(old)
    assert (tmp_path / "new.txt").stat().st_mode & 0o777 == 0o640


@pytest.mark.parametrize("mode", [0o755, 0o600, 0o444])
def test_existing_mode_is_kept(tmp_path: Path, mode: int) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"old")
    target.chmod(mode)
    atomic_write(target, b"new")
    assert target.stat().st_mode & 0o777 == mode
    assert target.read_bytes() == b"new"


@pytest.mark.parametrize("before", [None, 0o644])
def test_a_given_mode_is_exact(tmp_path: Path, before: int | None) -> None:
    target = tmp_path / "secret"
    if before is not None:
        target.write_bytes(b"old")
        target.chmod(before)
    old = os.umask(0o002)
    try:
        atomic_write(target, b"new", (tmp_path,), mode=0o600)
    finally:
        os.umask(old)
    assert target.stat().st_mode & 0o777 == 0o600
    assert target.read_bytes() == b"new"


def test_a_link_is_refused_unless_it_may_be_replaced(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_bytes(b"theirs")
    link = tmp_path / "d" / "link"
    link.parent.mkdir()
    link.symlink_to(elsewhere)
    with pytest.raises(ToolError, match="is now a symbolic link"):
        atomic_write(link, b"mine", (link.parent,))
    atomic_write(link, b"mine", (link.parent,), replace_link=True)
    assert not link.is_symlink() and link.read_bytes() == b"mine"
    assert elsewhere.read_bytes() == b"theirs"


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_owner_is_kept_when_the_process_may_set_it(tmp_path: Path) -> None:
    target = tmp_path / "theirs"
    target.write_bytes(b"old")
    os.chown(target, 4321, 4322)
    atomic_write(target, b"new")
    assert (target.stat().st_uid, target.stat().st_gid) == (4321, 4322)


def test_a_failed_rename_leaves_the_target_and_no_temp_file(tmp_path: Path) -> None:
    # A non-empty directory at the target's name: the rename fails after the temp was written.
    target = tmp_path / "taken"
    target.mkdir()
    (target / "inside").write_text("keep")
    with pytest.raises(OSError):
        atomic_write(target, b"data")
    assert sorted(os.listdir(tmp_path)) == ["taken"]
    assert (target / "inside").read_text() == "keep"


def test_directory_fsync_tolerates_a_removed_directory(tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    for directory in (gone, tmp_path):
        fd = os.open(directory, os.O_PATH | os.O_DIRECTORY)
        try:
            if directory == gone:
                gone.rmdir()
            _fsync_directory(fd)
        finally:
            os.close(fd)


_WRITER = """
import sys
from pathlib import Path
from tether.tools.fs.atomic import atomic_write

data = b"N" * int(sys.argv[2])
sys.stdout.write("ready\\n")
sys.stdout.flush()
atomic_write(Path(sys.argv[1]), data)
sys.stdout.write("done\\n")
sys.stdout.flush()
"""


def _start_writer(target: Path, size: int) -> tuple[subprocess.Popen[str], float]:
    proc = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(target), str(size)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == "ready\n"
    return proc, time.monotonic()


def _finish(proc: subprocess.Popen[str]) -> int:
    returncode = proc.wait(timeout=60)
    assert proc.stdout is not None
    proc.stdout.close()
    return returncode


def _content(path: Path, old: bytes, new_size: int) -> str:
    """`old` or `new` when the file is exactly one of them, else `mixed`."""
    if path.read_bytes() == old if path.stat().st_size == len(old) else False:
        return "old"
    if path.stat().st_size != new_size:
        return "mixed"
    with path.open("rb") as handle:
        while chunk := handle.read(8 * MIB):
            if chunk.count(b"N") != len(chunk):
                return "mixed"
    return "new"


@pytest.mark.timeout(120)
def test_sigkill_mid_write_leaves_the_old_or_the_new_file(tmp_path: Path) -> None:
    """A 64 MB write killed at random moments: never a mix, never a temp at the target's name.

    Each run writes and fsyncs 64 MB (0.1-0.3 s on an idle machine), long enough for a kill
    to land mid-write: four kills of the five did in each of three trial runs. 200 MB took
    9 s idle and over 20 s on a loaded machine, and its 1.2 GB of writes slowed every other
    test meanwhile.
    """
    size = 64 * MIB
    target = tmp_path / "big.dat"
    old = b"O" * MIB

    # One full run gives the new file and how long a write takes on this machine.
    target.write_bytes(old)
    proc, started = _start_writer(target, size)
    assert _finish(proc) == 0
    duration = time.monotonic() - started
    assert _content(target, old, size) == "new"

    rng = random.Random(20261203)
    outcomes = set()
    for _ in range(5):
        target.write_bytes(old)
        proc, started = _start_writer(target, size)
        time.sleep(rng.uniform(0.02, 0.9) * duration)
        proc.send_signal(signal.SIGKILL)
        killed = _finish(proc) == -signal.SIGKILL
        outcome = _content(target, old, size)
        assert outcome in ("old", "new")
        if killed:
            outcomes.add(outcome)
        # Leftovers of a killed writer are hidden temp files, never the target itself.
        for name in os.listdir(tmp_path):
            if name != target.name:
                assert name.startswith(TEMP_PREFIX + target.name)
                assert name.endswith(".tmp")
                (tmp_path / name).unlink()
    assert "old" in outcomes  # at least one kill landed mid-write, before the rename
