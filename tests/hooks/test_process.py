"""One hook command's process: its streams, its timeout, and what it leaves running."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from tests.polling import eventually
from tests.processes import processes_with, unique_marker
from tether.hooks.process import PIPE_GRACE, run_command


async def test_a_child_holding_the_output_open_costs_the_grace_not_the_timeout(
    tmp_path: Path,
) -> None:
    marker = unique_marker("hook-child")
    # The hook exits at once; the process it started keeps its stdout and stderr open.
    command = f"(exec -a {marker} sleep 60) & echo started; echo note >&2"
    started = time.monotonic()
    try:
        finished = await run_command(
            command, stdin=b"{}", cwd=tmp_path, env=dict(os.environ), timeout=30
        )
        took = time.monotonic() - started
        assert finished.exit_code == 0 and finished.error is None and not finished.timed_out
        assert finished.stdout == b"started\n" and finished.stderr == b"note\n"
        # The grace is given in full (asyncio's clock may fire a timer a hair early); the
        # 3 s above it are for a shell that starts late on a loaded machine, and still far
        # short of the 30 s timeout this test tells the grace apart from.
        assert PIPE_GRACE - 0.1 <= took < PIPE_GRACE + 3
        assert processes_with(marker)  # left running (its output is closed), not waited for
    finally:
        for pid in processes_with(marker):
            os.kill(pid, signal.SIGKILL)


async def test_a_hook_that_never_reads_a_large_input_is_not_held_up(tmp_path: Path) -> None:
    # What the same hook costs here and now with no input: the baseline that a loaded
    # machine stretches as much as the run measured.
    started = time.monotonic()
    plain = await run_command(
        "echo done", stdin=b"", cwd=tmp_path, env=dict(os.environ), timeout=30
    )
    baseline = time.monotonic() - started
    assert plain.exit_code == 0 and plain.stdout == b"done\n"
    started = time.monotonic()
    finished = await run_command(
        "echo done", stdin=b"x" * (4 * 1024 * 1024), cwd=tmp_path, env=dict(os.environ), timeout=30
    )
    assert finished.exit_code == 0 and finished.stdout == b"done\n"
    # The unread input costs less than the pipe grace: nothing waited on it.
    # Half the grace over the baseline: midway between a run that waited none of it and one
    # that waited all of it, so either run slowed by load up to a second more cannot pass a
    # waited grace or fail a run that waited none.
    assert time.monotonic() - started < baseline + PIPE_GRACE / 2


async def test_a_timeout_kills_the_whole_group(tmp_path: Path) -> None:
    marker = unique_marker("hook-timeout")
    finished = await run_command(
        f"(exec -a {marker} sleep 60) & wait",
        stdin=b"",
        cwd=tmp_path,
        env=dict(os.environ),
        timeout=0.5,
    )
    assert finished.timed_out and finished.exit_code is None
    # The group's SIGKILL ends its members when each next runs: on a busy machine, later
    # than a fixed 0.1 s after the shell was reaped. Looked at until then, never left running.
    await eventually(lambda: processes_with(marker) == [], "the group's sleep killed")
