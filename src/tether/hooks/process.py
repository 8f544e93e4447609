"""Running one hook command: a shell in the workspace, JSON on stdin, its output kept capped.

It runs with `bash -c` (else `sh -c`) in the workspace, in a process group of its own: in the
session's sandbox when `confine` is given (`tether.hooks.sandboxing`), else with the
environment tether has. At its timeout the whole group is killed (SIGKILL), and so it is when
the turn is cancelled. Of each stream the first `keep` bytes are kept and the rest is read and
counted, so a hook that prints gigabytes costs no memory.

The three streams are pipes of tether's own, not asyncio's: a process waits only for the
hook's exit, never for its streams, so a hook that exits while something it started still
holds its output open costs `PIPE_GRACE` seconds at most, then its output is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import shutil
import signal
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tether.sandbox.bwrap import seccomp_fd
from tether.sandbox.policy import Confinement

__all__ = ["KEEP_BYTES", "PIPE_GRACE", "Finished", "run_command"]

KEEP_BYTES = 1024 * 1024
"""Bytes of each stream kept (the rest is counted): enough for any JSON answer."""

PIPE_GRACE = 2.0
"""Seconds to finish reading after the hook exits, while a process it left holds its output."""


@dataclass(frozen=True)
class Finished:
    """How a hook command ended: its exit code (or signal), its output, and how long it took."""

    exit_code: int | None
    """`None` when it did not exit by itself: killed, timed out, or never started."""
    stdout: bytes
    stderr: bytes
    stdout_bytes: int
    """How many bytes it wrote to stdout in all (`stdout` keeps the first of them)."""
    stderr_bytes: int
    duration_ms: int
    signal: int | None = None
    timed_out: bool = False
    error: str | None = None
    """Why it has no exit code: it could not start, or it ran past its timeout."""


async def run_command(
    command: str,
    *,
    stdin: bytes,
    cwd: Path,
    env: Mapping[str, str],
    timeout: float,
    keep: int = KEEP_BYTES,
    confine: Confinement | None = None,
) -> Finished:
    """Run `command` to its end or its timeout; cancelling the caller kills it too."""
    started = time.monotonic()
    loop = asyncio.get_running_loop()
    out, err = _Stream(keep), _Stream(keep)
    fds: list[int] = []
    transports: list[asyncio.BaseTransport] = []
    try:
        in_r, in_w = _pipe(fds)
        out_r, out_w = _pipe(fds)
        err_r, err_w = _pipe(fds)
        try:
            process = await _spawn(command, cwd, env, confine, (in_r, out_w, err_w))
        except OSError as exc:
            why = f"could not start: {exc}"
            return Finished(None, b"", b"", 0, 0, _elapsed(started), error=why)
        for fd in (in_r, out_w, err_w):
            fds.remove(fd)
            os.close(fd)  # the hook's ends: end-of-file comes once it (and its children) close
        ends: list[asyncio.Future[None]] = []
        for fd, stream in ((out_r, out), (err_r, err)):
            fds.remove(fd)
            reader = functools.partial(_Reader, stream, ends)
            transport, _ = await loop.connect_read_pipe(reader, os.fdopen(fd, "rb", 0))
            transports.append(transport)
        fds.remove(in_w)
        writer, _ = await loop.connect_write_pipe(asyncio.Protocol, os.fdopen(in_w, "wb", 0))
        transports.append(writer)
        # A hook that never reads its input is not an error: it just did not need it.
        writer.write(stdin)
        writer.close()
        timed_out = False
        try:
            try:
                async with asyncio.timeout(timeout):
                    await process.wait()
            except TimeoutError:
                timed_out = True
                _kill_group(process.pid)
                await process.wait()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(PIPE_GRACE):
                    await asyncio.gather(*ends)
        except asyncio.CancelledError:
            _kill_group(process.pid)
            await asyncio.shield(process.wait())
            raise
    finally:
        for opened in transports:
            opened.close()
        for fd in fds:
            os.close(fd)
    code = process.returncode
    killed = -code if code is not None and code < 0 else None
    return Finished(
        exit_code=None if timed_out or killed is not None else code,
        stdout=out.kept(),
        stderr=err.kept(),
        stdout_bytes=out.total,
        stderr_bytes=err.total,
        duration_ms=_elapsed(started),
        signal=killed,
        timed_out=timed_out,
        error=f"timed out after {timeout:g} s; its process group was killed" if timed_out else None,
    )


def _pipe(fds: list[int]) -> tuple[int, int]:
    read, write = os.pipe()
    fds += [read, write]
    return read, write


async def _spawn(
    command: str,
    cwd: Path,
    env: Mapping[str, str],
    confine: Confinement | None,
    streams: tuple[int, int, int],
) -> asyncio.subprocess.Process:
    stdin, stdout, stderr = streams
    if confine is None:
        shell = shutil.which("bash") or "/bin/sh"
        return await asyncio.create_subprocess_exec(
            shell,
            "-c",
            command,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            cwd=cwd,
            env=dict(env),
            start_new_session=True,
        )
    # bwrap's init ends when the hook's shell does, and the kernel then ends everything else
    # in the sandbox: nothing a sandboxed hook starts outlives it.
    inner = ["bash", "-c", command]
    if confine.limits:
        inner = ["bash", "-c", 'ulimit "${@:2}" && exec bash -c "$1"', "tether-hook", command]
        inner += list(confine.limits)
    seccomp = seccomp_fd(confine.seccomp)
    try:
        return await asyncio.create_subprocess_exec(
            *confine.argv,
            "--seccomp",
            str(seccomp),
            "--",
            *inner,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            cwd=cwd,
            env=dict(confine.env),
            start_new_session=True,
            pass_fds=(seccomp,),
        )
    finally:
        os.close(seccomp)


class _Stream:
    """One output stream: the first `keep` bytes, and how many there were in all."""

    def __init__(self, keep: int) -> None:
        self._keep = keep
        self._parts: list[bytes] = []
        self._kept = 0
        self.total = 0

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self._keep - self._kept
        if room > 0:
            self._parts.append(chunk[:room])
            self._kept += min(room, len(chunk))

    def kept(self) -> bytes:
        return b"".join(self._parts)


class _Reader(asyncio.Protocol):
    """Feeds what a stream brings into its `_Stream` as it comes; done at end-of-file."""

    def __init__(self, stream: _Stream, ends: list[asyncio.Future[None]]) -> None:
        self._stream = stream
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        ends.append(self.closed)

    def data_received(self, data: bytes) -> None:
        self._stream.feed(data)

    def eof_received(self) -> bool | None:
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _elapsed(started: float) -> int:
    return round((time.monotonic() - started) * 1000)
