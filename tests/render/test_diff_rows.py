"""A diff card's rows draw, with and without colour and at any width, the bytes rich draws of
the texts the card was made of row by row; without colour, rows that fit make no text."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text

from tests.render.helpers import ALPHABET, CONSOLES, as_rich_draws, drawn
from tether.linediff import DiffRow
from tether.render.diff_card import DiffRows
from tether.render.frame import Card
from tether.render.theme import ADDED, GUTTER, REMOVED, TAB_SIZE, card, note, printable

NUMBERS = st.one_of(st.none(), st.integers(1, 120_000))
ROWS = st.lists(
    st.builds(
        DiffRow,
        st.sampled_from(["+", "-", " "]),
        NUMBERS,
        NUMBERS,
        st.lists(ALPHABET, max_size=40).map("".join),
    ),
    max_size=6,
)


def texts_row_by_row(rows: list[DiffRow], width: int) -> list[Text]:
    """Each row as a text appended piece by piece: what the card held before its rows."""
    styles = {"+": ADDED, "-": REMOVED, " ": Style()}
    texts = []
    for row in rows:
        old = "" if row.old is None else str(row.old)
        new = "" if row.new is None else str(row.new)
        text = Text(no_wrap=True, overflow="ellipsis")
        if width:
            text.append(f"{old:>{width}} {new:>{width}} │ ", GUTTER)
        text.append(f"{row.op} {printable(row.text.expandtabs(TAB_SIZE))}", styles[row.op])
        texts.append(text)
    return texts


class CountedRows(DiffRows):
    """Diff rows that count the texts asked of them."""

    made = 0

    def texts(self) -> list[Text]:
        """The rows' texts, counted."""
        self.made += 1
        return super().texts()


@settings(max_examples=150, deadline=None)
@given(
    blocks=st.lists(ROWS, min_size=1, max_size=3),
    gutter=st.integers(0, 6),
    width=st.sampled_from([1, 5, 12, 30, 40, 61, 100]),
    kind=st.sampled_from(list(CONSOLES)),
    header=st.booleans(),
)
# A row one cell wider than the card's inside: cut by rich, not written as it is.
@example(blocks=[[DiffRow("+", None, None, "")]], gutter=0, width=5, kind="plain", header=False)
def test_diff_rows_draw_what_rich_draws_of_the_rows_texts(
    *, blocks: list[list[DiffRow]], gutter: int, width: int, kind: str, header: bool
) -> None:
    ours: list[RenderableType] = [Text("src/app.py  +1 −2")] if header else []
    theirs: list[RenderableType] = list(ours)
    for index, rows in enumerate(blocks):
        if index:
            ours.append(Text("⋯", style=GUTTER))
            theirs.append(Text("⋯", style=GUTTER))
        ours.append(DiffRows(rows, gutter))
        theirs.extend(texts_row_by_row(rows, gutter))
    ours.append(note("… 3 more diff lines not shown"))
    theirs.append(note("… 3 more diff lines not shown"))
    made = card(Group(*ours))
    reference = as_rich_draws(card(Group(*theirs)))
    assert drawn(made, kind, width) == drawn(reference, kind, width)
    assert drawn(Group(*ours), kind, width) == drawn(Group(*theirs), kind, width)


def test_a_plain_card_writes_fitting_diff_rows_without_making_their_texts() -> None:
    rows = [
        DiffRow("-", 12, None, "    return old(x)"),
        DiffRow("+", None, 12, "    return new(x)  # 名前"),
        DiffRow(" ", 13, 13, "\treturn"),
    ]
    counted = CountedRows(rows, 2)
    made = card(Group(Text("src/app.py"), counted))
    assert isinstance(made, Card)
    reference = as_rich_draws(card(Group(Text("src/app.py"), *texts_row_by_row(rows, 2))))
    assert drawn(made, "plain", 60) == drawn(reference, "plain", 60)
    assert counted.made == 0
    # A row cut at the card's edge is laid out by rich, from the texts.
    assert drawn(made, "plain", 20) == drawn(reference, "plain", 20)
    assert counted.made == 1
    # In colour the rows are drawn as their texts.
    assert drawn(made, "truecolor", 60) == drawn(reference, "truecolor", 60)
    assert counted.made == 2
