"""Cards and plain paragraphs written straight to the console's file give the bytes
`Console.print` gives, on every kind of console, and only a console that plainly writes its
buffer is written to directly."""

from __future__ import annotations

import copy
import io
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.text import Span, Text

from tether.render.code import CodeRows
from tether.render.frame import Card
from tether.render.markdown import PlainParagraph, text_block
from tether.render.theme import HEADING, card, note
from tether.render.written import print_line_break, print_renderable

KINDS: dict[str, dict[str, Any]] = {
    "plain": {"color_system": None},
    "truecolor": {"color_system": "truecolor", "force_terminal": True},
    "no colour": {"color_system": "truecolor", "force_terminal": True, "no_color": True},
    "terminal without colour": {"color_system": None, "force_terminal": True},
}
WORDS = st.lists(
    st.sampled_from([*"ab z", "  ", "\t", "\n", "名", "é", "e\u0301", "\u200b", "\x1b", "…"]),
    max_size=40,
)


class CountingConsole(Console):
    """A console that counts the calls of its `print`."""

    prints = 0

    def print(self, *objects: Any, **options: Any) -> None:
        self.prints += 1
        super().print(*objects, **options)


def console_of(kind: str, width: int, **more: Any) -> tuple[CountingConsole, io.StringIO]:
    """A console of `kind` at `width` writing to a string."""
    out = io.StringIO()
    made = CountingConsole(file=out, width=width, height=25, highlight=False, **KINDS[kind], **more)
    return made, out


def printed(renderable: RenderableType, kind: str, width: int, *, direct: bool) -> str:
    """What is written for `renderable`: directly, or by `Console.print` of rich's own
    layout (a `Card` as the `Panel` it is)."""
    console, out = console_of(kind, width)
    if direct:
        print_renderable(console, renderable)
        print_line_break(console)
    else:
        if isinstance(renderable, Card):
            renderable = copy.copy(renderable)
            renderable.__class__ = Panel
        console.print(renderable)
        console.print()
    return out.getvalue()


@st.composite
def cards(draw: st.DrawFn) -> Card:
    """A card of texts, notes and code rows, now and then with a part rich must lay out."""
    parts: list[RenderableType] = []
    for _ in range(draw(st.integers(0, 3))):
        words = "".join(draw(WORDS))
        kind = draw(st.sampled_from(["text", "note", "code", "markdown"]))
        if kind == "text":
            parts.append(Text(words, style=draw(st.sampled_from(["", "bold", "red on green"]))))
        elif kind == "note":
            parts.append(note(words))
        elif kind == "code":
            parts.append(Group(CodeRows(["  1 │ "], [[("k", words), ("", "x")]])))
        else:
            parts.append(text_block(words or "x"))
    title = draw(st.one_of(st.none(), st.builds(lambda w: Text("".join(w), HEADING), WORDS)))
    made = card(Group(*parts), title=title, failed=draw(st.booleans()))
    assert isinstance(made, Card)
    return made


@settings(max_examples=150, deadline=None)
@given(made=cards(), width=st.integers(1, 60), kind=st.sampled_from(list(KINDS)))
def test_a_card_written_directly_is_what_rich_prints(made: Card, width: int, kind: str) -> None:
    assert printed(made, kind, width, direct=True) == printed(made, kind, width, direct=False)


@settings(max_examples=200, deadline=None)
@given(
    words=st.lists(st.sampled_from([*"Abc xyz", "名", "é", ".", "  "]), min_size=1, max_size=60),
    width=st.integers(1, 40),
    kind=st.sampled_from(list(KINDS)),
)
def test_a_block_written_directly_is_what_rich_prints(
    words: list[str], width: int, kind: str
) -> None:
    block = text_block("".join(words))
    assert printed(block, kind, width, direct=True) == printed(block, kind, width, direct=False)


