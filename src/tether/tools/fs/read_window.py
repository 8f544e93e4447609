"""The bounded-memory scan behind `read`: one pass that keeps the window and counts every line.

The file arrives as UTF-8 byte chunks. Before the window, whole chunks are only counted
(`NewlineCounter`); inside it, each line keeps at most the bytes its first `LINE_CHARS`
characters can span; after it, the scan only counts newlines. Memory is therefore bounded by
the chunk size, the window and the line cap, never by the file or by one long line. A huge
file whose lines were counted beforehand (`read_count`) is scanned from near its window only
(`scan_window_from`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tether.tools.fs.read_count import NewlineCounter
from tether.views import ReadFileLine

__all__ = ["LINE_CHARS", "TRUNCATION_SUFFIX", "Window", "scan_window", "scan_window_from"]

LINE_CHARS = 2000
"""Characters kept of one line."""

TRUNCATION_SUFFIX = f"... (line truncated to {LINE_CHARS} chars)"

# A character spans at most 4 UTF-8 bytes (an invalid sequence becomes one U+FFFD per byte or
# more), so the first LINE_CHARS characters lie in the first 4 * LINE_CHARS bytes. Four more
# bytes let the decoder judge the last of them exactly as it would with the whole line.
_KEEP = 4 * LINE_CHARS + 4

Chunk = bytes | bytearray


@dataclass(frozen=True)
class Window:
    """The lines returned, the exact line count of the file, and whether the byte cap cut it."""

    lines: tuple[ReadFileLine, ...]
    total_lines: int
    capped: bool


def scan_window(chunks: Iterable[Chunk], offset: int, limit: int, byte_cap: int) -> Window:
    """Scan UTF-8 chunks once: lines `offset` to `offset + limit - 1` within `byte_cap` bytes."""
    scan = _Scan(offset, offset + limit, byte_cap)
    unterminated = _run(scan, chunks, stop_after_window=False)
    total = scan.newlines + unterminated
    if unterminated and scan.collecting():
        scan.finish_line()
    return Window(tuple(scan.lines), total, scan.capped)


def scan_window_from(
    chunks: Iterable[Chunk], offset: int, limit: int, byte_cap: int, newlines_before: int
) -> tuple[tuple[ReadFileLine, ...], bool]:
    """The window alone, from chunks that start after `newlines_before` newlines of the file.

    For a file whose lines were already counted: the scan starts near the window and stops
    as soon as the window is complete. Returns the lines and whether the byte cap cut them.
    """
    scan = _Scan(offset, offset + limit, byte_cap)
    scan.newlines = newlines_before
    if _run(scan, chunks, stop_after_window=True) and scan.collecting():
        scan.finish_line()
    return tuple(scan.lines), scan.capped


def _run(scan: _Scan, chunks: Iterable[Chunk], *, stop_after_window: bool) -> bool:
    """Feed the chunks; whether the file ended with a line without a newline (it counts).

    When the scan stops after the window, it never saw the file's end: that is `False`.
    """
    last = -1
    for chunk in chunks:
        end = len(chunk)
        if end:
            last = chunk[end - 1]
            scan.feed(chunk, end)
            if stop_after_window and scan.past_window():
                return False
    return last not in (-1, 0x0A)


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
        self.count = NewlineCounter()

    def collecting(self) -> bool:
        """Whether the current line belongs to the window."""
        return self.offset <= self.newlines + 1 < self.stop and not self.capped

    def past_window(self) -> bool:
        """Whether the window is complete (every line taken, or the byte cap reached)."""
        return self.capped or self.newlines + 1 >= self.stop

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


def _line_text(head: bytearray, overflow: bool) -> str:
    raw = head[:-1] if not overflow and head.endswith(b"\r") else head
    text = raw.decode("utf-8", "replace")
    if overflow or len(text) > LINE_CHARS:
        return text[:LINE_CHARS] + TRUNCATION_SUFFIX
    return text
