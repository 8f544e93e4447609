"""Running one hook command: a shell in the workspace, JSON on stdin, its output kept capped.

The command is the user's own program, so it is not sandboxed: it runs with `bash -c` (else
`sh -c`) in the workspace, in a process group of its own, with the environment tether has.
At its timeout the whole group is killed (SIGKILL), and so it is when the turn is cancelled.
Of each stream the first `keep` bytes are kept and the rest is read and counted, so a hook
that prints gigabytes costs no memory. A hook that exits while something it started still
holds its output open is waited for `PIPE_GRACE` seconds at most.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = ["KEEP_BYTES", "PIPE_GRACE", "Finished", "run_command"]

KEEP_BYTES = 1024 * 1024
"""Bytes of each stream kept (the rest is counted): enough for any JSON answer."""

PIPE_GRACE = 2.0
"""Seconds to finish reading after the hook exits, while a process it left holds its output."""

_CHUNK = 64 * 1024


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
) -> Finished:
    """Run `command` to its end or its timeout; cancelling the caller kills it too."""
    started = time.monotonic()
    shell = shutil.which("bash") or "/bin/sh"
    try:
        process = await asyncio.create_subprocess_exec(
            shell,
            "-c",
            command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=cwd,
            env=dict(env),
            start_new_session=True,
        )
    except OSError as exc:
        return Finished(None, b"", b"", 0, 0, _elapsed(started), error=f"could not start: {exc}")
    assert process.stdin and process.stdout and process.stderr
    out, err = _Stream(keep), _Stream(keep)
    tasks = [
        asyncio.ensure_future(_feed(process.stdin, stdin)),
        asyncio.ensure_future(out.drain(process.stdout)),
        asyncio.ensure_future(err.drain(process.stderr)),
    ]
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
                await asyncio.gather(*tasks[1:])
    except asyncio.CancelledError:
        _kill_group(process.pid)
        await asyncio.shield(process.wait())
        raise
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
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


class _Stream:
    """One output stream: the first `keep` bytes, and how many there were in all."""

    def __init__(self, keep: int) -> None:
        self._keep = keep
        self._parts: list[bytes] = []
        self._kept = 0
        self.total = 0

    async def drain(self, reader: asyncio.StreamReader) -> None:
        while chunk := await reader.read(_CHUNK):
            self.total += len(chunk)
            room = self._keep - self._kept
            if room > 0:
                self._parts.append(chunk[:room])
                self._kept += min(room, len(chunk))

    def kept(self) -> bytes:
        return b"".join(self._parts)


async def _feed(writer: asyncio.StreamWriter, data: bytes) -> None:
    # A hook that never reads its input is not an error: it just did not need it.
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        writer.write(data)
        await writer.drain()
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        writer.close()
        await writer.wait_closed()


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _elapsed(started: float) -> int:
    return round((time.monotonic() - started) * 1000)