@st.composite
def texts(draw: st.DrawFn) -> Text:
    """A text with a style, spans over it (overlapping, empty, to its end) and its options."""
    plain = "".join(draw(WORDS))
    made = Text(
        plain,
        style=draw(st.sampled_from(["", "bold", "dim italic", "red on green"])),
        justify=draw(st.sampled_from([None, "default", "left", "right", "center", "full"])),
        overflow=draw(st.sampled_from([None, "fold", "crop", "ellipsis"])),
        no_wrap=draw(st.sampled_from([None, True, False])),
        end=draw(st.sampled_from(["\n", "", " "])),
    )
    spans = draw(st.lists(st.tuples(st.integers(0, 45), st.integers(0, 45)), max_size=4))
    for first, last in spans:
        start, end = min(first, len(plain)), min(last, len(plain))
        style = draw(st.sampled_from(["bold", "underline", "blue"]))
        made.spans.append(Span(start, max(start, end), style))
    return made


@settings(max_examples=200, deadline=None)
@given(text=texts(), width=st.integers(1, 40), kind=st.sampled_from(list(KINDS)))
def test_a_text_written_directly_is_what_rich_prints(text: Text, width: int, kind: str) -> None:
    assert printed(text, kind, width, direct=True) == printed(text, kind, width, direct=False)


def test_what_draws_its_own_lines_is_written_without_console_print() -> None:
    console, out = console_of("plain", 30)
    print_renderable(console, card(Text("a line"), title=Text("a title")))
    print_renderable(console, PlainParagraph("Some words.", "Some words."))
    print_line_break(console)
    print_renderable(console, Text("> a prompt", style="bold", justify="right"))
    assert console.prints == 0
    assert out.getvalue().splitlines() == [
        "╭─ a title ──────────────────╮",
        "│ a line                     │",
        "╰────────────────────────────╯",
        "Some words.                   ",
        "",
        "> a prompt",
    ]
    print_renderable(console, Text("a line\nand another"))  # rich lays it out
    print_renderable(console, text_block("# A heading"))  # rich's Markdown lays it out
    assert console.prints == 2


def test_a_console_that_records_or_shows_a_live_display_is_printed_to_by_rich() -> None:
    made = card(Text("a line"))
    recording, _ = console_of("plain", 20, record=True)
    print_renderable(recording, made)
    assert recording.prints == 1
    assert recording.export_text().splitlines()[1] == "│ a line           │"
    live_console, out = console_of("terminal without colour", 20)
    with Live(Text("live"), console=live_console, auto_refresh=False, transient=True):
        before = live_console.prints  # the display's own
        print_renderable(live_console, made)
        assert live_console.prints == before + 1
    assert "│ a line           │" in out.getvalue()
    quiet, out = console_of("plain", 20, quiet=True)
    print_renderable(quiet, made)
    print_line_break(quiet)
    assert out.getvalue() == ""


def test_a_text_longer_in_characters_than_cells_ends_as_rich_ends_it() -> None:
    # rich cuts the trailing space of a line that has more characters than the width.
    for words, width in (("ae\u0301 ", 3), ("a\u200b ", 2), ("ab ", 3)):
        for kind in KINDS:
            made = Text(words, style="bold")
            assert printed(made, kind, width, direct=True) == printed(
                made, kind, width, direct=False
            ), (words, kind)


def test_a_console_resized_or_given_another_file_is_written_at_its_new_width() -> None:
    # Its options are found again when its size or file changes, though it was the last
    # console written to (and another console in between changes nothing).
    console, out = console_of("plain", 20)
    other, _ = console_of("plain", 30)
    made = card(Text("a line"))
    print_renderable(console, made)
    print_renderable(other, made)
    print_renderable(console, made)
    console.width = 24
    print_renderable(console, made)
    assert [len(line) for line in out.getvalue().splitlines()] == [20] * 6 + [24] * 3
    console.file = moved = io.StringIO()
    print_renderable(console, made)
    assert moved.getvalue().splitlines()[1] == "│ a line               │"
