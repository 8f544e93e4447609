"""Output held back until a command knows it may print it: `tether show` reads a log once,
printing as it goes, yet a corrupt line must still be an error before anything is printed.

What each stream is given is kept in order, stdout's and stderr's interleaved as they came (in
memory while it is small, then in an unnamed temporary file), and written to the streams once
the command releases it. Should holding fail (no room for the temporary file), the rest is
dropped and `release` says so: the command then prints it again the way that holds nothing.
"""

from __future__ import annotations

import contextlib
import logging
import struct
import tempfile
from collections.abc import Callable, Iterator
from typing import IO, Any, cast

__all__ = ["IN_MEMORY", "HeldOutput", "said_once"]

IN_MEMORY = 1 << 20
"""Bytes held in memory before the rest goes to a temporary file."""

_FRAME = struct.Struct("<BI")
"""Before each write held: which stream it is for, and its length in bytes."""


class HeldOutput:
    """What some streams are given, held in order until `release` writes it to them."""

    def __init__(self) -> None:
        # Closed by `release` or `close`, whichever way the command ends.
        self._file: IO[bytes] = tempfile.SpooledTemporaryFile(max_size=IN_MEMORY)  # noqa: SIM115
        self._targets: list[IO[str] | IO[bytes]] = []
        self._binary: list[bool] = []
        self.failed = False
        """Whether something could not be held (and all after it was dropped)."""

    def stream(self, target: IO[str]) -> IO[str]:
        """A stream whose writes are held for `target` (which answers everything else)."""
        self._targets.append(target)
        self._binary.append(False)
        return cast(IO[str], _HeldStream(self, len(self._targets) - 1, target))

    def binary(self, target: IO[bytes]) -> Callable[[bytes], None]:
        """A write of bytes held for the binary stream `target`, to be written as they are."""
        self._targets.append(target)
        self._binary.append(True)
        index = len(self._targets) - 1
        return lambda data: self.hold_bytes(index, data)

    def hold(self, index: int, text: str) -> None:
        """Keep `text` for the stream numbered `index`."""
        # A lone surrogate is the target's to mend.
        self.hold_bytes(index, text.encode("utf-8", "surrogatepass"))

    def hold_bytes(self, index: int, data: bytes) -> None:
        """Keep `data` for the stream numbered `index`."""
        if self.failed or not data:
            return
        try:
            self._file.write(_FRAME.pack(index, len(data)))
            self._file.write(data)
        except OSError:
            self.failed = True

    def release(self) -> bool:
        """Write everything held to its stream, in the order it came; False (nothing written)
        if something could not be held."""
        try:
            if self.failed:
                return False
            try:
                self._file.seek(0)  # writes out what is still buffered
            except OSError:
                return False
            self._write_out()
            return True
        finally:
            self.close()

    def _write_out(self) -> None:
        last: IO[str] | IO[bytes] | None = None
        while head := self._file.read(_FRAME.size):
            index, size = _FRAME.unpack(head)
            target = self._targets[index]
            if last is not None and last is not target:
                last.flush()  # what one stream was given before the other shows first
            data = self._file.read(size)
            if self._binary[index]:
                cast(IO[bytes], target).write(data)
            else:
                cast(IO[str], target).write(data.decode("utf-8", "surrogatepass"))
            last = target
        for target in self._targets:
            target.flush()

    def close(self) -> None:
        """Let what is held go."""
        with contextlib.suppress(OSError):
            self._file.close()


class _HeldStream:
    """Writes go to the held output; everything else (encoding, isatty, fileno) is the
    target's, so a console writing here draws as it would there."""

    def __init__(self, held: HeldOutput, index: int, target: IO[str]) -> None:
        self._held = held
        self._index = index
        self._target = target

    def write(self, text: str) -> int:
        """Hold `text`."""
        self._held.hold(self._index, text)
        return len(text)

    def flush(self) -> None:
        """Nothing to flush: the text waits for `release`."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self._target, name)


@contextlib.contextmanager
def said_once(logger: logging.Logger) -> Iterator[None]:
    """While the block runs, each message of `logger` is let through once: a command whose
    holding failed reads its log a second time, and a torn last line is still warned of once."""
    once = _SaidOnce()
    logger.addFilter(once)
    try:
        yield
    finally:
        logger.removeFilter(once)


class _SaidOnce(logging.Filter):
    """Lets each message through once."""

    def __init__(self) -> None:
        super().__init__()
        self._said: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether `record` says something not said before."""
        message = record.getMessage()
        if message in self._said:
            return False
        self._said.add(message)
        return True
