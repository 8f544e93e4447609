"""An agent a page ran leaves nothing behind once the server stops: not the process, not its
pipes, not asyncio's subprocess transport (which the garbage collector would later report
as unclosed, during whatever runs then)."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.processes import process_gone
from tether.web.bridge import Bridge
from tether.web.protocol import ClientMessage, ErrorMessage, ServerMessage

SILENT_AGENT = """
import os, sys, time
open(sys.argv[1], "w").write(str(os.getpid()))
time.sleep(60)  # answers nothing and ignores the end of its input: it must be stopped
"""


def _open_descriptors() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


async def _no_messages() -> AsyncIterator[ClientMessage]:
    await asyncio.Event().wait()  # a page that stays open and says nothing
    yield  # type: ignore[misc]  # never reached


async def _stopped_twice(tmp_path: Path, pid_file: Path) -> set[str]:
    """Serve a page against the silent agent, then stop the server as uvicorn and
    `asyncio.run` do: the page's task is cancelled, then cancelled again while the agent is
    ending. The descriptors left open."""

    async def send(message: ServerMessage) -> None:
        pass

    before = _open_descriptors()
    command = [sys.executable, "-c", SILENT_AGENT, str(pid_file)]
    task = asyncio.create_task(Bridge(command, tmp_path, send).run(_no_messages()))
    while not pid_file.exists() or not pid_file.read_text():
        await asyncio.sleep(0.02)
    task.cancel()
    await asyncio.sleep(0.2)  # the agent's input is closed; it is given time to exit
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    return _open_descriptors() - before


def _reaped() -> None:
    """Wait for asyncio's threads that reap children (each holds its process until then)."""
    for thread in threading.enumerate():
        if "waitpid" in thread.name:
            thread.join(timeout=5)


def test_a_server_stopped_while_its_agent_ends_leaves_nothing_open(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    pid_file = tmp_path / "agent.pid"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        left_open = asyncio.run(_stopped_twice(tmp_path, pid_file))
        _reaped()
        gc.collect()
    pid = int(pid_file.read_text())
    try:
        assert [str(w.message) for w in caught if w.category is ResourceWarning] == []
        # A process the loop saw end: none exited after its loop had closed.
        assert [r.getMessage() for r in caplog.records if r.name == "asyncio"] == []
        assert left_open == set()
        assert process_gone(pid, within=5)
    finally:
        if not process_gone(pid, within=5):
            os.kill(pid, 9)


LEAVES_A_CHILD = """
import subprocess, sys
# A child that outlives the agent, holding the agent's output open (a background job).
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
open(sys.argv[1], "w").write(str(child.pid))
"""
"""An agent that exits at once, leaving behind a child that holds its stdout."""


async def _exits(tmp_path: Path, pid_file: Path) -> tuple[list[ServerMessage], set[str]]:
    """Serve a page against the agent that leaves a child; what the page was told, and the
    descriptors left open, once the bridge is done."""
    sent: list[ServerMessage] = []

    async def send(message: ServerMessage) -> None:
        sent.append(message)

    before = _open_descriptors()
    command = [sys.executable, "-c", LEAVES_A_CHILD, str(pid_file)]
    await asyncio.wait_for(Bridge(command, tmp_path, send).run(_no_messages()), 20)
    return sent, _open_descriptors() - before


def test_an_agent_whose_child_holds_its_output_is_told_ended_and_let_go(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    try:
        started = time.monotonic()
        sent, left_open = asyncio.run(_exits(tmp_path, pid_file))
        took = time.monotonic() - started
    finally:
        if pid_file.exists():
            os.kill(int(pid_file.read_text()), signal.SIGKILL)
    assert sent == [ErrorMessage(message="the agent exited (code 0)")]
    assert left_open == set()
    assert took < 10  # not the child's minute
