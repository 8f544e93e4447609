"""The bounded-memory scan behind `read`: one pass that keeps the window and counts every line.

The file arrives as UTF-8 byte chunks. Before the window, whole chunks are skipped with
`bytes.count`; inside it, each line keeps at most the bytes its first `LINE_CHARS` characters
can span; after it, the scan only counts newlines. Memory is therefore bounded by the chunk
size, the window and the line cap, never by the file or by one long line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from mmap import mmap

import numpy as np

from tether.views import ReadFileLine

__all__ = ["LINE_CHARS", "TRUNCATION_SUFFIX", "Window", "scan_window"]

LINE_CHARS = 2000
"""Characters kept of one line."""

TRUNCATION_SUFFIX = f"... (line truncated to {LINE_CHARS} chars)"

# A character spans at most 4 UTF-8 bytes (an invalid sequence becomes one U+FFFD per byte or
# more), so the first LINE_CHARS characters lie in the first 4 * LINE_CHARS bytes. Four more
# bytes let the decoder judge the last of them exactly as it would with the whole line.
_KEEP = 4 * LINE_CHARS + 4

Chunk = bytes | bytearray | mmap


@dataclass(frozen=True)
class Window:
    """The lines returned, the exact line count of the file, and whether the byte cap cut it."""

    lines: tuple[ReadFileLine, ...]
    total_lines: int
    capped: bool


def scan_window(chunks: Iterable[Chunk], offset: int, limit: int, byte_cap: int) -> Window:
    """Scan UTF-8 chunks once: lines `offset` to `offset + limit - 1` within `byte_cap` bytes."""
    scan = _Scan(offset, offset + limit, byte_cap)
    last = -1
    for chunk in chunks:
        end = len(chunk)
        if end:
            last = chunk[end - 1]
            scan.feed(chunk, end)
    unterminated = last not in (-1, 0x0A)
    total = scan.newlines + unterminated
    if unterminated and scan.collecting():
        scan.finish_line()
    return Window(tuple(scan.lines), total, scan.capped)


class _Scan:
    """The scan's state: newlines seen (the current line is `newlines + 1`) and the window."""

    def __init__(self, offset: int, stop: int, byte_cap: int) -> None:
        self.offset = offset
        self.stop = stop
        self.byte_cap = byte_cap
        self.newlines = 0
        self.lines: list[ReadFileLine] = []
        self.used = 0
        self.capped = False
        self.head = bytearray()
        self.overflow = False
        self.count = _NewlineCounter()

    def collecting(self) -> bool:
        """Whether the current line belongs to the window."""
        return self.offset <= self.newlines + 1 < self.stop and not self.capped

    def feed(self, chunk: Chunk, end: int) -> None:
        """Consume one chunk."""
        pos = 0
        while pos < end:
            if self.newlines + 1 < self.offset:
                pos = self._skip(chunk, pos, end)
            elif self.collecting():
                pos = self._collect(chunk, pos, end)
            else:
                self.newlines += self.count(chunk, pos, end)
                pos = end

    def _skip(self, chunk: Chunk, pos: int, end: int) -> int:
        need = self.offset - 1 - self.newlines
        found = self.count(chunk, pos, end)
        if found < need:
            self.newlines += found
            return end
        for _ in range(need):
            pos = chunk.find(b"\n", pos, end) + 1
        self.newlines += need
        return pos

    def _collect(self, chunk: Chunk, pos: int, end: int) -> int:
        newline = chunk.find(b"\n", pos, end)
        stop = end if newline < 0 else newline
        room = _KEEP - len(self.head)
        if stop - pos > room:
            self.overflow = True
            stop = pos + room
        self.head += chunk[pos:stop]
        if newline < 0:
            return end
        self.finish_line()
        return newline + 1

    def finish_line(self) -> None:
        """Close the current line: keep it if it fits under the byte cap, else stop the window."""
        text = _line_text(self.head, self.overflow)
        self.head.clear()
        self.overflow = False
        number = self.newlines + 1
        self.newlines += 1
        size = len(text.encode()) + (1 if self.lines else 0)
        if self.used + size > self.byte_cap:
            self.capped = True
            return
        self.used += size
        self.lines.append(ReadFileLine(number=number, text=text))


class _NewlineCounter:
    """Counts newlines in a chunk range, reusing one scratch array for the whole scan."""

    def __init__(self) -> None:
        self._flags = np.empty(0, dtype=np.bool_)

    def __call__(self, chunk: Chunk, pos: int, end: int) -> int:
        # `find` is memchr and skips newline-free stretches fastest; numpy's vectorized compare
        # counts several times faster than `bytes.count`, which keeps huge files near `wc -l`.
        # The scratch array is reused because a fresh multi-megabyte temporary per chunk costs
        # page faults that rival the count itself.
        if chunk.find(b"\n", pos, end) < 0:
            return 0
        size = end - pos
        if len(self._flags) < size:
            self._flags = np.empty(size, dtype=np.bool_)
        flags = self._flags[:size]
        np.equal(np.frombuffer(chunk, np.uint8, size, pos), _NEWLINE, out=flags)
        return int(np.count_nonzero(flags))


_NEWLINE = ord("\n")


def _line_text(head: bytearray, overflow: bool) -> str:
    raw = head[:-1] if not overflow and head.endswith(b"\r") else head
    text = raw.decode("utf-8", "replace")
    if overflow or len(text) > LINE_CHARS:
        return text[:LINE_CHARS] + TRUNCATION_SUFFIX
    return text
