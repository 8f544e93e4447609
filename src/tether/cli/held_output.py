"""Output held back until a command knows it may print it: `tether show` reads a log once,
printing as it goes, yet a corrupt line must still be an error before anything is printed.

What each stream is given is kept in order, stdout's and stderr's interleaved as they came (in
memory while it is small, then in an unnamed temporary file), and written to the streams once
the command releases it. Should holding fail (no room for the temporary file), the rest is
dropped and `release` says so: the command then prints it again the way that holds nothing.
"""

from __future__ import annotations

import contextlib
import os
import sys
from array import array
from collections.abc import Callable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import logging

__all__ = ["IN_MEMORY", "HeldOutput", "said_once"]

IN_MEMORY = 1 << 20
"""Bytes held in memory before the rest goes to a temporary file."""

_GATHERED = 512
"""The most pieces gathered before they are written (by calls of at most this many: the
system takes at most 1,024)."""

_BLOCK = 1 << 20
"""Bytes gathered before they are written to the temporary file, and copied from it at a time
where the kernel cannot send them."""


class HeldOutput:
    """What some streams are given, held in order until `release` writes it to them."""

    def __init__(self) -> None:
        self._memory = bytearray()
        """What is held while it is small: one buffer (a list of each write's bytes cost
        their objects' size again, and a copy of them all where they were joined)."""
        self._pending: list[bytes | bytearray | memoryview] = []
        self._pending_size = 0
        self._held = 0
        self._file: IO[bytes] | None = None
        """The temporary file, once more than `IN_MEMORY` is held (closed by `close`)."""
        self._streams = array("H")
        self._sizes = array("Q")
        """Which stream each run held is for, and its bytes, in the order they came: a text
        stream's writes one by one (each reaches it as it was written), a binary stream's run
        of writes as one. Arrays: text `show` may hold a million writes."""
        self._targets: list[IO[str] | IO[bytes]] = []
        self._binary: list[bool] = []
        self.failed = False
        """Whether something could not be held (and all after it was dropped)."""

    def stream(self, target: IO[str]) -> IO[str]:
        """A stream whose writes are held for `target` (which answers everything else)."""
        self._targets.append(target)
        self._binary.append(False)
        return cast(IO[str], _HeldStream(self, len(self._targets) - 1, target))

    def binary(self, target: IO[bytes]) -> Callable[[Sequence[bytes | memoryview]], None]:
        """A write of bytes held for the binary stream `target`: pieces, to be written as they
        are, one after the other (handed over together: a document is written in thousands)."""
        self._targets.append(target)
        self._binary.append(True)
        index = len(self._targets) - 1
        return lambda pieces: self.hold_pieces(index, pieces)

    def hold(self, index: int, text: str) -> None:
        """Keep `text` for the stream numbered `index`."""
        # A lone surrogate is the target's to mend.
        self.hold_pieces(index, (text.encode("utf-8", "surrogatepass"),))

    def hold_pieces(self, index: int, pieces: Sequence[bytes | memoryview]) -> None:
        """Keep `pieces`, one after the other, for the stream numbered `index`."""
        if self.failed:
            return
        size = sum(map(len, pieces))
        if not size:
            return
        try:
            self._keep(pieces, size)
        except OSError:
            self.failed = True
            return
        streams = self._streams
        if streams and streams[-1] == index and self._binary[index]:
            self._sizes[-1] += size
        else:
            streams.append(index)
            self._sizes.append(size)

    def _keep(self, pieces: Sequence[bytes | memoryview], size: int) -> None:
        if self._file is None and self._held + size <= IN_MEMORY:
            for piece in pieces:
                self._memory += piece
        else:
            if self._file is None:
                # Closed by `release` or `close`, whichever way the command ends.
                self._file = _unnamed_file()
                # What was in memory goes first, as one piece, written as it is (not copied).
                self._pending = [self._memory]
                self._pending_size = len(self._memory)
                self._memory = bytearray()
            # Gathered, and written a megabyte at a time: not copied here first.
            self._pending += pieces
            self._pending_size += size
            if self._pending_size >= _BLOCK or len(self._pending) >= _GATHERED:
                self._write_pending()
        self._held += size

    def _write_pending(self) -> None:
        assert self._file is not None
        pending, self._pending, self._pending_size = self._pending, [], 0
        descriptor = self._file.fileno()
        # At most `_GATHERED` pieces a call: the system takes no more than 1,024.
        for first in range(0, len(pending), _GATHERED):
            gathered = pending[first : first + _GATHERED]
            written = os.writev(descriptor, gathered)
            left = b"".join(gathered)[written:] if written < sum(map(len, gathered)) else b""
            while left:
                left = left[os.write(descriptor, left) :]

    def release(self) -> bool:
        """Write everything held to its stream, in the order it came; False (nothing written)
        if something could not be held."""
        try:
            if self.failed:
                return False
            if self._file is not None:
                try:
                    self._write_pending()
                except OSError:
                    return False
            self._write_out()
            return True
        finally:
            self.close()

    def _write_out(self) -> None:
        memory = memoryview(self._memory)
        self._memory = bytearray()  # let go, not emptied: `memory` is a view of it
        # A text stream's writes are read back in order, a block at a time (through a
        # descriptor of its own, closed here; the file itself is `close`'s).
        reader = None
        if self._file is not None:
            reader = open(os.dup(self._file.fileno()), "rb", buffering=_BLOCK)  # noqa: SIM115
        try:
            self._write_runs(memory, reader)
        finally:
            if reader is not None:
                reader.close()
        for target in self._targets:
            target.flush()

    def _write_runs(self, memory: memoryview, reader: IO[bytes] | None) -> None:
        last: IO[str] | IO[bytes] | None = None
        offset = 0
        for index, size in zip(self._streams, self._sizes, strict=True):
            target = self._targets[index]
            if last is not None and last is not target:
                last.flush()  # what one stream was given before the other shows first
            if reader is None:
                data = memory[offset : offset + size]
            elif not self._binary[index]:
                reader.seek(offset)  # where it is already, unless a binary run came between
                data = memoryview(reader.read(size))
            else:
                assert self._file is not None
                _copy(self._file, offset, size, cast(IO[bytes], target))
                data = memoryview(b"")
            if not self._binary[index]:
                if len(data) != size:
                    raise OSError(f"the held output ended {size - len(data)} bytes short")
                cast(IO[str], target).write(str(data, "utf-8", "surrogatepass"))
            elif reader is None:
                cast(IO[bytes], target).write(data)
            offset += size
            last = target

    def close(self) -> None:
        """Let what is held go."""
        self._memory = bytearray()
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()


