"""`text_of` makes the text `Text` makes of the same string and options, drawn the same, where
it leaves out rich's pass that strips control codes (a string with none to strip)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.style import Style
from rich.text import Span, Text

from tests.render.helpers import ALPHABET, CONSOLES, drawn
from tether.render.theme import GUTTER, HEADING, NOTE, text_of

STRINGS = st.one_of(
    st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=20),
    st.lists(
        st.one_of(ALPHABET, st.sampled_from(["\r", "\x08", "\x0b", "\x0c", "–"])), max_size=20
    ).map("".join),
)


def state(text: Text) -> tuple[object, ...]:
    """Everything a `Text` keeps."""
    return (
        text.plain,
        len(text),
        text._text,
        text.spans,
        text.style,
        text.end,
        text.tab_size,
        text.justify,
        text.overflow,
        text.no_wrap,
    )


@settings(max_examples=150, deadline=None)
@given(
    plain=STRINGS,
    style=st.sampled_from(["", "bold", GUTTER, HEADING, NOTE, Style()]),
    spans=st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20)), max_size=3),
    end=st.sampled_from(["\n", ""]),
    tab_size=st.sampled_from([None, 8]),
    width=st.sampled_from([4, 30]),
    kind=st.sampled_from(list(CONSOLES)),
)
def test_text_of_is_the_text_rich_makes(
    *,
    plain: str,
    style: str | Style,
    spans: list[tuple[int, int]],
    end: str,
    tab_size: int | None,
    width: int,
    kind: str,
) -> None:
    size = len(Text(plain))  # spans within what rich keeps of the string
    marked = [Span(min(start, size), min(max(start, stop), size), "red") for start, stop in spans]
    ours = text_of(plain, style, spans=list(marked), end=end, tab_size=tab_size)
    theirs = Text(plain, style, spans=list(marked), end=end, tab_size=tab_size)
    assert state(ours) == state(theirs)
    assert drawn(ours, kind, width) == drawn(theirs, kind, width)
    # Each its own: changing one leaves the other as it was.
    ours.append("more")
    assert state(theirs) == state(
        Text(plain, style, spans=list(marked), end=end, tab_size=tab_size)
    )
