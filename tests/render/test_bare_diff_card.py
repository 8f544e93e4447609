"""Without colour, an edit's card is written as its headers' and rows' bare text in the
frame's: the bytes rich draws of the card, for any change, place and width, or nothing where
rich must lay it out."""

from __future__ import annotations

import io

from hypothesis import event, given, settings
from hypothesis import strategies as st
from rich.console import Console

from tests.render.helpers import as_rich_draws, drawn
from tether.render.diff_card import bare_diff, render_diff
from tether.render.frame import Card
from tether.render.written import bare_options
from tether.views import DiffResultView, FileDiff, Location

ASCII = st.characters(min_codepoint=0x20, max_codepoint=0x7E)
RARE = st.sampled_from(["\t", "\r", "\x1b", "名", "e\u0301", "…", "│"])
LINE = st.one_of(
    st.text(ASCII, max_size=30), st.lists(st.one_of(ASCII, RARE), max_size=12).map("".join)
)
TEXT = st.lists(st.one_of(LINE, st.sampled_from(["same", "also same"])), max_size=8).map(
    lambda lines: "".join(f"{line}\n" for line in lines)
)
PATH = st.one_of(st.sampled_from(["src/app.py", "b.txt"]), LINE)


@st.composite
def edits(draw: st.DrawFn) -> DiffResultView:
    """Changes to files (new ones too), placed where the file has them or not."""
    diffs = [
        FileDiff(path=draw(PATH), old_text=draw(st.one_of(st.none(), TEXT)), new_text=draw(TEXT))
        for _ in range(draw(st.integers(0, 3)))
    ]
    locations = None
    if draw(st.booleans()):
        lines = [draw(st.one_of(st.none(), st.integers(1, 900))) for _ in diffs]
        locations = tuple(Location(path=d.path, line=n) for d, n in zip(diffs, lines, strict=True))
    return DiffResultView(
        diffs=tuple(diffs), title=draw(st.one_of(st.none(), LINE)), locations=locations
    )


@settings(max_examples=150, deadline=None)
@given(view=edits(), width=st.sampled_from([5, 12, 30, 47, 80]))
def test_a_bare_edit_card_is_what_rich_draws(view: DiffResultView, width: int) -> None:
    console = Console(file=io.StringIO(), width=width, color_system=None, highlight=False)
    options = bare_options(console)
    assert options is not None
    bare = bare_diff(view, console, options)
    event(f"bare {bare is not None}")
    card = render_diff(view)
    assert isinstance(card, Card)
    if bare is not None:
        assert bare == drawn(as_rich_draws(card), "plain", width)


def test_an_edit_that_fits_is_written_bare() -> None:
    old = "".join(f"line {n}\n" for n in range(1, 20))
    view = DiffResultView(
        diffs=(FileDiff(path="src/app.py", old_text=old, new_text=old.replace("7\n", "seven\n")),),
        title="Edit src/app.py",
        locations=(Location(path="src/app.py", line=40),),
    )
    console = Console(file=io.StringIO(), width=60, color_system=None, highlight=False)
    options = bare_options(console)
    assert options is not None
    bare = bare_diff(view, console, options)
    assert bare is not None and "46    │ - line 7" in bare
    assert bare == drawn(as_rich_draws(render_diff(view)), "plain", 60)
