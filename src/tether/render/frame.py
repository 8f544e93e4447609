"""The card's frame, drawn line by line: the bytes rich's `Panel` draws, without its layout.

rich lays a panel out through padding, a group and each text's wrapping, and crops and pads
every line again at each level: most of what a replayed session costs. A card whose body is
texts that each fit its width needs none of that: each line is the text's own segments
between the frame's borders, padded to the width. Whatever needs more (a line to wrap or
crop, a tab, a renderable other than text) is laid out by rich itself, part by part, or the
whole card is when the frame itself is not the usual one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol, cast

from rich.box import ROUNDED, Box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.padding import Padding
from rich.panel import Panel
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from tether.render.bare_rows import fitting_rows
from tether.render.written import WholeLines

__all__ = ["Card", "Rows", "TextRows", "bare_card"]

_LINE = Segment.line()


class Rows(Protocol):
    """A card's part that draws its own lines (rich draws it the same way when it cannot)."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The part as rich draws it."""

    def drawn_lines(self, console: Console, width: int) -> list[list[Segment]] | None:
        """Each line's segments padded to `width`; None if rich must lay the part out."""

    def drawn_rows(self, width: int) -> list[str] | None:
        """Each line's bare text padded to `width` (no colour); None as `drawn_lines`."""


class TextRows(Protocol):
    """A card's part made of one-line texts that can give its lines' bare text at once, with
    no text made (without colour); drawn as its texts otherwise."""

    def texts(self) -> list[Text]:
        """Its texts, each ending its line, as rich draws them."""

    def drawn_rows(self, width: int) -> list[str] | None:
        """Each text's bare line padded to `width`; None unless each fits as it is."""


class Card(Panel, WholeLines):
    """A `Panel` that draws itself line by line when that gives rich's own bytes."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The frame and its body's lines; rich's own layout where a shortcut could differ."""
        drawn = self.drawn(console, options)
        if drawn is None:
            yield from super().__rich_console__(console, options)
        else:
            yield from drawn

    def drawn(self, console: Console, options: ConsoleOptions) -> list[Segment] | None:
        """The card's segments, or None where only rich's layout is sure to be right."""
        width = options.max_width
        # Without colour (and no record kept), each line's segments would be written as
        # their bare text: one string a line does the same with far fewer objects.
        merged = console.color_system is None and not console.record
        parts = _parts(self.renderable, whole=merged and options.justify is None)
        if (
            parts is None
            or not self.expand
            or self.width is not None
            or self.height is not None
            or options.height is not None
            or (self.padding != (0, 1) and Padding.unpack(self.padding) != (0, 1, 0, 1))
            or width <= 4
        ):
            return None
        style = console.get_style(self.style)
        if style:  # rich would lay that style over every line: not worth a shortcut
            return None
        safe_box = console.safe_box if self.safe_box is None else self.safe_box
        box = self.box.substitute(options, safe=safe_box)
        inner = width - 4
        if merged:
            body = self._bare_body(console, parts, options, box)
            top = self._bare_edge(box, width, top=True)
            bottom = self._bare_edge(box, width, top=False)
            if top is not None and bottom is not None:
                return [Segment(top + body + bottom)]
            border_style = style + console.get_style(self.border_style)
            return [
                *(
                    self._edge(console, options, box, border_style, top=True)
                    if top is None
                    else [Segment(top)]
                ),
                Segment(body),
                *(
                    self._edge(console, options, box, border_style, top=False)
                    if bottom is None
                    else [Segment(bottom)]
                ),
            ]
        border_style = style + console.get_style(self.border_style)
        part_options = self._inner_options(options, inner)
        left = Segment(box.mid_left, border_style)
        right = Segment(box.mid_right, border_style)
        pad = Segment(" ", style)
        out: list[Segment] = []
        append, extend = out.append, out.extend
        extend(self._edge(console, options, box, border_style, top=True))
        for part in parts:
            if isinstance(part, Text):
                lines = _fitting_lines(part, console, options, inner)
            else:
                lines = part.drawn_lines(console, inner)
            if lines is None:
                lines = console.render_lines(part, part_options, pad=True)
            for line in lines:
                append(left)
                append(pad)
                extend(line)
                append(pad)
                append(right)
                append(_LINE)
        extend(self._edge(console, options, box, border_style, top=False))
        return out

    def _bare_body(
        self, console: Console, parts: list[Text | Rows], options: ConsoleOptions, box: Box
    ) -> str:
        """The body's lines between the frame's sides, without colour: each part as it fits
        (its bare text), else as rich lays it out."""
        inner = options.max_width - 4
        part_options = None  # made only for a part that needs them: most cards have none
        drawn: list[str] = []
        for part in parts:
            rows = (
                _fitting_rows(part, options, inner)
                if isinstance(part, Text)
                else part.drawn_rows(inner)
            )
            if rows is None:
                laid = part_options = part_options or self._inner_options(options, inner)
                rows = (
                    [  # each text as a part of its own
                        row
                        for text in cast(TextRows, part).texts()
                        for row in _fitting_rows(text, options, inner)
                        or _laid_out_rows(console, text, laid)
                    ]
                    if hasattr(part, "texts")
                    else _laid_out_rows(console, part, laid)
                )
            drawn += rows
        return _between_sides(box, drawn)

    def _bare_edge(self, box: Box, width: int, *, top: bool) -> str | None:
        """The top or bottom border as `Panel` draws it without colour, with its line break,
        when its title or subtitle is a text that fits as it is; None otherwise."""
        given = self.title if top else self.subtitle
        if not given:
            return _bare_border(box, width, None, "left", top=top)
        if not isinstance(given, Text):
            return None
        align = self.title_align if top else self.subtitle_align
        return _bare_border(box, width, given.plain, align, top=top)

    def _inner_options(self, options: ConsoleOptions, width: int) -> ConsoleOptions:
        """The options `Panel` lays its body out with, at `width` inside its frame."""
        return options.update(width=width, height=None, highlight=self.highlight)

    def _edge(
        self,
        console: Console,
        options: ConsoleOptions,
        box: Box,
        border_style: Style,
        *,
        top: bool,
    ) -> Iterator[Segment]:
        """The top or bottom border with its title or subtitle, as `Panel` draws it."""
        width = options.max_width
        given = self.title if top else self.subtitle
        first, fill, last = _border(box, top=top)
        if not given:
            yield Segment(first + fill * (width - 2) + last, border_style)
            yield _LINE
            return
        text = self._title if top else self._subtitle
        assert text is not None
        text.stylize_before(border_style)
        shown = _aligned(
            console,
            text,
            width=width - 4,
            align=self.title_align if top else self.subtitle_align,
            character=fill,
            style=border_style,
        )
        yield Segment(first + fill, border_style)
        if "\n" in shown.plain or "\t" in shown.plain or cell_len(shown.plain) > width - 4:
            yield from console.render(shown, self._inner_options(options, width - 4))
        else:  # one line that fits: what rich's layout of it comes to
            yield from shown.render(console)
        yield Segment(fill + last, border_style)
        yield _LINE


