"""Cards, code rows, plain paragraphs and command output drawn line by line give the bytes
rich's own layout gives, for any content and width, with and without colour."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.style import Style
from rich.text import Span, Text

from tests.render.helpers import ALPHABET, CONSOLES, as_rich_draws, drawn
from tether.render.code import CodeRows, code_view
from tether.render.frame import Card
from tether.render.markdown import PlainParagraph, markdown, text_block
from tether.render.terminal_card import render_terminal_result
from tether.render.theme import GUTTER, HEADING, SUBTLE, card, code_text, note, pill, printable
from tether.views import TerminalResultView

STYLES = [
    Style(),
    GUTTER,
    HEADING,
    SUBTLE,
    Style(color="red", bold=True),
    Style(bgcolor="green", italic=True),
    Style(link="https://example.org"),
]
WORDS = st.lists(ALPHABET, max_size=30).map("".join)


def described(body: object) -> str:
    """A body's parts, to tell which one a failing example holds."""
    if isinstance(body, Group):
        return "Group(" + ", ".join(described(part) for part in body.renderables) + ")"
    if isinstance(body, Text):
        options = (body.style, body.end, body.no_wrap, body.overflow, body.justify)
        return f"Text({body.plain!r}, {body.spans!r}, {options!r})"
    if isinstance(body, CodeRows):
        return f"CodeRows({body.gutters!r}, {body.lines!r})"
    return repr(body)


@st.composite
def texts(draw: st.DrawFn) -> Text:
    """A text with a style, spans over it (overlapping, empty, to its end) and its options."""
    plain = draw(WORDS)
    spans = draw(
        st.lists(
            st.tuples(st.integers(0, 35), st.integers(0, 35), st.sampled_from(STYLES)),
            max_size=6,
        )
    )
    text = Text(
        plain,
        style=draw(st.sampled_from([*STYLES, "", "bold", "dim italic"])),
        no_wrap=draw(st.sampled_from([None, True, False])),
        overflow=draw(st.sampled_from([None, "ellipsis", "fold", "crop"])),
        justify=draw(st.sampled_from([None, None, "default", "left", "right"])),
        end=draw(st.sampled_from(["\n", "\n", "\n", ""])),
    )
    for first, last, style in spans:
        start, end = min(first, len(text)), min(last, len(text))
        text.spans.append(Span(start, max(start, end), style))
    return text


TOKENS = st.lists(
    st.tuples(
        st.sampled_from(["", "k", "s2", "c1", "nf", "zz", "err", "gh", "p"]),
        st.lists(ALPHABET, max_size=6).map("".join),
    ),
    max_size=8,
)


@st.composite
def bodies(draw: st.DrawFn) -> RenderableType:
    """What cards hold: texts, notes, code rows, groups of them; now and then a renderable
    that is not text."""
    parts: list[RenderableType] = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["text", "note", "code", "group", "other"]))
        if kind == "text":
            parts.append(draw(texts()))
        elif kind == "note":
            parts.append(note(draw(WORDS)))
        elif kind == "code":
            lines = draw(st.lists(TOKENS, min_size=1, max_size=4))
            numbers = sorted(draw(st.lists(st.integers(1, 5000), min_size=1, max_size=1)))
            gutters = [f"{number + row:>4} │ " for row, number in enumerate(numbers * len(lines))]
            parts.append(Group(CodeRows(gutters, lines)))
        elif kind == "group":
            parts.append(Group(draw(texts()), note(draw(WORDS))))
        else:
            parts.append(markdown(draw(WORDS)))
    return draw(st.sampled_from([Group(*parts), parts[0] if parts else Text("")]))


TITLES = st.one_of(
    st.none(),
    WORDS.map(lambda words: Text(printable(words), style=HEADING)),
    st.builds(
        lambda path, window: Text.assemble((path, HEADING), "  ", (window, SUBTLE)),
        WORDS.map(printable),
        WORDS,
    ),
    WORDS.map(str),
)


@settings(max_examples=500, deadline=None)
@given(
    body=bodies(),
    title=TITLES,
    subtitle=st.one_of(TITLES, st.just(pill("exit 1", ok=False))),
    failed=st.booleans(),
    width=st.integers(1, 90),
    kind=st.sampled_from(list(CONSOLES)),
)
def test_a_card_draws_what_rich_s_panel_draws(
    *,
    body: RenderableType,
    title: Text | None,
    subtitle: Text | None,
    failed: bool,
    width: int,
    kind: str,
) -> None:
    made = card(body, title, subtitle, failed=failed)
    assert isinstance(made, Card)
    assert drawn(made, kind, width) == drawn(as_rich_draws(made), kind, width), described(body)


