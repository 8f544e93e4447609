"""`assembled` makes the text `Text.assemble` makes of the same pieces, drawn the same."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.style import Style
from rich.text import Text

from tests.render.helpers import ALPHABET, CONSOLES, drawn
from tether.render.theme import GUTTER, HEADING, SUBTLE, assembled

PIECES = st.lists(
    st.one_of(
        st.lists(ALPHABET, max_size=8).map("".join),
        st.tuples(
            st.lists(ALPHABET, max_size=8).map("".join),
            st.sampled_from([Style(), GUTTER, HEADING, SUBTLE, "bold", "", "dim italic"]),
        ),
    ),
    max_size=5,
)


@settings(max_examples=300, deadline=None)
@given(pieces=PIECES, width=st.sampled_from([3, 20, 60]), kind=st.sampled_from(list(CONSOLES)))
def test_assembled_is_what_text_assemble_makes(
    pieces: list[str | tuple[str, Style | str]], width: int, kind: str
) -> None:
    ours, theirs = assembled(*pieces), Text.assemble(*pieces)
    assert (ours.plain, ours.spans, ours.style, ours.end) == (
        theirs.plain,
        theirs.spans,
        theirs.style,
        theirs.end,
    )
    assert (ours.tab_size, ours.justify, ours.no_wrap, ours.overflow) == (
        theirs.tab_size,
        theirs.justify,
        theirs.no_wrap,
        theirs.overflow,
    )
    assert drawn(ours, kind, width) == drawn(theirs, kind, width)
