"""Bounded capture of a command's output: decoded, ANSI-stripped for the model, head and tail kept.

A command may print far more than anyone can read or store (a 50 MB log). Only the first and
last characters are kept, and how many were dropped between them is counted, so memory stays
bounded however long the command runs.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from dataclasses import dataclass

from tether.lazy import pattern

__all__ = [
    "CARD_HEAD_CHARS",
    "CARD_TAIL_CHARS",
    "MODEL_HEAD_CHARS",
    "MODEL_TAIL_CHARS",
    "AnsiStripper",
    "Clipped",
    "HeadTail",
    "OutputCapture",
    "cut_marker",
    "strip_ansi",
]

CARD_HEAD_CHARS = 128 * 1024
CARD_TAIL_CHARS = 128 * 1024
"""The card keeps up to 256 Ki characters of raw output (ANSI kept)."""

MODEL_HEAD_CHARS = 15_000
MODEL_TAIL_CHARS = 15_000
"""The model's text is cut to 30,000 characters at render time; this is what it is cut from."""

_ANSI = pattern(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor movement, erasing
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC: titles, hyperlinks
    r"|\x1b[PX^_][^\x1b]*\x1b\\"  # DCS, SOS, PM, APC strings
    r"|\x1b[()#%*+][0-~]"  # character set selection
    r"|\x1b[ -/]*[0-~]"  # other two-character escapes (ESC =, ESC 7, ...)
)

_UNFINISHED = pattern(
    r"\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*\x1b?|[PX^_][^\x1b]*\x1b?|[()#%*+]|[ -/]+)?\Z"
)
"""The start of an escape sequence that the next read may complete."""

_CARRY_LIMIT = 4096
"""An unfinished sequence longer than this is not one; it is passed through as text."""


def strip_ansi(text: str) -> str:
    """`text` without terminal escape sequences."""
    return _ANSI.sub("", text)


def cut_marker(dropped: int) -> str:
    """The line that stands where `dropped` characters were cut out."""
    return f"\n... [{dropped} characters truncated] ...\n"


@dataclass(frozen=True)
class Clipped:
    """The kept head and tail of a text, and its full length."""

    head: str
    tail: str
    total: int

    @property
    def dropped(self) -> int:
        """How many characters were cut from between head and tail."""
        return self.total - len(self.head) - len(self.tail)

    def text(self) -> str:
        """Head and tail joined, with the cut stated between them when there was one."""
        if self.dropped == 0:
            return self.head + self.tail
        return self.head + cut_marker(self.dropped) + self.tail

    def fit(self, limit: int) -> Clipped:
        """The same text with at most `limit` characters kept, split evenly between the ends."""
        if len(self.head) + len(self.tail) <= limit:
            return self
        whole = self.head + self.tail if self.dropped == 0 else None
        head_n = limit // 2
        tail_n = limit - head_n
        if whole is not None:
            return Clipped(whole[:head_n], whole[len(whole) - tail_n :], self.total)
        head = self.head[:head_n]
        tail = self.tail[len(self.tail) - tail_n :] if tail_n else ""
        # One end may be shorter than its share; give the other end the rest.
        if len(head) < head_n:
            spare = head_n - len(head)
            tail = self.tail[len(self.tail) - min(len(self.tail), tail_n + spare) :]
        elif len(tail) < tail_n:
            head = self.head[: head_n + tail_n - len(tail)]
        return Clipped(head, tail, self.total)


