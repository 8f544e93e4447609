"""The ripgrep runner: the packaged binary, bounded lines and bytes, timeout and cancel."""

from __future__ import annotations

import asyncio
import os
import shutil
from importlib import metadata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.polling import eventually
from tests.processes import processes_in
from tests.tools.search.support import context, grep, write
from tether.tools.search.rg import _Lines, rg_binary, run_rg


def test_the_binary_comes_from_the_ripgrep_package() -> None:
    binary = rg_binary()
    assert binary.is_file() and os.access(binary, os.X_OK)
    dist = metadata.distribution("ripgrep")
    assert metadata.version("ripgrep").startswith("14.")
    assert any(Path(str(f.locate())).resolve() == binary for f in dist.files or [])


async def test_path_is_not_consulted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, {"a.txt": "hit\n"})
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert shutil.which("rg") is None
    result = await grep(tmp_path, pattern="hit")
    assert not result.is_error


async def test_lines_are_split_and_bounded(tmp_path: Path) -> None:
    long = "y" * 5000
    write(tmp_path, {"a": f"short\n{long}\nlast"})
    lines: list[bytes] = []
    run = await run_rg(
        ["--no-config", "--no-line-number", "--no-filename", ".", "a"],
        tmp_path,
        on_line=lines.append,
        cancelled=asyncio.Event(),
        max_bytes=1 << 20,
        max_line_bytes=100,
    )
    assert (run.returncode, run.stopped, run.dropped_lines) == (0, None, 1)
    assert lines == [b"short", b"last"]


@given(
    st.lists(st.sampled_from([b"", b"a", b"bb", b"x" * 9, b"y" * 30]), max_size=30),
    st.lists(st.integers(min_value=0, max_value=400), max_size=8),
)
def test_lines_are_the_same_however_the_output_is_cut(pieces: list[bytes], cuts: list[int]) -> None:
    stream = b"\n".join(pieces)
    seen: list[bytes] = []
    lines = _Lines(seen.append, 10, b"\n")
    at = 0
    for cut in sorted(c for c in cuts if c <= len(stream)):
        lines.feed(stream[at:cut])
        at = cut
    lines.feed(stream[at:])
    lines.close()
    *ended, tail = stream.split(b"\n")
    every = [*ended, tail] if tail else ended
    assert seen == [line for line in every if len(line) <= 10]
    assert lines.dropped == sum(len(line) > 10 for line in every)
    assert lines.read == len(stream)


async def test_output_past_the_byte_bound_stops_the_search(tmp_path: Path) -> None:
    write(tmp_path, {"a": "line\n" * 100_000})
    lines: list[bytes] = []
    run = await run_rg(
        ["--no-config", "--no-filename", "line", "a"],
        tmp_path,
        on_line=lines.append,
        cancelled=asyncio.Event(),
        max_bytes=10_000,
        max_line_bytes=100,
    )
    assert run.stopped == "overflow" and run.returncode is None
    assert 0 < len(lines) < 100_000


async def test_overflow_is_stated_to_the_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tether.tools.search.grep.GREP_MAX_BYTES", 50_000)
    write(tmp_path, {f"f{i}.txt": "hit\n" * 1000 for i in range(5)})
    result = await grep(tmp_path, pattern="hit")
    assert not result.is_error
    assert result.text().endswith(
        "exist. Narrow the search with a more specific pattern, `path` or `include`.)"
    )
    assert "(The search stopped at its output limit: showing " in result.text()
    meta = result.meta
    assert isinstance(meta, dict) and meta["truncated"] is True
    shown = sum(len(f["matches"]) for f in meta["files"])
    assert 0 < shown <= meta["total"] < 5000


async def test_an_error_taking_a_line_is_raised_and_stops_ripgrep(tmp_path: Path) -> None:
    write(tmp_path, {"a": "line\n" * 100_000})

    def refuse(line: bytes) -> None:
        raise ValueError(f"cannot take {line!r}")

    with pytest.raises(ValueError, match="cannot take b'line'"):
        await run_rg(
            ["--no-config", "--no-filename", "line", "a"],
            tmp_path,
            on_line=refuse,
            cancelled=asyncio.Event(),
            max_bytes=1 << 30,
            max_line_bytes=100,
        )
    await eventually(lambda: processes_in(tmp_path) == [], "ripgrep stopped")


async def test_timeout_stops_the_whole_group(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    run = await run_rg(
        ["--no-config", "x", "pipe"],
        tmp_path,
        on_line=lambda _line: None,
        cancelled=asyncio.Event(),
        timeout=0.3,
        max_bytes=1 << 20,
        max_line_bytes=1 << 10,
    )
    assert run.stopped == "timeout" and run.returncode is None
    assert processes_in(tmp_path) == []


async def test_ripgrep_runs_in_a_group_of_its_own_within_tethers_session(tmp_path: Path) -> None:
    # A session of its own would put ripgrep in a scheduling group of its own (autogroup),
    # which on a busy machine gave its threads less CPU; its own group is what stops need.
    os.mkfifo(tmp_path / "pipe")
    cancelled = asyncio.Event()
    run = asyncio.ensure_future(
        run_rg(
            ["--no-config", "x", "pipe"],
            tmp_path,
            on_line=lambda _line: None,
            cancelled=cancelled,
            max_bytes=1 << 20,
            max_line_bytes=1 << 10,
        )
    )
    await eventually(lambda: processes_in(tmp_path), "ripgrep started")
    (pid,) = processes_in(tmp_path)
    assert os.getpgid(pid) == pid
    assert os.getsid(pid) == os.getsid(0)
    cancelled.set()
    assert (await asyncio.wait_for(run, 10)).stopped == "cancelled"
    assert processes_in(tmp_path) == []


def _endless(tmp_path: Path) -> str:
    """A file ripgrep would take minutes to read: a terabyte of holes (no disk used)."""
    with (tmp_path / "endless").open("wb") as file:
        file.truncate(1 << 40)
    return "endless"


async def test_cancel_stops_the_search_and_is_an_error(tmp_path: Path) -> None:
    ctx = context(tmp_path)
    task = asyncio.ensure_future(grep(tmp_path, ctx, pattern="x", path=_endless(tmp_path)))
    await eventually(lambda: processes_in(tmp_path), "ripgrep started")
    ctx.cancelled.set()
    result = await asyncio.wait_for(task, 10)
    assert result.is_error and result.text() == "Search cancelled"
    assert processes_in(tmp_path) == []


async def test_cancelling_the_task_stops_ripgrep_too(tmp_path: Path) -> None:
    task = asyncio.ensure_future(grep(tmp_path, pattern="x", path=_endless(tmp_path)))
    await eventually(lambda: processes_in(tmp_path), "ripgrep started")
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert processes_in(tmp_path) == []


async def test_a_timed_out_grep_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tether.tools.search.rg.SEARCH_TIMEOUT_SECONDS", 0.3)
    result = await grep(tmp_path, pattern="x", path=_endless(tmp_path))
    assert not result.is_error
    assert result.text().startswith("(The search timed out after 30 s: showing 0 matches")
    assert result.meta == {"files": [], "truncated": True, "total": 0, "totalFiles": 0}
    assert processes_in(tmp_path) == []


async def test_a_fifo_device_or_socket_is_refused_before_ripgrep_starts(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "zero").symlink_to("/dev/zero")
    for name in ("pipe", "zero"):
        result = await asyncio.wait_for(grep(tmp_path, pattern="x", path=name), 10)
        assert result.is_error and result.text() == f"Not a regular file: {name}"
