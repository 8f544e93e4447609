"""The model's text in the terminal: streamed chunks cut into whole Markdown blocks.

A block is printed once it is complete (a blank line followed by a line that does not
continue it), so Markdown is rendered, not shown raw, and the output does not depend on how
the text was chunked: `tether show` prints exactly what `tether run` printed.
"""

from __future__ import annotations

import re

from tether.render.markdown import markdown

__all__ = ["AgentTextBuffer", "markdown"]

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


class AgentTextBuffer:
    """Collects streamed text and hands back the blocks that are complete."""

    def __init__(self) -> None:
        self._text = ""

    @property
    def pending(self) -> bool:
        """Whether some text waits for the rest of its block."""
        return bool(self._text.strip())

    @property
    def pending_text(self) -> str:
        """The text that waits for the rest of its block (shown live, raw, until it is whole)."""
        return self._text.strip("\n")

    def feed(self, chunk: str) -> list[str]:
        """Add a chunk; return the blocks it completed, in order."""
        self._text += chunk
        cut = _last_boundary(self._text)
        if cut == 0:
            return []
        done, self._text = self._text[:cut], self._text[cut:]
        return _blocks(done)

    def flush(self) -> list[str]:
        """Everything left, as blocks (the message ended, or the prompt was cancelled)."""
        done, self._text = self._text, ""
        return _blocks(done)


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
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            continue
        if not line.strip():
            blank = True
            continue
        # An indented line after a blank one continues a list item or a code block.
        if blank and offset > 0 and not line[:1].isspace():
            cuts.append(offset)
        blank = False
        if opened:
            fence = opened.group(1)
    return cuts


def _last_boundary(text: str) -> int:
    # A cut is safe once the first character after it has arrived: the line is then known
    # not to be indented, so it cannot continue the block before it.
    cuts = _boundaries(text)
    return cuts[-1] if cuts else 0


def _blocks(text: str) -> list[str]:
    pieces, start = [], 0
    for cut in [*_boundaries(text), len(text)]:
        piece = text[start:cut].strip("\n")
        if piece.strip():
            pieces.append(piece)
        start = cut
    return pieces
