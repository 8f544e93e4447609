"""Running ripgrep: the binary from the `ripgrep` wheel, in its own process group, bounded.

The group is new but the session is tether's: a new session would be a new scheduling group
under Linux's autogroup, and on a busy machine ripgrep's threads there got a smaller share of
the CPU (a search took 1.3-1.8x the wall time of the same ripgrep at the same CPU time).

Output is handed over line by line as it arrives, so nothing piles up: a line longer than
`max_line_bytes` is dropped (and counted), and once `max_bytes` have been read the search is
stopped. A timeout or a cancel stops the whole group the way `bash` does: SIGTERM, then
SIGKILL after the grace period.
"""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Literal

from tether.errors import ToolError
from tether.tools.bash.group import ProcessGroup

__all__ = ["SEARCH_TIMEOUT_SECONDS", "RgRun", "rg_binary", "run_rg"]

SEARCH_TIMEOUT_SECONDS = 30.0
"""How long one search may run before its group is stopped."""

_CHUNK = 1 << 16
_STDERR_KEPT = 8192

Stop = Literal["timeout", "cancelled", "overflow"]


@cache
def rg_binary() -> Path:
    """The `rg` executable the installed `ripgrep` distribution ships (never one from PATH)."""
    try:
        files = metadata.distribution("ripgrep").files or []
    except metadata.PackageNotFoundError:
        raise ToolError("ripgrep is not installed: reinstall tether (it depends on it)") from None
    for file in files:
        if file.name in ("rg", "rg.exe"):
            path = Path(str(file.locate())).resolve()
            if path.is_file():
                return path
    raise ToolError("the ripgrep package holds no rg binary: reinstall it")


@dataclass(frozen=True)
class RgRun:
    """How a run ended: ripgrep's exit code (`None` when it was stopped) and its stderr."""

    returncode: int | None
    stderr: str
    stopped: Stop | None
    dropped_lines: int
    """Output lines longer than the line bound, left out."""


class _Lines:
    """Splits output into lines, each within the bound; counts what it reads."""

    def __init__(
        self, on_line: Callable[[bytes], None], max_line_bytes: int, separator: bytes
    ) -> None:
        self._on_line = on_line
        self._separator = separator
        self._max = max_line_bytes
        self._partial = bytearray()
        self._skipping = False
        self.dropped = 0
        self.read = 0

    def feed(self, data: bytes) -> None:
        self.read += len(data)
        # One `split` in C, then a loop over whole lines: a search prints thousands of them.
        lines = data.split(self._separator)
        tail = lines.pop()
        if lines:
            if self._skipping:
                # The first piece ends the line too long to keep (already counted).
                self._skipping = False
                first = 1
            else:
                first = 0
                if self._partial:
                    self._partial += lines[0]
                    lines[0] = bytes(self._partial)
                    self._partial.clear()
            on_line, longest = self._on_line, self._max
            for index in range(first, len(lines)):
                line = lines[index]
                if len(line) > longest:
                    self.dropped += 1
                else:
                    on_line(line)
        if not self._skipping:
            self._partial += tail
            if len(self._partial) > self._max:
                self._partial.clear()
                self._skipping = True
                self.dropped += 1

    def _emit(self, line: bytes) -> None:
        if len(line) > self._max:
            self.dropped += 1
        else:
            self._on_line(line)

    def close(self) -> None:
        if self._partial and not self._skipping:
            self._emit(bytes(self._partial))
        self._partial.clear()


async def run_rg(
    args: Sequence[str],
    cwd: Path,
    *,
    pass_fds: Sequence[int] = (),
    on_line: Callable[[bytes], None],
    cancelled: asyncio.Event,
    timeout: float | None = None,
    max_bytes: int,
    max_line_bytes: int,
    separator: bytes = b"\n",
) -> RgRun:
    """Run `rg ARGS` in `cwd`, feeding each stdout line to `on_line` until it ends or is stopped.

    `pass_fds` stay open in ripgrep (a `cwd` of `/proc/self/fd/N` needs N).

    `timeout` defaults to `SEARCH_TIMEOUT_SECONDS`. Lines end at `separator` (a NUL for
    `--null` output, whose paths may hold newlines).

    Raises `ToolError` when ripgrep cannot be started. If the task running this is cancelled,
    the group is stopped before `CancelledError` propagates.
    """
    try:
        proc = await asyncio.create_subprocess_exec(
            str(rg_binary()),
            *args,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            process_group=0,
            pass_fds=tuple(pass_fds),
        )
    except (OSError, ValueError) as exc:
        # ValueError: an argument no exec can carry (a NUL, a lone surrogate).
        raise ToolError(f"Cannot run ripgrep: {exc}") from exc
    assert proc.stdout is not None and proc.stderr is not None
    group = ProcessGroup(proc.pid)
    lines = _Lines(on_line, max_line_bytes, separator)
    reading = asyncio.ensure_future(_read(proc.stdout, lines, max_bytes))
    errors = asyncio.ensure_future(_read_stderr(proc.stderr))
    stop_asked = asyncio.ensure_future(cancelled.wait())
    stopped: Stop | None = None
    try:
        done, _ = await asyncio.wait(
            {reading, stop_asked},
            timeout=SEARCH_TIMEOUT_SECONDS if timeout is None else timeout,
            return_when=asyncio.FIRST_COMPLETED,
        )
        if reading in done and reading.result():
            stopped = "overflow"
            # Python 3.11's `wait()` returns only once every pipe is at its end, and a reader
            # stopped past its bound pauses the pipe: what is left is read and dropped.
            reading = asyncio.ensure_future(_discard(proc.stdout))
        elif reading not in done:
            stopped = "cancelled" if stop_asked in done else "timeout"
        if stopped is not None:
            await group.stop()
        returncode = await proc.wait()
        stderr = await errors
        if stopped is None:
            lines.close()
        return RgRun(
            returncode=None if stopped else returncode,
            stderr=stderr,
            stopped=stopped,
            dropped_lines=lines.dropped,
        )
    except asyncio.CancelledError:
        try:
            await group.stop()
        except asyncio.CancelledError:
            # Cancelled again while stopping: there is no time left to be gentle.
            group.kill_now()
            raise
        raise
    finally:
        for task in (reading, errors, stop_asked):
            task.cancel()
        if proc.returncode is None:
            group.kill_now()


async def _read(stream: asyncio.StreamReader, lines: _Lines, max_bytes: int) -> bool:
    """Feed the stream to `lines` until it ends (`False`) or passes `max_bytes` (`True`)."""
    while chunk := await stream.read(_CHUNK):
        lines.feed(chunk)
        if lines.read > max_bytes:
            return True
    return False


async def _discard(stream: asyncio.StreamReader) -> bool:
    while await stream.read(_CHUNK):
        pass
    return True


async def _read_stderr(stream: asyncio.StreamReader) -> str:
    kept = bytearray()
    while chunk := await stream.read(_CHUNK):
        # Read it all so ripgrep never blocks on a full pipe, but keep only the start.
        kept += chunk[: max(0, _STDERR_KEPT - len(kept))]
    return kept.decode("utf-8", "replace").strip()
