"""Counting newlines fast: the work that makes `totalLines` exact on a huge file.

Counting is what a read of a huge file spends its time on, so it is vectorized and spread over
the machine's cores: reading (`preadv`) and numpy both release the GIL. numpy compares a block
at a time into a reused array of flags (bytes of 0 or 1), then adds the flags up as 64-bit
words, 128 words to a column, so that no byte of a sum reaches a carry; the bytes of the sums
add up to the count. That is cheaper than `count_nonzero` over the flags.

numpy is imported only for a file large enough to pay for its import (`NUMPY_PAYS_FROM`);
smaller ones are counted by `bytes.count` unless numpy is loaded already. It is imported with
OpenBLAS told to start no threads: tether never multiplies a matrix, and the threads OpenBLAS
starts with the library spin on every core for about a tenth of a second, which made the
first count of a huge file in a fresh process take half again as long as the next.

Reads rather than a memory map, so a file truncated meanwhile gives short reads, never a
SIGBUS. The reads land in page-aligned buffers (anonymous maps): the kernel's copy into a
buffer 16 bytes past a 32-byte boundary, where the allocator may put a `bytearray`, took twice
the CPU time on the machines measured, and that copy is half of what counting a file costs.
"""

from __future__ import annotations

import mmap
import os
import sys
from collections.abc import Collection, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "BLAS_THREADS",
    "BLOCK_BYTES",
    "NUMPY_PAYS_FROM",
    "SCRATCH_BYTES",
    "NewlineCounter",
    "count_segments",
    "one_blas_thread",
    "read_buffer",
]

BLOCK_BYTES = 256 << 10
"""A range at least this long is counted by numpy (once it is loaded); a shorter one by
`bytes.count`."""

NUMPY_PAYS_FROM = 128 << 20
"""Bytes a counter is to count, from which importing numpy for them pays: its import (about
50 ms of CPU) costs what `bytes.count` (one core, about 3.4 GB/s) spends on 170 MB, and numpy
counts on every core at about 9 GB/s each. Below it, a process that has not loaded numpy
counts without it: the first read of a 10 MB file no longer waits for numpy."""

SCRATCH_BYTES = 1 << 20
"""Bytes compared at once (the size of the array of flags); a multiple of `_ROWS` words."""

_ROWS = 128
"""Words of flags added per column: a byte of their sum is at most 128, so never carries."""
_MAX_WORKERS = 4

BLAS_THREADS = "OPENBLAS_NUM_THREADS"
"""What numpy's OpenBLAS reads, when the library loads, for the threads it starts."""
_BLAS_SETTINGS = (BLAS_THREADS, "GOTO_NUM_THREADS", "OMP_NUM_THREADS")
"""Any of these set by the person is theirs: tether then leaves OpenBLAS as they set it."""

Buffer = bytes | bytearray | mmap.mmap


def read_buffer(size: int) -> mmap.mmap:
    """A writable buffer of `size` bytes at the start of a page, for reads to land in."""
    return mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE)


@contextmanager
def one_blas_thread(
    loaded: Collection[str] = sys.modules, environ: Mapping[str, str] = os.environ
) -> Iterator[None]:
    """While numpy is imported for the first time, OpenBLAS is told to start no threads.

    The setting is put in the C environment, which the library reads as it loads, and taken
    out after: `environ` (`os.environ`, from which tools build their commands' environments)
    never holds it. Only a command started from the process's own environment during that one
    import (an unsandboxed `bash` without settings `env`, in the same tenth of a second) would
    see it. Nothing changes when numpy is in `loaded` already or the person set the threads.
    """
    if "numpy" in loaded or any(name in environ for name in _BLAS_SETTINGS):
        yield
        return
    os.putenv(BLAS_THREADS, "1")
    try:
        yield
    finally:
        os.unsetenv(BLAS_THREADS)


class NewlineCounter:
    """Counts newlines in a range of a buffer, reusing one scratch array for large ranges."""

    def __init__(self, expected: int = 0, loaded: Collection[str] = sys.modules) -> None:
        """`expected`: the bytes to be counted in all (across counters, for one file): numpy
        is imported for them when they reach `NUMPY_PAYS_FROM`, else used only if it is in
        `loaded` (the process's modules) already."""
        self._scratch: _Scratch | None = None
        self._import = expected >= NUMPY_PAYS_FROM
        self._loaded = loaded

    def __call__(self, chunk: Buffer, pos: int, end: int) -> int:
        """The number of `\\n` bytes in `chunk[pos:end]`."""
        if end - pos >= BLOCK_BYTES:
            # `find` is memchr: a stretch without any newline is skipped fastest.
            if chunk.find(b"\n", pos, end) < 0:
                return 0
            if self._scratch is not None or self._import or "numpy" in self._loaded:
                if self._scratch is None:
                    self._scratch = _Scratch()
                return self._scratch.count(chunk, pos, end)
        # A short range (all of a small file), or a file too small to pay for numpy's import,
        # so that a session reading no large file never imports it. A map has no `count`: its
        # slice does.
        if isinstance(chunk, mmap.mmap):
            return chunk[pos:end].count(b"\n")
        return chunk.count(b"\n", pos, end)


class _Scratch:
    """numpy's arrays for counting, made once per counter: the flags and their column sums."""

    def __init__(self) -> None:
        with one_blas_thread():
            import numpy as np

        self.np = np
        self.newline = np.uint8(ord("\n"))
        self.flags: npt.NDArray[np.bool_] = np.empty(SCRATCH_BYTES, np.bool_)
        self.columns = self.flags.view(np.uint64).reshape(_ROWS, -1)
        self.sums: npt.NDArray[np.uint64] = np.empty(self.columns.shape[1], np.uint64)
        self.sum_bytes = self.sums.view(np.uint8)

    def count(self, chunk: Buffer, pos: int, end: int) -> int:
        """The number of newlines in `chunk[pos:end]`, a block of `SCRATCH_BYTES` at a time."""
        np = self.np
        data = np.frombuffer(chunk, np.uint8, end - pos, pos)
        count = 0
        for start in range(0, len(data), SCRATCH_BYTES):
            block = data[start : start + SCRATCH_BYTES]
            if len(block) == SCRATCH_BYTES:
                np.equal(block, self.newline, out=self.flags)
                np.add.reduce(self.columns, axis=0, out=self.sums)
                count += int(self.sum_bytes.sum())
            else:
                flags = self.flags[: len(block)]
                np.equal(block, self.newline, out=flags)
                count += int(np.count_nonzero(flags))
        return count


def count_segments(fd: int, size: int, segment: int) -> list[int]:
    """The newline count of each `segment`-sized piece of the first `size` bytes of a file.

    Each worker reads one segment at a time into its own buffer, so memory stays at a few
    segments whatever the file's size. A file cut short meanwhile counts what is left.
    """
    starts = range(0, size, segment)
    workers = max(1, min(_MAX_WORKERS, os.cpu_count() or 1, len(starts)))

    def count_share(first: int) -> list[tuple[int, int]]:
        count = NewlineCounter(size)
        buffer = read_buffer(segment)
        counts = []
        with memoryview(buffer) as view:
            for index in range(first, len(starts), workers):
                start = starts[index]
                got = os.preadv(fd, [view[: min(segment, size - start)]], start)
                counts.append((index, count(buffer, 0, got)))
        return counts

    totals = [0] * len(starts)
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="read-count") as pool:
        for share in pool.map(count_share, range(workers)):
            for index, count in share:
                totals[index] = count
    return totals
