"""The model's text in the terminal: streamed chunks cut into whole Markdown blocks.

A block is printed once it is complete (a blank line followed by a line that does not
continue it), so Markdown is rendered, not shown raw, and the output does not depend on how
the text was chunked: `tether show` prints exactly what `tether run` printed.
"""

from __future__ import annotations

import re

__all__ = ["AgentTextBuffer"]

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_LINE_END = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
"""Where `str.splitlines` ends a line: whole-text and streamed reading cut alike."""
_TAIL_WIDTH = 400
"""Characters of each line the live tail keeps: more than any status line shows."""
_TAIL_KEPT = 16
"""Line starts kept for the live tail: more lines than it shows."""


class AgentTextBuffer:
    """Collects streamed text and hands back the blocks that are complete.

    Each chunk costs what it adds, not what is already waiting: the lines already read are
    not read again (the scan's state is kept), so a reply of many chunks in one long block is
    still read once.
    """

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self._text = ""
        self._scanned = 0
        """Where the first line not yet read whole starts."""
        self._searched = 0
        """Up to where line ends were looked for (a long line is not searched again)."""
        self._fence: str | None = None
        """The fence open at `_scanned`, as `_boundaries` keeps it."""
        self._blank = False
        """Whether the line before `_scanned` was blank (outside a fence)."""
        self._cut = 0
        """The last boundary among the lines read whole."""
        self._starts: list[int] = []
        """Where the last lines read whole start (for the live tail)."""
        self._filled = False
        """Whether the waiting text has more than white space."""
        self._quiet = False
        """Whether a chunk with no line end would complete nothing (`feed`'s shortcut)."""

    @property
    def pending(self) -> bool:
        """Whether some text waits for the rest of its block."""
        return self._filled

    @property
    def pending_text(self) -> str:
        """The text that waits for the rest of its block (shown live, raw, until it is whole)."""
        return self._text.strip("\n")

    def pending_tail(self, lines: int, width: int = _TAIL_WIDTH) -> str:
        """The last `lines` lines of the waiting text, each cut to `width` characters.

        What the live line shows of a block still streaming: the end of `pending_text`, at a
        cost that does not grow with the text already waiting.
        """
        text = self._text
        end, lead = len(text), 0
        while end > 0 and text[end - 1] == "\n":
            end -= 1
        while lead < end and text[lead] == "\n":
            lead += 1
        starts = [lead, *(s for s in [*self._starts, self._scanned] if lead < s < end)][-lines:]
        shown = []
        for number, begin in enumerate(starts):
            stop = starts[number + 1] if number + 1 < len(starts) else end
            shown.append(text[begin : min(stop, begin + width)].rstrip("\r\n"))
        return "\n".join(shown)

    def feed(self, chunk: str) -> list[str]:
        """Add a chunk; return the blocks it completed, in order."""
        text, self._text = self._text, ""
        text += chunk  # grown in place: the buffer holds the only other reference, cleared
        self._text = text
        if self._quiet and _LINE_END.search(chunk) is None:
            # More of a line already begun, after a chunk that completed nothing: no line
            # ends, and the line's first character (all that could cut before it) is known.
            self._searched = len(text)
            self._filled = self._filled or bool(chunk.strip())
            return []
        self._filled = self._filled or bool(chunk.strip())
        self._scan()
        cut = self._tentative() or self._cut
        if cut == 0:
            # Later chunks with no line end only lengthen the line, once it has begun (and
            # no `\r` waits for a `\n`).
            self._quiet = self._scanned < len(text) and not text.endswith("\r")
            return []
        self._quiet = False
        done, self._text = self._text[:cut], self._text[cut:]
        self._scanned -= cut
        self._searched -= cut
        self._cut = 0
        self._starts = [s - cut for s in self._starts if s >= cut]
        self._filled = bool(self._text.strip())
        return _blocks(done)

    def flush(self) -> list[str]:
        """Everything left, as blocks (the message ended, or the prompt was cancelled)."""
        done = self._text
        self._reset()
        return _blocks(done)

    def _scan(self) -> None:
        """Read the lines that are now whole, as `_boundaries` reads them."""
        text = self._text
        for match in _LINE_END.finditer(text, max(self._scanned, self._searched)):
            if match.end() == len(text) and match.group() == "\r":
                break  # a `\r\n` may be arriving in two chunks
            offset, line = self._scanned, text[self._scanned : match.start()]
            self._scanned = match.end()
            self._starts = [*self._starts[-_TAIL_KEPT:], offset]
            self._fence, self._blank, cut = _step(self._fence, self._blank, offset, line)
            if cut is not None:
                self._cut = cut
        # Searched up to the end, but for a last `\r` that a `\n` may yet join.
        self._searched = len(text) - text.endswith("\r")

    def _tentative(self) -> int | None:
        """A boundary at the line still arriving: its first character says it is one."""
        line = self._text[self._scanned : self._scanned + 1]
        if not line:
            return None
        return _step(self._fence, self._blank, self._scanned, line)[2]


def _step(
    fence: str | None, blank: bool, offset: int, line: str
) -> tuple[str | None, bool, int | None]:
    """One line of `_boundaries`: the fence and blank state after it, and a cut before it."""
    opened = _FENCE.match(line)
    if fence is not None:
        if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
            fence = None
        return fence, blank, None
    if not line.strip():
        return fence, True, None
    # An indented line after a blank one continues a list item or a code block.
    cut = offset if blank and offset > 0 and not line[:1].isspace() else None
    return (opened.group(1) if opened else None), False, cut


def _lines(text: str) -> list[tuple[int, str]]:
    """(offset, line) for each line of `text`, the newline excluded."""
    out, start = [], 0
    for line in text.splitlines(keepends=True):
        out.append((start, line.rstrip("\r\n")))
        start += len(line)
    return out


def _boundaries(text: str) -> list[int]:
    """Offsets where a new top-level block starts: after a blank line, outside a fence."""
    cuts: list[int] = []
    fence: str | None = None
    blank = False
    for offset, line in _lines(text):
        fence, blank, cut = _step(fence, blank, offset, line)
        if cut is not None:
            cuts.append(offset)
    return cuts


def _blocks(text: str) -> list[str]:
    if _LINE_END.search(text) is None:
        # One line (most replies before a call): one block, with no boundary to look for.
        return [text] if text.strip() else []
    return _cut_blocks(text)


def _cut_blocks(text: str) -> list[str]:
    pieces, start = [], 0
    for cut in [*_boundaries(text), len(text)]:
        piece = text[start:cut].strip("\n")
        if piece.strip():
            pieces.append(piece)
        start = cut
    return pieces