class HeadTail:
    """Text fed in pieces: the first `head_limit` and last `tail_limit` characters are kept."""

    def __init__(self, head_limit: int, tail_limit: int) -> None:
        self._head_limit = head_limit
        self._tail_limit = tail_limit
        self._head: list[str] = []
        self._head_len = 0
        self._tail = ""
        self.total = 0

    def feed(self, text: str) -> None:
        """Add text at the end."""
        self.total += len(text)
        room = self._head_limit - self._head_len
        if room > 0:
            taken = text[:room]
            self._head.append(taken)
            self._head_len += len(taken)
            text = text[room:]
        if not text:
            return
        self._tail += text
        # Trim only once the tail is twice its limit, so each character is copied O(1) times.
        if len(self._tail) > 2 * self._tail_limit:
            self._tail = self._tail[len(self._tail) - self._tail_limit :]

    def snapshot(self) -> Clipped:
        """What is kept so far."""
        tail = self._tail
        if len(tail) > self._tail_limit:
            tail = tail[len(tail) - self._tail_limit :]
        return Clipped("".join(self._head), tail, self.total)


class AnsiStripper:
    """Strips escape sequences from a stream, holding back one that a read split in two."""

    def __init__(self) -> None:
        self._carry = ""

    def feed(self, text: str) -> str:
        """The stripped text that is safe to emit now."""
        text = self._carry + text
        self._carry = ""
        window_start = max(0, len(text) - _CARRY_LIMIT)
        unfinished = _UNFINISHED.search(text, window_start)
        if unfinished is not None:
            self._carry = text[unfinished.start() :]
            text = text[: unfinished.start()]
        return strip_ansi(text)

    def flush(self) -> str:
        """Whatever was held back, at the end of the stream."""
        text, self._carry = self._carry, ""
        return strip_ansi(text)


class OutputCapture:
    """Raw bytes in; a bounded raw view for the card and a stripped one for the model out."""

    def __init__(
        self,
        card_limits: tuple[int, int] = (CARD_HEAD_CHARS, CARD_TAIL_CHARS),
        model_limits: tuple[int, int] = (MODEL_HEAD_CHARS, MODEL_TAIL_CHARS),
        listener: Callable[[str], None] | None = None,
    ) -> None:
        # An incremental decoder keeps a multi-byte character split across reads whole.
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._stripper = AnsiStripper()
        self._card = HeadTail(*card_limits)
        self._model = HeadTail(*model_limits)
        self.version = 0
        """Bumped on every change, so a reporter can tell whether there is anything new."""
        self._listener = listener
        """Hears the stripped text as it comes (a background job's reads since the last)."""

    def listen(self, listener: Callable[[str], None] | None) -> None:
        """Have `listener` hear the stripped text from now on (instead of the one before)."""
        self._listener = listener

    def feed(self, data: bytes) -> None:
        """Add bytes read from the command."""
        self._add(self._decoder.decode(data))

    def close(self) -> None:
        """Flush a trailing partial character and a held-back escape sequence."""
        self._add(self._decoder.decode(b"", final=True))
        tail = self._stripper.flush()
        if tail:
            self._model.feed(tail)
            if self._listener is not None:
                self._listener(tail)
            self.version += 1

    def _add(self, text: str) -> None:
        if not text:
            return
        self._card.feed(text)
        stripped = self._stripper.feed(text)
        self._model.feed(stripped)
        if self._listener is not None and stripped:
            self._listener(stripped)
        self.version += 1

    def card(self) -> Clipped:
        """The raw output kept for people (escape sequences intact)."""
        return self._card.snapshot()

    def model(self) -> Clipped:
        """The stripped output kept for the model."""
        return self._model.snapshot()

    def recent(self, limit: int) -> str:
        """About the last `limit` characters of the raw output, from a line start, for live views.

        A running command is shown by its tail: resending all of it on every update would
        cost the square of its size on the wire. What is left out is stated on the first line.
        """
        kept = self._card.snapshot()
        if len(kept.tail) >= limit:
            text = kept.tail[len(kept.tail) - limit :]
        else:
            joined = kept.head + kept.tail
            text = joined[len(joined) - limit :]
        earlier = kept.total - len(text)
        if earlier == 0:
            return text
        newline = text.find("\n")
        if 0 <= newline < len(text) - 1:
            earlier += newline + 1
            text = text[newline + 1 :]
        return f"... [{earlier} earlier characters not shown while it runs] ...\n{text}"