@settings(max_examples=200, deadline=None)
@given(
    lines=st.lists(TOKENS, min_size=1, max_size=6),
    width=st.integers(5, 70),
    kind=st.sampled_from(list(CONSOLES)),
)
def test_code_rows_draw_what_rich_draws_of_their_text(
    lines: list[list[tuple[str, str]]], width: int, kind: str
) -> None:
    gutters = [f"{number:>3} │ " for number in range(1, len(lines) + 1)]
    rows = Text("\n").join(
        Text.assemble((gutter, GUTTER), code_text(tokens))
        for gutter, tokens in zip(gutters, lines, strict=True)
    )
    rows.no_wrap, rows.overflow = True, "ellipsis"
    own = drawn(as_rich_draws(card(Group(rows))), kind, width)
    assert drawn(card(Group(CodeRows(gutters, lines))), kind, width) == own
    assert drawn(Group(CodeRows(gutters, lines)), kind, width) == drawn(Group(rows), kind, width)


def test_a_read_window_s_rows_draw_what_rich_draws() -> None:
    lines = [
        "def run():",
        "",
        "    return 'a long line that goes on well past the edge of a narrow card' * 3",
        "    名前 = '日本語のテキスト' + '絵文字 🎉🎉🎉 も幅が二つ' * 2",
        "   ",
    ]
    made = card(code_view([1, 2, 3, 40, 41], lines, "py"), Text("module.py", style=HEADING))
    for width in (12, 33, 60, 120):
        for kind in CONSOLES:
            assert drawn(made, kind, width) == drawn(as_rich_draws(made), kind, width)


MARKDOWN_ALPHABET = st.sampled_from(
    [*"ab Zé名1.-+*_`~[]()!<>&|#\\=:'\"", "  ", "\t", "\n", "\n\n", "\u00a0", "\x1b", "🎉"]
)


@settings(max_examples=400, deadline=None)
@given(
    text=st.lists(MARKDOWN_ALPHABET, max_size=25).map("".join),
    width=st.integers(1, 40),
    kind=st.sampled_from(list(CONSOLES)),
)
def test_a_block_of_plain_words_draws_what_rich_s_markdown_draws(
    text: str, width: int, kind: str
) -> None:
    assert drawn(text_block(text), kind, width) == drawn(markdown(text), kind, width)


def test_plain_words_take_the_shortcut_and_markup_does_not() -> None:
    for plain in ("Looking at the module now.", "Done.", "Zé said: (it's 3 + 4 = 7) 名前 🎉"):
        assert isinstance(text_block(plain), PlainParagraph)
        assert isinstance(text_block(f"\n{plain}\n\n"), PlainParagraph)
    for marked in ("1. one", "- item", "a *b*", "a `b`", "# h", "a\nb", "a &amp; b", " a", "a "):
        assert not isinstance(text_block(marked), PlainParagraph)
    for width in (10, 30, 80):
        for kind in CONSOLES:
            text = "Looking at the module now."
            assert drawn(text_block(text), kind, width) == drawn(markdown(text), kind, width)


@settings(max_examples=300, deadline=None)
@given(
    output=st.lists(
        st.sampled_from([*"ab 1", "\n", "\n\n", "名", "\x1b[31m", "\x1b[0m", "\r", "\t", "\x85"]),
        min_size=1,
        max_size=40,
    ).map("".join),
    full=st.booleans(),
    width=st.integers(10, 50),
    kind=st.sampled_from(list(CONSOLES)),
)
def test_command_output_draws_what_its_decoded_text_draws(
    output: str, full: bool, width: int, kind: str
) -> None:
    view = TerminalResultView(card="terminal", title="seq 3", output=output, exit_code=0)
    made = render_terminal_result(view, full=full)
    decoded = Text.from_ansi(output.rstrip("\n"))
    decoded.plain = printable(decoded.plain)
    shown = output.rstrip("\n")
    if shown and shown.replace("\n", "").isprintable():
        assert decoded.spans == []
        assert decoded.plain == Text(shown).plain
    assert isinstance(made, Panel)
    assert drawn(made, kind, width) == drawn(as_rich_draws(made), kind, width)


def test_a_styled_line_longer_in_characters_than_cells_ends_as_rich_ends_it() -> None:
    # Four cells, five characters: rich's wrapping cuts the last space from the styled text.
    for words in ("aae\u0301 ", "a\u200bbc ", "abc "):
        made = card(Group(Text(words, style="dim italic")))
        for kind in ("truecolor", "plain", "no colour"):
            assert drawn(made, kind, 8) == drawn(as_rich_draws(made), kind, 8), (words, kind)


