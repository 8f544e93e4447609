"""`fitting_rows`: the lines of a text, padded to a width, when each fits as it is, for texts of
many lines as for one (a card's output, its notes), whichever way it measures them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from tether.render.bare_rows import fitting_rows

PIECE = st.one_of(
    st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=12),
    st.sampled_from(["名前", "e\u0301", "…", "│", "\x1b", "\r", "\x07", "🎉", "\u200b", " "]),
)
ROW = st.lists(PIECE, max_size=4).map("".join)


def row_by_row(plain: str, width: int) -> list[str] | None:
    """Each row measured in cells and padded, or None when one is wider (no tab: rich's)."""
    if "\t" in plain:
        return None
    padded = []
    for row in plain.split("\n"):
        used = cell_len(row)
        if used > width:
            return None
        padded.append(row + " " * (width - used))
    return padded


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(ROW, min_size=1, max_size=5), width=st.integers(0, 30))
def test_rows_are_padded_as_each_row_measures(rows: list[str], width: int) -> None:
    plain = "\n".join(rows)
    assert fitting_rows(plain, width) == row_by_row(plain, width)


def test_a_row_of_wide_characters_after_plain_ones_is_measured_in_cells() -> None:
    # Three plain rows, then one whose two characters take four cells: it does not fit in 3.
    assert fitting_rows("abc\nde\nf\n名前", 3) is None
    assert fitting_rows("abc\nde\nf\n名前", 4) == ["abc ", "de  ", "f   ", "名前"]
    assert fitting_rows("ab\ncd", 3) == ["ab ", "cd "]
