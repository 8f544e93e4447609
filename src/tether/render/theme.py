"""The terminal look shared by every card: frame, palette, notes and token styles."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.console import RenderableType
from rich.control import strip_control_codes
from rich.panel import Panel
from rich.style import Style
from rich.text import Span, Text

from tether.render.frame import Card
from tether.render.pictures import printable

if TYPE_CHECKING:
    # For the type alone: Pygments loads with the highlighting, not with every `printable`.
    from tether.highlight import TokenLine

__all__ = [
    "ADDED",
    "BORDER",
    "FAILED_BORDER",
    "GUTTER",
    "HEADING",
    "NOTE",
    "REMOVED",
    "SUBTLE",
    "TAB_SIZE",
    "assembled",
    "byte_size",
    "card",
    "code_text",
    "failed_label",
    "note",
    "pill",
    "printable",
    "text_of",
    "token_style",
]

BORDER = Style(color="bright_black")
"""Every card's frame: quiet, so the content carries the colour."""
FAILED_BORDER = Style(color="red")
"""The frame of a call that failed: it must stand out from the ones that worked."""
HEADING = Style(color="default", bold=True)
"""A card's subject in its title: the border colour must not leak into it."""
SUBTLE = Style(color="default", dim=True)
"""Secondary words in a title, such as the window of a read."""
GUTTER = Style(dim=True)
"""Line numbers and the rule beside them."""
NOTE = Style(dim=True, italic=True)
"""Hints and remarks that are about the card rather than its content."""
ADDED = Style(color="green")
"""Added lines of a diff."""
REMOVED = Style(color="red")
"""Removed lines of a diff."""
TAB_SIZE = 4
"""Columns a tab stands for in code and diffs, as most editors show source."""

# Keyed by Pygments' short CSS class; a class not listed falls back to its first letter
# ("s2" -> "s"), which is its token family. ANSI colours follow the terminal's own theme.
_TOKEN_STYLES: dict[str, Style] = {
    "k": Style(color="magenta"),
    "kt": Style(color="cyan"),
    "ow": Style(color="magenta"),
    "s": Style(color="green"),
    "dl": Style(color="green"),
    "se": Style(color="green", bold=True),
    "si": Style(color="yellow"),
    "sr": Style(color="yellow"),
    "c": Style(color="bright_black", italic=True),
    "cp": Style(color="magenta"),
    "cpf": Style(color="green"),
    "m": Style(color="cyan"),
    "il": Style(color="cyan"),
    "nf": Style(color="yellow"),
    "fm": Style(color="yellow"),
    "nc": Style(color="yellow", bold=True),
    "nn": Style(color="yellow"),
    "nb": Style(color="cyan"),
    "bp": Style(color="cyan"),
    "nd": Style(color="magenta"),
    "ne": Style(color="yellow", bold=True),
    "nt": Style(color="blue"),
    "na": Style(color="cyan"),
    "nv": Style(color="blue"),
    "err": Style(color="red"),
    "gd": Style(color="red"),
    "gi": Style(color="green"),
    "gh": Style(bold=True),
    "gu": Style(bold=True),
    "ge": Style(italic=True),
    "gs": Style(bold=True),
}
_PLAIN = Style()


def token_style(css: str) -> Style:
    """The terminal style of a Pygments short CSS class (plain when it has none)."""
    style = _FOUND.get(css)
    if style is None:
        short = css.split("-", 1)[0]
        style = _FOUND[css] = _TOKEN_STYLES.get(short) or _TOKEN_STYLES.get(short[:1], _PLAIN)
    return style


_FOUND: dict[str, Style] = {}
"""Each class's style once found: a replayed session draws hundreds of thousands of tokens."""


def assembled(*pieces: str | tuple[str, Style | str]) -> Text:
    """`Text.assemble` of strings, each plain or with its style, made at once."""
    # A card's title or header is a few pieces: `assemble` appends them one by one, each
    # stripped of control codes (when it has any) and given its span when its style is not
    # plain; the same text and spans, made in one go, cost a replayed session far less.
    plain: list[str] = []
    spans: list[Span] = []
    offset = 0
    for piece in pieces:
        text, style = (piece, None) if isinstance(piece, str) else piece
        if not text:
            continue
        if not text.isprintable():
            text = strip_control_codes(text)
        end = offset + len(text)
        if style:
            spans.append(Span(offset, end, style))
        plain.append(text)
        offset = end
    return text_of("".join(plain), spans=spans, tab_size=8)


def text_of(
    plain: str,
    style: str | Style = "",
    *,
    spans: list[Span] | None = None,
    tab_size: int | None = None,
    end: str = "\n",
) -> Text:
    """`Text(plain, style, ...)`: the same text, made without rich's pass that strips control
    codes where `plain` is printable (it has none to strip, and the pass costs a title or note
    beyond ASCII as much as the rest of a card's line)."""
    if not plain.isprintable():
        return Text(plain, style, spans=spans, tab_size=tab_size, end=end)
    made = Text("", style, spans=spans, tab_size=tab_size, end=end)
    made._text, made._length = [plain], len(plain)  # what `Text.__init__` keeps of it
    return made


def code_text(tokens: TokenLine) -> Text:
    """One highlighted line of code as rich text."""
    # The text and spans `Text.append` would make piece by piece, made at once: a replayed
    # session draws tens of thousands of these lines. `printable` leaves no control code for
    # rich to strip, and a plain style gets no span, as `append` gives it none.
    pieces: list[str] = []
    spans: list[Span] = []
    offset = 0
    for css, piece in tokens:
        shown = printable(piece)
        end = offset + len(shown)
        style = token_style(css)
        if style and end > offset:
            spans.append(Span(offset, end, style))
        pieces.append(shown)
        offset = end
    return Text("".join(pieces), no_wrap=True, overflow="ellipsis", end="", spans=spans)


def card(
    body: RenderableType,
    title: Text | None = None,
    subtitle: Text | None = None,
    *,
    failed: bool = False,
) -> Panel:
    """The frame every card shares: rounded, quiet border, title top-left, status bottom-right.

    A `failed` card has a red frame and ends with the `failed` label.
    """
    if failed:
        label = failed_label()
        subtitle = Text.assemble(subtitle, "  ", label) if subtitle else label
    return Card(
        body,
        title=title,
        title_align="left",
        subtitle=subtitle,
        subtitle_align="right",
        box=box.ROUNDED,
        border_style=FAILED_BORDER if failed else BORDER,
        padding=(0, 1),
    )


def failed_label() -> Text:
    """The `failed` badge of a call that did not work (it reads without colour too)."""
    return pill("failed", ok=False)


def note(message: str) -> Text:
    """A dim remark about the card, such as a continuation hint or an empty window."""
    return text_of(message, NOTE)


def byte_size(size: int) -> str:
    """`512 B`, `12.3 KB`, `4.0 MB`."""
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def pill(label: str, ok: bool) -> Text:
    """A short status badge: green when `ok`, red otherwise."""
    # The frame pads a subtitle with a space each side, which takes the badge colour too.
    return text_of(label, _PILLS[ok])


_PILLS = {
    ok: Style(color="black", bgcolor="green" if ok else "red", bold=True) for ok in (True, False)
}
"""The badges' styles, made once."""
