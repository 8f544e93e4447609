"""Numbered, highlighted lines of code: the body of the read card and of a notebook's cells."""

from __future__ import annotations

from operator import add
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.segment import Segment
from rich.text import Text

from tether.render.bare_rows import one_cell_each, padded_rows
from tether.render.theme import GUTTER, code_text, printable, token_style

if TYPE_CHECKING:
    from tether.highlight import TokenLine

__all__ = ["CodeRows", "code_rows", "code_view"]


def code_view(
    numbers: list[int], texts: list[str], lang: str | None, width: int | None = None
) -> Group:
    """Numbered, highlighted lines: a dim right-aligned gutter, a rule, then the code.

    Each row is one uncropped gutter (`width` digits, else the widest number's) followed by
    the code, cropped with an ellipsis at the card's edge, so a long line never pushes the
    numbers out of their column.
    """
    if not numbers:
        return Group()
    return Group(code_rows(numbers, texts, lang, width))


def code_rows(
    numbers: list[int], texts: list[str], lang: str | None, width: int | None = None
) -> CodeRows:
    """The rows of `code_view` (at least one number)."""
    width = width or len(str(max(numbers)))
    gutters = [str(number).rjust(width) + " │ " for number in numbers]
    return CodeRows.of_texts(gutters, texts, lang)


class CodeRows:
    """Rows of a gutter and highlighted code: drawn by rich as one text of all the rows (no
    wrapping, an ellipsis at the edge), or line by line by a card when every row fits.

    Made from the lines' texts, the code is highlighted only when colours are drawn: rows
    without colour are the texts themselves (a highlighter's tokens join to their line), so a
    session shown in a pipe loads no lexer.
    """

    def __init__(self, gutters: list[str], lines: list[TokenLine]) -> None:
        self.gutters = gutters
        self._lines: list[TokenLine] | None = lines
        self._texts: list[str] | None = None
        self._lang: str | None = None

    @classmethod
    def of_texts(cls, gutters: list[str], texts: list[str], lang: str | None) -> CodeRows:
        """Rows of `texts` in `lang`, highlighted when first drawn in colour."""
        rows = cls(gutters, [])
        rows._lines, rows._texts, rows._lang = None, texts, lang
        return rows

    @property
    def lines(self) -> list[TokenLine]:
        """Each row's highlighted tokens."""
        if self._lines is None:
            from tether.highlight import highlight_lines  # Pygments, with the first colours

            self._lines = highlight_lines(self._texts or [], self._lang)
        return self._lines

    def _codes(self) -> list[str]:
        """Each row's code as it is drawn, before control characters are made visible."""
        if self._lines is None and self._texts is not None:
            # What the highlighter's tokens of each line join to (the texts themselves, unless
            # one holds a line break).
            if "\n" not in "".join(self._texts):
                return self._texts
            return [text.replace("\n", " ") for text in self._texts]
        return ["".join([piece for _, piece in tokens]) for tokens in self.lines]

    def text(self) -> Text:
        """All the rows as one rich text, a line each."""
        # One text of all the rows: rich cuts and draws each line of it as it would a text of
        # its own (no wrapping, an ellipsis at the edge), with far fewer objects.
        rows = Text("\n").join(
            Text.assemble((gutter, GUTTER), code_text(tokens))
            for gutter, tokens in zip(self.gutters, self.lines, strict=True)
        )
        rows.no_wrap, rows.overflow = True, "ellipsis"
        return rows

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The rows as rich draws their text."""
        yield self.text()

    def drawn_rows(self, width: int) -> list[str] | None:
        """Each row's bare text padded to `width`; None if a row does not fit."""
        codes = self._codes()
        if (
            len(codes) == len(self.gutters)
            and one_cell_each("".join(codes))
            and one_cell_each("".join(self.gutters))
        ):
            # Nothing to picture, no tab or line break: each row is as it is.
            return padded_rows(list(map(add, self.gutters, codes)), width)
        rows = []
        for gutter, raw in zip(self.gutters, codes, strict=True):
            code = printable(raw)
            if "\t" in code or "\n" in code:
                return None
            # Printable ASCII is a cell a character (`printable` left no control code).
            used = cell_len(gutter) + len(code) if code.isascii() else cell_len(gutter + code)
            if used > width:
                return None
            rows.append(f"{gutter}{code}{' ' * (width - used)}")
        return rows

    def drawn_lines(self, console: Console, width: int) -> list[list[Segment]] | None:
        """Each row's segments, padded to `width`, as rich draws the text: the gutter, then a
        segment per styled token and one for each run of plain ones. None if a row does not
        fit (rich then crops it with its ellipsis)."""
        lines: list[list[Segment]] = []
        for gutter, tokens in zip(self.gutters, self.lines, strict=True):
            # `printable` maps one character to one, so the row is made safe at once and
            # each token is its slice of it.
            whole = gutter + printable("".join([piece for _, piece in tokens]))
            used = cell_len(whole)
            if used > width or "\t" in whole or "\n" in whole:
                return None
            line = [Segment(gutter, GUTTER)]
            start = offset = len(gutter)  # `start`: where the run of plain tokens began
            for css, piece in tokens:
                style = token_style(css)
                end = offset + len(piece)
                if style and end > offset:
                    if start < offset:
                        line.append(Segment(whole[start:offset]))
                    line.append(Segment(whole[offset:end], style))
                    start = end
                offset = end
            line.append(Segment(whole[start:] + " " * (width - used)))
            lines.append(line)
        return lines
