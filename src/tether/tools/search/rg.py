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
from typing import Any, Literal

from tether.errors import ToolError
from tether.tools.bash.group import ProcessGroup
from tether.tools.search.value import SEARCH_TIMEOUT_SECONDS

__all__ = ["SEARCH_TIMEOUT_SECONDS", "RgRun", "rg_binary", "run_rg"]

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
    loop = asyncio.get_running_loop()
    lines = _Lines(on_line, max_line_bytes, separator)
    try:
        transport, output = await loop.subprocess_exec(
            lambda: _Output(lines, max_bytes),
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
    group = ProcessGroup(transport.get_pid())
    stop_asked = asyncio.ensure_future(cancelled.wait())
    stopped: Stop | None = None
    try:
        ended = output.output_ended
        watched: set[asyncio.Future[Any]] = {ended, stop_asked}
        done, _ = await asyncio.wait(
            watched,
            timeout=SEARCH_TIMEOUT_SECONDS if timeout is None else timeout,
            return_when=asyncio.FIRST_COMPLETED,
        )
        if ended in done and ended.result():
            stopped = "overflow"
        elif ended not in done:
            stopped = "cancelled" if stop_asked in done else "timeout"
        if stopped is not None:
            await group.stop()
        await output.closed
        if stopped is None:
            lines.close()
        return RgRun(
            returncode=None if stopped else transport.get_returncode(),
            stderr=output.stderr(),
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
        stop_asked.cancel()
        if transport.get_returncode() is None:
            group.kill_now()
        transport.close()


class _Output(asyncio.SubprocessProtocol):
    """ripgrep's pipes as the loop reads them: stdout to the lines, the start of stderr kept.

    The lines are fed straight from the loop's read, with no stream or task between them: a
    search's output comes in as many small writes as there are files with matches.
    """

    def __init__(self, lines: _Lines, max_bytes: int) -> None:
        loop = asyncio.get_running_loop()
        self._lines = lines
        self._max_bytes = max_bytes
        self._stderr = bytearray()
        self.output_ended: asyncio.Future[bool] = loop.create_future()
        """Set at the end of stdout (`False`), or once `max_bytes` were read (`True`)."""
        self.closed: asyncio.Future[None] = loop.create_future()
        """Set once ripgrep has exited and both its pipes are at their end."""

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        """Feed stdout to the lines until the bound; keep the start of stderr."""
        if fd != 1:
            self._stderr += data[: max(0, _STDERR_KEPT - len(self._stderr))]
            return
        if self.output_ended.done():
            return  # past the bound: read and dropped, so ripgrep never blocks on the pipe
        try:
            self._lines.feed(data)
        except Exception as exc:
            self.output_ended.set_exception(exc)
            return
        if self._lines.read > self._max_bytes:
            self.output_ended.set_result(True)

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        """The end of stdout ends the output."""
        if fd == 1 and not self.output_ended.done():
            self.output_ended.set_result(False)

    def connection_lost(self, exc: Exception | None) -> None:
        """ripgrep exited and its pipes are closed."""
        if not self.closed.done():
            self.closed.set_result(None)

    def stderr(self) -> str:
        """What ripgrep wrote to stderr (its start), as text."""
        return self._stderr.decode("utf-8", "replace").strip()
