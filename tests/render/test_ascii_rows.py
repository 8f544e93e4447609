"""Rows of printable ASCII (and a gutter's rule) are padded at once, without measuring each
line: cards of such code, diff rows, texts and notes draw, at any width, the bytes rich draws
of the same parts, and a line of other characters is measured as before."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.text import Text

from tests.render.helpers import CONSOLES, as_rich_draws, drawn
from tether.linediff import DiffRow
from tether.render.bare_rows import one_cell_each, padded_rows
from tether.render.code import CodeRows, code_view
from tether.render.diff_card import DiffRows
from tether.render.theme import HEADING, NOTE, card, note

# Mostly printable ASCII, so that whole rows of it are common; now and then a character that
# is not one cell, or not printed as it is (tab, break, escape, wide, combining, zero-width).
ASCII = st.characters(min_codepoint=0x20, max_codepoint=0x7E)
RARE = st.sampled_from(["│", "\t", "\n", "\x1b", "\x7f", "名", "e\u0301", "\u200b", "…"])
PLAIN_LINE = st.text(ASCII, max_size=30)
MIXED_LINE = st.lists(st.one_of(ASCII, ASCII, ASCII, RARE), max_size=30).map("".join)
LINE = st.one_of(PLAIN_LINE, PLAIN_LINE, PLAIN_LINE, MIXED_LINE)


def test_one_cell_each_is_printable_ascii_and_the_rule() -> None:
    assert one_cell_each("  12 │ def run():  # ~")
    assert one_cell_each("")
    for other in ("\t", "\n", "\x1b", "\x7f", "名", "é", "…", "\u200b"):
        assert not one_cell_each(f"a{other}b"), other


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(LINE, max_size=6), width=st.integers(0, 40))
def test_padded_rows_are_what_measuring_each_gives(rows: list[str], width: int) -> None:
    rows = [row.replace("\n", " ").replace("\t", " ") for row in rows]
    if not one_cell_each("".join(rows)):
        return
    measured = [row + " " * (width - cell_len(row)) for row in rows]
    fits = all(cell_len(row) <= width for row in rows)
    assert padded_rows(rows, width) == (measured if fits else None)


@st.composite
def parts(draw: st.DrawFn) -> tuple[list[RenderableType], list[RenderableType]]:
    """A card's parts, and the same parts as rich's own texts (the reference)."""
    ours: list[RenderableType] = []
    theirs: list[RenderableType] = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["code", "diff", "text", "note"]))
        if kind == "code":
            numbers = sorted(draw(st.lists(st.integers(1, 5000), min_size=1, max_size=5)))
            texts = draw(st.lists(LINE, min_size=len(numbers), max_size=len(numbers)))
            ours.append(code_view(numbers, texts, None))
            # rich's way: all the rows as one text (a view of its own: drawing highlights it)
            rows = code_view(numbers, texts, None).renderables[0]
            assert isinstance(rows, CodeRows)
            theirs.append(rows.text())
        elif kind == "diff":
            count = draw(st.integers(1, 4))
            ops = draw(st.lists(st.sampled_from("+- "), min_size=count, max_size=count))
            texts = draw(st.lists(LINE, min_size=count, max_size=count))
            diff = DiffRows(
                [
                    DiffRow(op, n + 1, n + 1, text)
                    for n, (op, text) in enumerate(zip(ops, texts, strict=True))
                ],
                draw(st.integers(0, 3)),
            )
            ours.append(diff)
            theirs.extend(diff.texts())
        elif kind == "text":
            text = Text(draw(LINE))
            ours.append(text)
            theirs.append(text.copy())
        else:
            words = draw(LINE)
            ours.append(note(words))
            theirs.append(Text(words, style=NOTE))
    return ours, theirs


@settings(max_examples=200, deadline=None)
@given(
    made=parts(),
    title=st.one_of(st.none(), LINE),
    width=st.sampled_from([5, 12, 20, 33, 48, 80]),
    kind=st.sampled_from(list(CONSOLES)),
)
def test_cards_of_ascii_rows_draw_what_rich_draws(
    made: tuple[list[RenderableType], list[RenderableType]],
    title: str | None,
    width: int,
    kind: str,
) -> None:
    ours, theirs = made
    heading = Text(title, style=HEADING) if title is not None else None
    shown = card(Group(*ours), title=heading)
    reference = as_rich_draws(card(Group(*theirs), title=heading))
    assert drawn(shown, kind, width) == drawn(reference, kind, width)


def test_a_code_row_that_does_not_fit_is_cut_by_rich() -> None:
    texts = ["short", "x" * 40]
    rows = CodeRows.of_texts(["1 │ ", "2 │ "], texts, None)
    assert rows.drawn_rows(45) == ["1 │ short".ljust(45), "2 │ " + "x" * 40 + " "]
    assert rows.drawn_rows(43) is None
    reference = CodeRows.of_texts(["1 │ ", "2 │ "], texts, None).text()
    for width in (30, 48):
        made = card(Group(rows))
        theirs = as_rich_draws(card(Group(reference)))
        assert drawn(made, "plain", width) == drawn(theirs, "plain", width)
