"""A paragraph's text as rich's Markdown shows it without colour, read without markdown-it.

Without colour, rich's Markdown of a paragraph is its plain text wrapped: the words, each code
span's code, a space for each line break (a new line for a hard one), and every mark that
markdown-it read as emphasis left out. markdown-it makes an object for every word and mark of
it (and rich another for each), which was most of what a long reply cost to show. A paragraph
whose only marks are code spans and `*` emphasis is read here in one pass, by CommonMark's
own rules for those (the delimiter runs' flanking, its algorithm for matching them, the rule
of three), into the same text; one holding anything else (escapes, links, images, HTML,
entities, `_` emphasis, strikethrough) is left to markdown-it.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Iterator

__all__ = ["plain_inline"]

_OUTSIDE = re.compile(r"[\\\[\]!<&_~\t\x07\x08\x0b\x0c\r]")
"""What this reading leaves to markdown-it: escapes, links and images, HTML and autolinks,
entities, `_` emphasis, strikethrough; and tabs and the control codes rich's text drops
(markdown-it reads them as white space beside a mark, rich's wrapping as none)."""
_MARK = re.compile(r"[`*\n]")
_FLUSH = 4096
"""Characters of finished text handed on at once."""


def plain_inline(source: str) -> Iterator[str] | None:
    """The plain text rich's Markdown shows of a paragraph whose text is `source` (as
    markdown-it's paragraph holds it: trimmed), in pieces; None if it holds a mark this
    reading leaves to markdown-it."""
    if _OUTSIDE.search(source):
        return None
    return _read(source)


class _Run:
    """A run of `*` that may open or close emphasis: what is left of it is text."""

    __slots__ = ("can_close", "can_open", "left", "length")

    def __init__(self, length: int, can_open: bool, can_close: bool) -> None:
        self.length = length
        self.left = length
        self.can_open = can_open
        self.can_close = can_close

    def __str__(self) -> str:
        return "*" * self.left


def _read(source: str) -> Iterator[str]:
    """The text, handed on a piece at a time where no run is left open that a later one
    could close."""
    pieces: list[str | _Run] = []
    size = 0
    pending = 0
    """Where the text since the last mark starts in `pieces` (a line break trims its end)."""
    openers: list[_Run] = []
    bottoms: dict[tuple[bool, int], int] = {}
    """For a closer that can (not) open with a length of 0, 1 or 2 mod 3: the openers below
    this height are known not to match it."""
    unmatched: dict[int, int] = {}
    """Backtick runs by length that are known to have no closer after where they were sought."""
    position, end = 0, len(source)
    while position < end:
        found = _MARK.search(source, position)
        start = end if found is None else found.start()
        if start > position:
            pieces.append(source[position:start])
            size += start - position
        if found is None:
            break
        mark = source[start]
        if mark == "\n":
            text = "".join(pieces[pending:])  # type: ignore[arg-type]  # text alone since a mark
            if text.endswith("  "):
                pieces[pending:] = [text.rstrip(" "), "\n"]  # a hard break
            else:
                pieces[pending:] = [text[:-1] if text.endswith(" ") else text, " "]
            position = start + 1
            while position < end and source[position] == " ":
                position += 1  # markdown-it drops the next line's indent
            pending = len(pieces)
        elif mark == "`":
            position = _code_span(source, start, pieces, unmatched)
            if isinstance(pieces[-1], _CodeText):
                pending = len(pieces)
            size += position - start
        else:
            position = _emphasis(source, start, pieces, openers, bottoms)
            pending = len(pieces)
            size += position - start
        if not openers and size >= _FLUSH:
            yield "".join(map(str, pieces))
            pieces, size, pending = [], 0, 0
    yield "".join(map(str, pieces))


class _CodeText(str):
    """A code span's code (a mark: a line break after it trims nothing of it)."""

    __slots__ = ()


def _code_span(source: str, start: int, pieces: list[str | _Run], unmatched: dict[int, int]) -> int:
    """Read the backtick run at `start`: a code span's code if a run of the same length
    closes it, else the backticks as text. Where reading goes on."""
    opened = start
    while opened < len(source) and source[opened] == "`":
        opened += 1
    length = opened - start
    if unmatched.get(length, len(source)) > opened:
        closer = re.compile(rf"(?<!`)`{{{length}}}(?!`)").search(source, opened)
        if closer is not None:
            code = source[opened : closer.start()].replace("\n", " ")
            if code.startswith(" ") and code.endswith(" ") and code.strip(" "):
                code = code[1:-1]
            pieces.append(_CodeText(code))
            return closer.end()
        unmatched[length] = opened
    pieces.append(source[start:opened])
    return opened


def _emphasis(
    source: str,
    start: int,
    pieces: list[str | _Run],
    openers: list[_Run],
    bottoms: dict[tuple[bool, int], int],
) -> int:
    """Read the `*` run at `start`: matched with the openers before it as CommonMark's
    algorithm matches (what each match uses of both is no longer text). Where reading goes on."""
    stop = start
    while stop < len(source) and source[stop] == "*":
        stop += 1
    before = _kind(source[start - 1]) if start else _WHITE
    after = _kind(source[stop]) if stop < len(source) else _WHITE
    # Left-flanking: not before white space, and not before punctuation unless after white
    # space or punctuation; right-flanking the same the other way round.
    left = after != _WHITE and (after != _PUNCTUATION or before != _OTHER)
    right = before != _WHITE and (before != _PUNCTUATION or after != _OTHER)
    run = _Run(stop - start, can_open=left, can_close=right)
    pieces.append(run)
    if run.can_close:
        key = (run.can_open, run.length % 3)
        while run.left:
            index = len(openers) - 1
            floor = bottoms.get(key, 0)
            while index >= floor and not _pair(openers[index], run):
                index -= 1
            if index < floor:
                bottoms[key] = len(openers)
                break
            opener = openers[index]
            used = 2 if opener.left >= 2 and run.left >= 2 else 1
            opener.left -= used
            run.left -= used
            del openers[index + (opener.left > 0) :]  # and every opener between them
            for kept, height in bottoms.items():
                bottoms[kept] = min(height, len(openers))
    if run.can_open and run.left:
        openers.append(run)
    return stop


def _pair(opener: _Run, closer: _Run) -> bool:
    """Whether `closer` may close `opener` (CommonMark's rule of three)."""
    if opener.can_close or closer.can_open:
        total = opener.length + closer.length
        return total % 3 != 0 or (opener.length % 3 == 0 and closer.length % 3 == 0)
    return True


_OTHER, _WHITE, _PUNCTUATION = 0, 1, 2


def _kind(character: str) -> int:
    """CommonMark's class of a character beside a delimiter run: Unicode whitespace (Zs, or
    tab, line feed, vertical tab, form feed, carriage return: markdown-it's set), punctuation
    (ASCII punctuation, or a Unicode P or S character), or neither."""
    kind = _ASCII_KINDS.get(character)
    if kind is None:
        category = unicodedata.category(character)
        kind = _WHITE if category == "Zs" else _PUNCTUATION if category[0] in "PS" else _OTHER
    return kind


_ASCII_KINDS = {
    chr(code): _WHITE
    if chr(code) in " \t\n\x0b\x0c\r"
    else _PUNCTUATION
    if chr(code) in string.punctuation
    else _OTHER
    for code in range(128)
}
