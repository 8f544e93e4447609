"""Without colour, a read card is written as text made from its view alone: the bytes rich
draws of the card, for any window, path and width, or nothing where rich must lay it out."""

from __future__ import annotations

import io

from hypothesis import event, given, settings
from hypothesis import strategies as st
from rich.console import Console

from tests.render.helpers import as_rich_draws, drawn
from tether.render.frame import Card
from tether.render.read_card import bare_read_result, render_read_result
from tether.render.written import bare_options
from tether.views import ReadFileLine, ReadResultView

ASCII = st.characters(min_codepoint=0x20, max_codepoint=0x7E)
RARE = st.sampled_from(["\t", "\n", "\x1b", "\x85", "名", "e\u0301", "\u200b", "…", "│"])
PLAIN = st.text(ASCII, max_size=70)
LINE = st.one_of(PLAIN, PLAIN, PLAIN, st.lists(st.one_of(ASCII, RARE), max_size=30).map("".join))


@st.composite
def views(draw: st.DrawFn) -> ReadResultView:
    """A read window: its path, lines (none, a few, past the collapsed card's), and total."""
    texts = draw(st.lists(LINE, max_size=40))
    first = draw(st.integers(1, 2000))
    lines = tuple(ReadFileLine(number=first + n, text=text) for n, text in enumerate(texts))
    last = first + len(texts) - 1
    total = (
        draw(st.sampled_from([0, last, last + 1, last + 500])) if texts else draw(st.integers(0, 3))
    )
    return ReadResultView(
        path=draw(st.one_of(PLAIN, LINE)),
        offset=first - 1,
        lines=lines,
        total_lines=max(total, last if texts else 0),
        lang=draw(st.sampled_from([None, "py"])),
        byte_cap=draw(st.sampled_from([None, 50 * 1024, 1000])),
    )


def plain_console(width: int) -> Console:
    """A console without colour at `width`."""
    return Console(file=io.StringIO(), width=width, color_system=None, highlight=False)


@settings(max_examples=150, deadline=None)
@given(view=views(), full=st.booleans(), width=st.sampled_from([5, 12, 30, 47, 80, 100]))
def test_a_bare_read_card_is_what_rich_draws(view: ReadResultView, full: bool, width: int) -> None:
    console = plain_console(width)
    options = bare_options(console)
    assert options is not None
    bare = bare_read_result(view, console, options, full=full)
    card = render_read_result(view, full=full)
    assert isinstance(card, Card)
    event(f"bare {bare is not None}")
    if bare is not None:
        assert bare == drawn(as_rich_draws(card), "plain", width)


def test_a_read_card_that_fits_is_written_bare_and_one_that_does_not_by_rich() -> None:
    texts = [f"    value_{n} = compute({n})  # step {n}" for n in range(40)]
    view = ReadResultView(
        path="src/módulo.py",
        offset=0,
        lines=tuple(ReadFileLine(number=n + 1, text=t) for n, t in enumerate(texts)),
        total_lines=400,
        lang="py",
    )
    console = plain_console(60)
    options = bare_options(console)
    assert options is not None
    bare = bare_read_result(view, console, options, full=False)
    assert bare is not None
    assert bare == drawn(as_rich_draws(render_read_result(view, full=False)), "plain", 60)
    assert "… 22 lines …" in bare and "continue at offset=41" in bare
    # Rows cut at the edge, a tab to expand in a title, a notebook: rich lays those out.
    assert bare_read_result(view, plain_console(30), options.update(width=30), full=True) is None
    tabbed = ReadResultView(path="a\tb.py", offset=0, lines=view.lines[:2], total_lines=2)
    assert bare_read_result(tabbed, console, options) is None
    # In colour, or recording, or with a live display, there is no bare text at all.
    for made in (
        Console(file=io.StringIO(), width=60, color_system="truecolor", force_terminal=True),
        Console(file=io.StringIO(), width=60, color_system=None, record=True),
    ):
        assert bare_options(made) is None
