"""The theme's `printable`: what a card or a list prints of text it does not control."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tether.render.theme import printable


def test_control_characters_are_shown_and_tab_and_newline_keep_their_meaning() -> None:
    assert printable("a\tb\nc\x1b[2J\x7f\x85") == "a\tb\nc\u241b[2J\u2421\ufffd"


def test_on_one_line_tabs_and_line_breaks_are_shown_too() -> None:
    text = "a\tb\r\nc\x1b[2J\x7f\x85"
    assert printable(text, one_line=True) == "a\u2409b\u240d\u240ac\u241b[2J\u2421\ufffd"


@given(text=st.text(), one_line=st.booleans())
def test_any_text_keeps_only_characters_that_print_and_each_in_its_place(
    text: str, one_line: bool
) -> None:
    shown = printable(text, one_line=one_line)
    kept = "" if one_line else "\t\n"
    assert len(shown) == len(text)
    for before, after in zip(text, shown, strict=True):
        if before.isprintable() or before in kept:
            assert after == before
        elif ord(before) < 0xA0:  # C0, DEL and C1 controls become a picture
            assert after != before and after.isprintable()