def _aligned(
    console: Console, text: Text, *, width: int, align: str, character: str, style: Style
) -> Text:
    """A title or subtitle cut or filled to `width` with the border's `character`: the text
    `Panel` makes of it."""
    text = text.copy()
    text.truncate(width)
    excess = width - cell_len(text.plain)
    if text.style:
        text.stylize(console.get_style(text.style))
    if not excess:
        return text
    if align == "left":
        return Text.assemble(text, (character * excess, style), no_wrap=True, end="")
    if align == "center":
        half = excess // 2
        return Text.assemble(
            (character * half, style),
            text,
            (character * (excess - half), style),
            no_wrap=True,
            end="",
        )
    return Text.assemble((character * excess, style), text, no_wrap=True, end="")


def _laid_out_rows(console: Console, part: Text | Rows, options: ConsoleOptions) -> list[str]:
    """The part's lines without colour as rich lays them out, padded to the width."""
    return [
        "".join(segment.text for segment in line)
        for line in console.render_lines(part, options, pad=True)
    ]


def _parts(body: RenderableType, *, whole: bool) -> list[Text | Rows] | None:
    """The texts and rows a body is made of, in order, each ending its last line; None if
    it holds anything else (rich then lays the card out itself). `TextRows` stay `whole`
    where their bare rows are drawn, else they are their texts."""
    if isinstance(body, Text):
        return [body] if body.end == "\n" else None
    if body.__class__ is Group:  # most bodies: asked first
        return _parts_of(body, whole=whole)
    if hasattr(body, "drawn_lines"):  # a `Rows` (a protocol's isinstance is slow)
        return [cast(Rows, body)]
    if hasattr(body, "texts"):  # `TextRows`
        if whole:
            return [cast(Rows, body)]
        return _parts(Group(*cast(TextRows, body).texts()), whole=whole)
    if not isinstance(body, Group):
        return None
    return _parts_of(body, whole=whole)


def _parts_of(group: Group, *, whole: bool) -> list[Text | Rows] | None:
    """The texts and rows of each of a group's renderables (`_parts`)."""
    parts: list[Text | Rows] = []
    for part in group.renderables:
        inside = _parts(part, whole=whole)
        if inside is None:
            return None
        parts += inside
    return parts