_TEMPORARY_FOLDERS = ("TMPDIR", "TEMP", "TMP")
"""The variables naming the folder of temporary files, in the order `tempfile` reads them."""


def _unnamed_file() -> IO[bytes]:
    """An unnamed temporary file, made by the system in the folder `tempfile` tries first (the
    one its variables name, else /tmp) without loading `tempfile`: it brings shutil, random and
    the compression modules (~3 ms of `show --json`'s start). Once loaded, `tempfile` makes it
    (where the process may have told it to), as it does where that folder takes no unnamed
    file, searching on as it always does."""
    if "tempfile" not in sys.modules:
        folder = next(filter(None, map(os.environ.get, _TEMPORARY_FOLDERS)), "/tmp")
        try:
            # Not inherited by children (PEP 446); O_TMPFILE is Linux's (elsewhere: tempfile).
            flags = os.O_TMPFILE | os.O_RDWR | os.O_EXCL | os.O_NOFOLLOW
            return open(os.open(folder, flags, 0o600), "w+b", buffering=0)
        except (AttributeError, OSError):
            pass  # not there, not writable, or no unnamed files on its file system
    import tempfile

    return tempfile.TemporaryFile(buffering=0)


def _copy(source: IO[bytes], offset: int, size: int, target: IO[bytes]) -> None:
    """`size` bytes of `source` from `offset` written to `target`: by the kernel where it can
    (no copy through this process), else a block at a time."""
    end = offset + size
    try:
        out = target.fileno()
        target.flush()  # what was written to it before goes first
        while offset < end:
            sent = os.sendfile(out, source.fileno(), offset, end - offset)
            if sent == 0:
                break  # the file is shorter than what was held: `_read` says so below
            offset += sent
    except BrokenPipeError:
        raise
    except (OSError, ValueError):
        pass  # no descriptor (a stream in memory), or one the kernel cannot send to
    while offset < end:
        block = _read(source, offset, min(_BLOCK, end - offset))
        target.write(block)
        offset += len(block)


def _read(source: IO[bytes], offset: int, size: int) -> bytes:
    """`size` bytes of `source` from `offset`."""
    blocks: list[bytes] = []
    while size > 0:
        block = os.pread(source.fileno(), size, offset)
        if not block:
            raise OSError(f"the held output ended {size} bytes short")
        blocks.append(block)
        offset, size = offset + len(block), size - len(block)
    return b"".join(blocks)


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


class _SaidOnce:
    """Lets each message through once (a filter by its method, as `logging` takes one, so
    that holding `logging` back until something logs needs no `logging.Filter`)."""

    def __init__(self) -> None:
        self._said: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether `record` says something not said before."""
        message = record.getMessage()
        if message in self._said:
            return False
        self._said.add(message)
        return True
