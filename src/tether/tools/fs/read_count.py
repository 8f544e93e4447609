"""Counting newlines fast: the work that makes `totalLines` exact on a huge file.

Counting is what a read of a huge file spends its time on, so it is vectorized (numpy compares
a block at a time, in a scratch array small enough to stay in cache) and spread over the
machine's cores: reading (`preadv`) and numpy's compare both release the GIL. Reads rather
than a memory map, so a file truncated meanwhile gives short reads, never a SIGBUS.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["BLOCK_BYTES", "NewlineCounter", "count_segments"]

BLOCK_BYTES = 256 << 10
"""Bytes compared at once; the scratch array of flags stays in cache at this size."""

_NEWLINE = ord("\n")
_MAX_WORKERS = 4


class NewlineCounter:
    """Counts newlines in a range of a buffer, reusing one scratch array for large ranges."""

    def __init__(self) -> None:
        self._flags: npt.NDArray[np.bool_] | None = None

    def __call__(self, chunk: bytes | bytearray, pos: int, end: int) -> int:
        """The number of `\\n` bytes in `chunk[pos:end]`."""
        if end - pos < BLOCK_BYTES:
            # A short range (all of a small file) is counted without numpy, so a session that
            # reads no large file never imports it.
            return chunk.count(b"\n", pos, end)
        # `find` is memchr: a stretch without any newline is skipped fastest.
        if chunk.find(b"\n", pos, end) < 0:
            return 0
        import numpy as np

        if self._flags is None:
            self._flags = np.empty(BLOCK_BYTES, dtype=np.bool_)
        data = np.frombuffer(chunk, np.uint8, end - pos, pos)
        count = 0
        for start in range(0, len(data), BLOCK_BYTES):
            block = data[start : start + BLOCK_BYTES]
            flags = self._flags[: len(block)]
            np.equal(block, _NEWLINE, out=flags)
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
        count = NewlineCounter()
        buffer = bytearray(segment)
        view = memoryview(buffer)
        counts = []
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