def _styled(plain: str, *spans: tuple[int, int, Style | str], style: Style | str = "") -> Text:
    """A text with `spans` laid on it as they are (a span past its end too)."""
    text = Text(plain, style=style)
    text.spans.extend(Span(start, end, span_style) for start, end, span_style in spans)
    return text


RED = Style(color="red", bold=True)
CARDS: dict[str, tuple[Callable[[], Panel], tuple[int, ...]]] = {
    # The frame alone, at the narrowest widths: 4 is left to rich, 5 is the first drawn.
    "empty": (lambda: card(Group()), (3, 4, 5, 6)),
    "no title, one word": (lambda: card(Text("ab")), (4, 5, 6, 7, 8)),
    # A line as wide as the inside, one cell wider (wrapped by rich), and wide characters.
    "a line the inside's width": (lambda: card(Text("abcd")), (7, 8, 9)),
    "wide characters": (lambda: card(Text("名前🎉")), (9, 10, 11)),
    # More characters than cells, ending in a space: rich cuts it by its characters.
    "combining, then a space": (
        lambda: card(Text("e\u0301e\u0301e\u0301 ", style="bold")),
        (8, 9, 10, 11),
    ),
    "a tab": (lambda: card(Text("a\tb")), (12,)),
    "a styled text": (lambda: card(Text("ab cd", style=RED)), (9, 10)),
    "spans, one past the end": (
        lambda: card(_styled("abc", (0, 2, RED), (1, 4, GUTTER))),
        (8, 9),
    ),
    "spans to the end": (lambda: card(_styled("abc", (0, 3, RED), (3, 3, GUTTER))), (8,)),
    "empty spans over lines": (
        lambda: card(_styled("ab\n\ncd", (1, 1, RED), (2, 5, GUTTER), (0, 6, HEADING))),
        (8, 9),
    ),
    "a text that ends no line": (lambda: card(Group(Text("ab", end=""), Text("cd"))), (8,)),
    "a text justified right": (lambda: card(Text("ab", justify="right")), (8,)),
    "a group": (lambda: card(Group(Text("ab"), note("more"), Text("c\nd"))), (8, 9)),
    "code rows": (
        lambda: card(Group(CodeRows(["1 │ ", "2 │ "], [[("k", "def")], [("s2", "'x'")]]))),
        (9, 12, 13),
    ),
    # Titles and subtitles: fitting, filling the top exactly, one cell too long, odd ones.
    "a title": (lambda: card(Text("ab"), Text("ti", style=HEADING)), (1, 2, 3, 4, 5, 8, 9, 10)),
    "a title that fills the top": (lambda: card(Text("ab"), Text("title")), (8, 9, 10, 11)),
    "a wide title": (lambda: card(Text("ab"), Text("名前")), (9, 10, 11)),
    "a title as markup": (lambda: card(Text("ab"), "[bold]ti[/]"), (8, 9)),  # type: ignore[arg-type]
    "an empty title": (lambda: card(Text("ab"), Text("")), (8,)),
    "a title with a tab": (lambda: card(Text("ab"), Text("a\tb")), (14,)),
    "a title of two lines": (lambda: card(Text("ab"), Text("a\nb")), (12,)),
    "a subtitle": (lambda: card(Text("ab"), None, Text("sub")), (8, 9, 10)),
    "failed": (
        lambda: card(Text("ab"), Text("ti"), pill("exit 1", ok=False), failed=True),
        (13, 18, 21),
    ),
    # Frames that are not the usual one: rich lays them out.
    "centred": (
        lambda: Card(Text("ab"), title=Text("ti"), title_align="center", subtitle=Text("s")),
        (9, 10, 11),
    ),
    "padded": (lambda: Card(Text("ab"), padding=(1, 2)), (10,)),
    "a style of its own": (lambda: Card(Text("ab"), style="on blue"), (8,)),
}
"""Cards at widths that tell a frame one cell off from rich's: each at each width below and on
each console (the property above draws these cases only now and then)."""


@pytest.mark.parametrize("name", list(CARDS))
def test_each_card_of_the_table_draws_what_rich_s_panel_draws(name: str) -> None:
    made, widths = CARDS[name]
    assert isinstance(made(), Card)
    for kind in CONSOLES:
        for width in widths:
            ours = drawn(made(), kind, width)
            assert ours == drawn(as_rich_draws(made()), kind, width), (kind, width)
