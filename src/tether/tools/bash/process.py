"""Running one shell command: its own process group, stdin closed, output merged and bounded."""

from __future__ import annotations

import asyncio
import os
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tether.sandbox.bwrap import seccomp_fd
from tether.sandbox.policy import Confinement
from tether.tools.bash.confined import SandboxGroup, read_leftovers, stopper_argv
from tether.tools.bash.group import KILL_WAIT_SECONDS, Member, ProcessGroup, Stop
from tether.tools.bash.output import OutputCapture

__all__ = ["DRAIN_SECONDS", "Finished", "Stop", "run_command"]

DRAIN_SECONDS = 0.25
"""How long output is still read after the shell exits, while a background job holds it open."""


@dataclass(frozen=True)
class Finished:
    """How a command ended: its exit code or the signal that ended it, and why it was stopped."""

    returncode: int
    stopped: Stop | None
    """Set when the command was stopped (timeout, cancel, process limit) rather than ending."""
    detached: bool
    """Processes that left the group still held the output open at the end."""
    leftovers: tuple[Member, ...] = ()
    """Background processes still running when the shell exited, which were then stopped."""
    survivors: tuple[Member, ...] = ()
    """Processes of the command still running after the stop and its bounded wait."""

    @property
    def exit_code(self) -> int | None:
        """The exit code, unless a signal ended the shell."""
        return self.returncode if self.returncode >= 0 else None

    @property
    def signal(self) -> int | None:
        """The number of the signal that ended the shell, if one did."""
        return -self.returncode if self.returncode < 0 else None


class _Pipe(asyncio.Protocol):
    """Feeds what the command writes straight into the capture, so nothing piles up unread."""

    def __init__(self, capture: OutputCapture) -> None:
        self._capture = capture
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def data_received(self, data: bytes) -> None:
        self._capture.feed(data)

    def eof_received(self) -> bool | None:
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)


async def run_command(
    command: str,
    cwd: Path,
    *,
    timeout: float,
    cancelled: asyncio.Event,
    capture: OutputCapture,
    confine: Confinement | None = None,
    env: Mapping[str, str] | None = None,
    on_start: Callable[[ProcessGroup], None] | None = None,
) -> Finished:
    """Run `bash -c command` in `cwd` until it ends, times out or is cancelled.

    With `confine` (bwrap, its options, environment and filter) the command runs in that sandbox;
    without it, in `env` (default: this process's environment).

    On timeout or cancel the whole group gets SIGTERM, then SIGKILL two seconds later; so do
    background jobs still running when the shell exits. If the task running this is
    cancelled, the group is stopped the same way; then, when `cancelled` is set (a person's
    cancel), the command ends as cancelled, else `CancelledError` propagates. Raises `OSError`
    when the shell cannot be started. `on_start` gets the command's group as soon as it runs
    (a background job keeps it, to kill it at once when the process exits).
    """
    loop = asyncio.get_running_loop()
    read_fd, write_fd = os.pipe()
    report_r, report_w = os.pipe() if confine is not None else (-1, -1)
    try:
        # The command writes to a pipe we own (rather than asyncio's), so that we can stop
        # reading and close it when background jobs keep it open after the shell has exited.
        proc, group = await _spawn(command, cwd, write_fd, confine, report_w, env=env)
    except BaseException:
        os.close(read_fd)
        if report_r >= 0:
            os.close(report_r)
        raise
    finally:
        os.close(write_fd)
        if report_w >= 0:
            os.close(report_w)
    if on_start is not None:
        on_start(group)
    pipe = _Pipe(capture)
    transport, _ = await loop.connect_read_pipe(lambda: pipe, os.fdopen(read_fd, "rb", 0))
    exited = asyncio.ensure_future(proc.wait())
    stop_asked = asyncio.ensure_future(cancelled.wait())
    limit = confine.watch_processes if confine is not None else None
    if isinstance(group, SandboxGroup) and limit is not None:
        # Where the kernel does not count a command's processes (root), tether does.
        watch: asyncio.Future[Any] = asyncio.ensure_future(group.passes(limit))
    else:
        watch = loop.create_future()
    try:
        stopped, leftovers = await _until_done(
            group, exited, stop_asked, watch, timeout=timeout, cancelled=cancelled
        )
        returncode = await exited
        # bwrap may report the command's status before its init is gone: nothing is left
        # behind only once the group is empty (a killed group was waited for already).
        await group.gone_within(KILL_WAIT_SECONDS)
        if report_r >= 0:
            leftovers += read_leftovers(report_r)
            report_r = -1
        detached = False
        try:
            await asyncio.wait_for(asyncio.shield(pipe.closed), DRAIN_SECONDS)
        except TimeoutError:
            detached = True
        return Finished(returncode, stopped, detached, leftovers, tuple(group.survivors()))
    finally:
        stop_asked.cancel()
        watch.cancel()
        exited.cancel()
        transport.close()
        capture.close()
        if report_r >= 0:
            os.close(report_r)


async def _until_done(
    group: ProcessGroup,
    exited: asyncio.Future[Any],
    stop_asked: asyncio.Future[Any],
    watch: asyncio.Future[Any],
    *,
    timeout: float,
    cancelled: asyncio.Event,
) -> tuple[Stop | None, tuple[Member, ...]]:
    """Why the command was stopped, if it was, and the background jobs stopped after it."""
    try:
        done, _ = await asyncio.wait(
            {exited, stop_asked, watch}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if watch in done and exited not in done and isinstance(group, SandboxGroup):
            await group.kill()
            return "processes", ()
        if exited not in done:
            await group.stop()
            return ("cancelled" if stop_asked in done else "timeout"), ()
        # The call is over when the shell is: background jobs are stopped, not left behind
        # holding the workspace, the output pipe or a port.
        leftovers = tuple(group.members())
        if leftovers:
            await group.stop()
        return None, leftovers
    except asyncio.CancelledError:
        await _stop_on_cancel(group)
        if not cancelled.is_set():
            raise
        # The person cancelled (the session cancels the task too, to stop it at once): the
        # call still ends as the command it was, with what it printed so far.
        _uncancel()
        return "cancelled", ()


async def _spawn(
    command: str,
    cwd: Path,
    output_fd: int,
    confine: Confinement | None,
    report_fd: int,
    *,
    env: Mapping[str, str] | None = None,
) -> tuple[asyncio.subprocess.Process, ProcessGroup]:
    if confine is None:
        proc = await asyncio.create_subprocess_exec(
            "bash",
            "-c",
            command,
            cwd=cwd,
            env=None if env is None else dict(env),
            stdin=subprocess.DEVNULL,
            stdout=output_fd,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        return proc, ProcessGroup(proc.pid)
    # The stopper inside names what it stopped on its own pipe, apart from the output.
    seccomp = seccomp_fd(confine.seccomp)
    try:
        proc = await asyncio.create_subprocess_exec(
            *confine.argv,
            "--seccomp",
            str(seccomp),
            "--",
            *stopper_argv(command, report_fd, confine.limits),
            cwd=cwd,
            env=dict(confine.env),
            stdin=subprocess.DEVNULL,
            stdout=output_fd,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            pass_fds=(report_fd, seccomp),
        )
    finally:
        os.close(seccomp)
    return proc, SandboxGroup(proc.pid)


def _uncancel() -> None:
    task = asyncio.current_task()
    if task is not None:
        task.uncancel()


async def _stop_on_cancel(group: ProcessGroup) -> None:
    try:
        await group.stop()
    except asyncio.CancelledError:
        # Cancelled again while stopping: there is no time left to be gentle.
        group.kill_now()
        raise
