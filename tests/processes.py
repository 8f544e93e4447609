"""The machine's processes, as `/proc` shows them, to check that a command left none behind."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

__all__ = ["group_members", "process_gone", "processes_in", "processes_with", "unique_marker"]


def unique_marker(name: str) -> str:
    """`name` and a part no other test run shares: a command line to find processes by.

    Test runs share the machine (another checkout's suite, this suite's other workers), and a
    test's `tmp_path` has the same name in each: a marker made of it alone finds, and a test
    may kill, the processes of another run."""
    return f"{name}-{uuid.uuid4().hex[:16]}"


def process_gone(pid: int, within: float = 10.0) -> bool:
    """Whether process `pid` has exited (polled until `within` seconds pass)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.02)
    return False


def processes_with(marker: str) -> list[int]:
    """Live processes whose command line holds `marker`."""
    return [pid for pid, entry, _ in _live() if marker.encode() in _read(entry / "cmdline")]


def processes_in(directory: Path) -> list[int]:
    """Live processes whose working directory is `directory`."""
    return [pid for pid, entry, _ in _live() if _cwd(entry) == directory]


def group_members(pgid: int) -> list[int]:
    """Live processes of the process group `pgid`."""
    return [pid for pid, _, stat in _live() if stat[2] == str(pgid)]


def _live() -> Iterator[tuple[int, Path, list[str]]]:
    """Every process that is not a zombie: its pid, `/proc` entry and stat fields after the name."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        stat = _read(entry / "stat").decode()
        fields = stat[stat.rfind(")") + 2 :].split()
        if fields and fields[0] not in {"Z", "X"}:
            yield int(entry.name), entry, fields


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""  # gone since the listing


def _cwd(entry: Path) -> Path | None:
    try:
        return Path(os.readlink(entry / "cwd"))
    except OSError:
        return None