def _fitting_rows(text: Text, options: ConsoleOptions, width: int) -> list[str] | None:
    """`text`'s lines as rich draws them without colour at `width` (padded to it), when each
    line fits as it is: nothing to wrap, crop or expand. None when rich must lay it out."""
    if options.justify is not None or text.justify not in (None, "default"):
        return None
    return fitting_rows(text.plain, width)


def _fitting_lines(
    text: Text, console: Console, options: ConsoleOptions, width: int
) -> list[list[Segment]] | None:
    """`text`'s lines as rich draws them at `width` (padded to it), when each line fits as it
    is (as `_fitting_rows`), each with its styled segments."""
    plain = text.plain
    if "\t" in plain or options.justify is not None or text.justify not in (None, "default"):
        return None
    if any(span.end > len(plain) for span in text.spans):
        return None  # rich's layout clips such a span first
    rows = plain.split("\n")
    widths = [cell_len(row) for row in rows]
    if max(widths) > width:
        return None
    if any(len(row) > width and row[-1:].isspace() for row in rows):
        # rich cuts a wrapped line's trailing white space by its count of characters, not
        # cells: a line of combining or zero-width characters loses its styled last spaces.
        return None
    lines = _split(_segments(text, console), len(rows))
    for line, used in zip(lines, widths, strict=True):
        if used < width:
            line.append(Segment(" " * (width - used)))
    return lines


def _segments(text: Text, console: Console) -> Iterable[Segment]:
    """The text's segments, each with the style rich gives it (its own style under its spans)."""
    if "\n" in text.plain and any(span.end <= span.start for span in text.spans):
        # Cut into lines, the text loses its empty spans (a line has them only when the
        # text is one line): they would split a segment in two.
        text = text.copy()
        text.spans = [span for span in text.spans if span.end > span.start]
    if text.spans:
        return text.render(console)
    if text.style:
        return [Segment(text.plain, console.get_style(text.style, default=Style.null()))]
    return [Segment(text.plain)]


def _split(segments: Iterable[Segment], count: int) -> list[list[Segment]]:
    """Segments cut at each line break into `count` lines (an empty last line included)."""
    lines: list[list[Segment]] = [[]]
    for segment in segments:
        piece, style, _ = segment
        if "\n" not in piece:
            if piece:
                lines[-1].append(segment)
            continue
        first, *rest = piece.split("\n")
        if first:
            lines[-1].append(Segment(first, style))
        for more in rest:
            lines.append([Segment(more, style)] if more else [])
    assert len(lines) == count
    return lines


def bare_card(
    console: Console,
    options: ConsoleOptions,
    title: str | None,
    rows: list[str],
    subtitle: str | None = None,
) -> str | None:
    """What a console without colour writes of `card(body, title=Text(title),
    subtitle=Text(subtitle))` whose body's lines are `rows`, each already padded to the card's
    inside width (`options.max_width` less 4): None where the frame is not drawn as bare text
    (a title that does not fit or holds a break or tab, a box the console substitutes, a width
    or height of its own)."""
    width = options.max_width
    if width <= 4 or options.height is not None or console.get_style("none"):
        return None  # as `Card.drawn` declines them
    box = ROUNDED.substitute(options, safe=console.safe_box)
    top = _bare_border(box, width, title, "left", top=True)
    bottom = _bare_border(box, width, subtitle, "right", top=False)
    if top is None or bottom is None:
        return None
    return f"{top}{_between_sides(box, rows)}{bottom}"


def _bare_border(box: Box, width: int, label: str | None, align: str, *, top: bool) -> str | None:
    """The top or bottom border, without colour and with its line break, and its title or
    subtitle's bare text where it fits as it is (none: `label` None or empty); None where
    `Panel` changes the text first (a break or tab) or cuts it."""
    first, fill, last = _border(box, top=top)
    if not label:
        return first + fill * (width - 2) + last + "\n"
    if "\n" in label or "\t" in label:
        return None
    # Padded a space each side and filled out with the border.
    label = f" {label} "
    excess = width - 4 - cell_len(label)
    if excess < 0:
        return None
    half = excess // 2 if align == "center" else excess if align == "right" else 0
    return first + fill + fill * half + label + fill * (excess - half) + fill + last + "\n"


def _between_sides(box: Box, rows: list[str]) -> str:
    """Rows already padded to the inside width, each between the frame's sides (a space in
    from each), joined at once."""
    if not rows:
        return ""
    left, right = box.mid_left + " ", " " + box.mid_right + "\n"
    return left + (right + left).join(rows) + right


def _border(box: Box, *, top: bool) -> tuple[str, str, str]:
    """The top or bottom border's first corner, its fill and its last corner."""
    if top:
        return box.top_left, box.top, box.top_right
    return box.bottom_left, box.bottom, box.bottom_right
