"""A long paragraph of the model's text, drawn as rich's Markdown draws it, a piece at a time.

rich parses a Markdown block whole (markdown-it keeps a token for every word and mark) and
lays its paragraph out as one text, every line of it held until the last is drawn: a reply
streamed as one paragraph of 100,000 chunks cost ten times the log's size. A paragraph is one
line of words wrapped greedily, so the lines it gives up to a word where a line starts do not
depend on what follows; and markdown-it reads a paragraph's lines into the same marks when
they are read in groups, as long as nothing is left open where a group ends. So the
paragraph's source is read a group of lines at a time (rich builds each group's text itself,
from its own tokens), and the lines laid out before the last line start are written and let
go. What could read differently in groups (tabs, images, a mark left open at a group's end,
a hard break or indent where it is cut) keeps lines together, and anything that is not one
paragraph is drawn by rich whole.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from rich._wrap import divide_line
from rich.cells import cell_len, set_cell_size
from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from tether.render.written import Streamed

if TYPE_CHECKING:
    from markdown_it.token import Token
    from rich.markdown import Markdown

__all__ = ["LONG", "LongParagraph"]

LONG = 64 * 1024
"""A block of at least this many characters is drawn a piece at a time when it can be."""
_GROUP = 4 * 1024
"""Characters of source read at once."""
_GROUP_MOST = 32 * 1024
"""A group that finds no place to end by this size takes the rest of the paragraph."""
_WINDOW = 8 * 1024
"""Characters laid out at once (what is held of the paragraph's text while it is drawn)."""
_OPENERS = frozenset("*_~`[<")
"""Characters that, left as text, may be a mark markdown-it would close in a later line."""
_WORD = re.compile(r"\s*\S+\s*")
"""A word and the white space after it, as rich's wrapping reads words."""


class LongParagraph(Streamed):
    """A block of the model's text drawn a piece at a time when it is one paragraph (rich's
    Markdown of it whole otherwise, and wherever it is drawn by rich)."""

    def __init__(
        self, block: str, *, group: int = _GROUP, most: int = _GROUP_MOST, window: int = _WINDOW
    ) -> None:
        self.block = block
        self._sizes = (group, most, window)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """rich's Markdown of the whole block."""
        from tether.render.markdown_parser import markdown

        yield markdown(self.block)

    def pieces(self, console: Console, options: ConsoleOptions) -> Iterator[list[Segment]] | None:
        """The block's lines in pieces, as `Console.print` writes them; None if it is not one
        paragraph that reads the same in groups of lines."""
        if "\t" in self.block or "![" in self.block:
            return None  # tabs stop at columns counted from the paragraph's start; images
            # are drawn before the paragraph they are in
        prose = _prose(self.block)
        if prose is not None and console.color_system is None:
            # No style is written: the plain text is enough, read without markdown-it.
            from tether.render.plain_inline import plain_inline

            read = plain_inline(prose)
            if read is not None:
                return self._plain_pieces(console, options, read)
        env: dict[str, Any] = {}
        tokens = _paragraph(self.block, env)
        if tokens is None:
            return None
        return self._pieces(console, options, tokens, env)

    def _plain_pieces(
        self, console: Console, options: ConsoleOptions, read: Iterator[str]
    ) -> Iterator[list[Segment]]:
        """The lines of the paragraph's plain text, laid out a window at a time."""
        window = self._sizes[2]
        width = options.max_width
        text_options = options.update(height=None)
        direct = width <= console.width  # nothing for `Console.print` to crop
        pending = ""
        for text in read:
            pending += text
            if len(pending) < window:
                continue
            if direct and "\n" not in pending:
                written, pending = _laid_out(pending, width, whole=False)
                if written:
                    yield [Segment(written)]
                continue
            cut = _last_line_start(pending, width)  # a hard break: rich lays the lines out
            if cut:
                yield _drawn(console, text_options, Text(pending[:cut], justify="left"))
                pending = pending[cut:]
        if direct and "\n" not in pending:
            yield [Segment(_laid_out(pending, width, whole=True)[0])]
        else:
            yield _drawn(console, text_options, Text(pending, justify="left"))

    def _pieces(
        self, console: Console, options: ConsoleOptions, tokens: list[Token], env: dict[str, Any]
    ) -> Iterator[list[Segment]]:
        group, most, window = self._sizes
        width = options.max_width
        text_options = options.update(height=None)  # as rich's Markdown renders its elements
        pending = Text(justify="left")
        for number, read in enumerate(_groups(tokens[1].content, group, most, env)):
            shown, level = _text_of(console, text_options, tokens, read)
            if number:
                pending.append(" ", level)  # the line break between them, as rich reads it
            pending.append(shown)
            if len(pending) < window:
                continue
            cut = _last_line_start(pending.plain, width)
            if cut:
                head, pending = pending.divide([cut])
                yield _drawn(console, text_options, head)
        yield _drawn(console, text_options, pending)


def _paragraph(block: str, env: dict[str, Any]) -> list[Token] | None:
    """markdown-it's block tokens of `block` (its references kept in `env`) when they are one
    paragraph, None when they are not: where no line can start anything but a paragraph's
    text, that paragraph is made without the block parser (which tries every rule at every
    line: a fifth of drawing a long reply)."""
    from tether.render.markdown_parser import block_parser

    content = _prose(block)
    if content is None:
        tokens = block_parser().parse(block, env)
        if [token.type for token in tokens] != ["paragraph_open", "inline", "paragraph_close"]:
            return None
        return tokens
    opened, inline, closed = block_parser().parse("x")
    inline.content = content
    return [opened, inline, closed]


def _prose(block: str) -> str | None:
    """The text of the one paragraph markdown-it reads `block` as, where no line of it can
    start anything else; None where that is not sure."""
    content = block.rstrip(" ")  # markdown-it trims the paragraph's text
    if _MAY_NOT_BE_PROSE.search(block) or block[0].isspace() or content[-1:].isspace():
        return None
    return content


_MAY_NOT_BE_PROSE = re.compile(r"[\r\0]|^[ \t]*(?:[-#>*+=_|:~`<\[0-9]|$)", re.MULTILINE)
"""What could make markdown-it read a block as more than a paragraph: a line that is blank or
starts (after any indent) with a mark of a heading, quote, list, rule, fence, table, HTML,
reference or setext underline; or a character it rewrites first (a carriage return, NUL)."""


def _drawn(console: Console, options: ConsoleOptions, text: Text) -> list[Segment]:
    """The text's lines as `Console.print` writes them (cut to the console's width)."""
    segments = console.render(text, options)
    return [
        segment
        for line in Segment.split_and_crop_lines(segments, console.width, pad=False)
        for segment in line
    ]


def _last_line_start(plain: str, width: int) -> int:
    """Where the last line of `plain` wrapped at `width` starts, when that is at a word (0
    when it is not: the text is kept to be laid out with what follows)."""
    line_start = plain.rfind("\n") + 1
    line = plain[line_start:]
    start = _sure_start(line, width, divide_line(line, width, fold=True))
    return line_start + start if start else 0


def _sure_start(line: str, width: int, breaks: list[int]) -> int:
    """The last of a line's `breaks` (where rich wraps it at `width`) that starts a line
    whatever follows, or 0."""
    first = len(line) - len(line.lstrip())  # rich's first word holds the white space before it
    for offset in reversed(breaks):
        # Only a break before a whole word that fits on a line is sure: a word folded
        # across lines is folded differently where it starts the text.
        word = _WORD.match(line, offset)
        fits = word is not None and cell_len(word.group().rstrip()) <= width
        if offset > first and line[offset - 1].isspace() and fits:
            return offset
    return 0


def _laid_out(line: str, width: int, *, whole: bool) -> tuple[str, str]:
    """A line of plain text (no line break in it) as rich lays a left-justified text of it
    out at `width` and `Console.print` writes it, up to its last sure line start (all of it if
    `whole`); and the rest. Each line is what rich makes of its piece: white space past the
    width cut (by its count of characters), then cut or padded to the width in cells."""
    single = line.isascii() and line.isprintable()  # a cell a character
    breaks = _single_cell_breaks(line, width) if single else divide_line(line, width, fold=True)
    end = len(line) if whole else _sure_start(line, width, breaks)
    if not end:
        return "", line
    starts = [0, *(offset for offset in breaks if offset < end)]
    written = []
    for start, stop in zip(starts, [*starts[1:], end], strict=True):
        piece = line[start:stop]
        if len(piece) > width:
            piece = piece[: len(piece) - min(len(piece) - len(piece.rstrip()), len(piece) - width)]
        cells = len(piece) if single else cell_len(piece)
        if cells > width:
            piece = set_cell_size(piece, width)
        written.append(f"{piece}{' ' * (width - cells)}\n")
    return "".join(written), line[end:]


def _single_cell_breaks(line: str, width: int) -> list[int]:
    """rich's `divide_line(line, width, fold=True)` for a line whose every character is one
    cell (printable ASCII): where each wrapped line after the first starts."""
    breaks: list[int] = []
    used = 0  # cells of the line being filled
    for word in _WORD.finditer(line):
        start, text = word.start(), word.group()
        length = len(text.rstrip())
        if width - used >= length:
            used += len(text)
        elif length > width:  # folded: a line of `width` characters at a time
            for fold in range(0, len(text), width):
                if start + fold:
                    breaks.append(start + fold)
                used = len(text) - fold
        elif used and start:
            breaks.append(start)
            used = len(text)
    return breaks


def _groups(source: str, size: int, most: int, env: dict[str, Any]) -> Iterator[list[Token]]:
    """The paragraph's source read in groups of whole lines, each of which markdown-it reads
    as it reads those lines in the whole paragraph: each group's tokens."""
    from tether.render.markdown_parser import inline_parser

    parse = inline_parser().parseInline
    lines = source.split("\n")
    start = 0
    while start < len(lines):
        end, taken, goal = start, 0, size
        read: list[Token] | None = None
        while end < len(lines):
            taken += len(lines[end]) + 1
            end += 1
            if end == len(lines) or taken < goal:
                continue
            if taken >= most:
                end = len(lines)  # no place to end found: the rest reads as one
                break
            if _may_end(lines[end - 1], lines[end]):
                read = parse("\n".join(lines[start:end]), env)
                if _closed(read):
                    break
                read, goal = None, taken + size  # a mark is open: try a group further on
        yield read if read is not None else parse("\n".join(lines[start:end]), env)
        start = end


def _may_end(last: str, following: str) -> bool:
    """Whether a group may end between two lines: no hard break (two spaces, a backslash) at
    the end of the one, no indent at the start of the other (the whole paragraph drops it)."""
    ends_plainly = bool(last) and not last[-1].isspace() and not last.endswith("\\")
    return ends_plainly and not following[:1].isspace()


def _closed(tokens: list[Token]) -> bool:
    """Whether markdown-it closed every mark it found: no text keeps a character that could
    open one that a later line closes."""
    for token in tokens:
        for child in token.children or ():
            if child.type == "text" and not _OPENERS.isdisjoint(child.content):
                return False
    return True


def _text_of(
    console: Console, options: ConsoleOptions, tokens: list[Token], read: list[Token]
) -> tuple[Text, Style]:
    """The text rich's Markdown makes of a group of the paragraph's lines (`read`: their
    tokens), and the paragraph's own style (what a line break between groups is written in)."""
    from tether.render.markdown_parser import template

    shown = copy.copy(template())
    shown.__class__ = _capturing()
    shown.parsed = [tokens[0], *read, tokens[2]]
    for _ in console.render(shown, options):
        raise AssertionError("a part of the paragraph was drawn outside it")
    captured: Any = shown
    return captured.captured_text, captured.captured_style


@cache
def _capturing() -> type[Markdown]:
    """rich's Markdown, but its paragraph keeps its text (and its style) instead of drawing it."""
    from rich.markdown import Markdown, MarkdownContext, MarkdownElement, Paragraph

    class KeptParagraph(Paragraph):
        @classmethod
        def create(cls, markdown: Markdown, token: Token) -> Paragraph:
            made = super().create(markdown, token)
            captured: Any = markdown
            captured.captured_paragraph = made
            return made

        def on_enter(self, context: MarkdownContext) -> None:
            super().on_enter(context)
            self.level = context.current_style

        def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
            return iter(())

    class Capturing(Markdown):
        elements: ClassVar[dict[str, type[MarkdownElement]]] = {
            **Markdown.elements,
            "paragraph_open": KeptParagraph,
        }

        @property
        def captured_text(self) -> Text:
            paragraph: Any = self.__dict__["captured_paragraph"]
            text: Text = paragraph.text
            return text

        @property
        def captured_style(self) -> Style:
            paragraph: Any = self.__dict__["captured_paragraph"]
            style: Style = paragraph.level
            return style

    return Capturing
