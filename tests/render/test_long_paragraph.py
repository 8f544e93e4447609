"""A long paragraph drawn a piece at a time gives the bytes rich's Markdown of the whole
block gives, for any marks, breaks and widths, and holds a bounded part of it meanwhile."""

from __future__ import annotations

import io
import tracemalloc
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from tether.render.long_paragraph import LONG, LongParagraph
from tether.render.markdown import markdown, text_block
from tether.render.written import print_renderable

KINDS: dict[str, dict[str, Any]] = {
    "plain": {"color_system": None},
    "truecolor": {"color_system": "truecolor", "force_terminal": True},
}
# Words, marks closed on their line or left open across lines, hard breaks, indents, escapes,
# wide and combining characters, long words to fold; now and then what is not a paragraph.
PIECES = st.sampled_from(
    [
        *["alpha", "beta", "gamma", "名前", "e\u0301", "x" * 45, "a-b", "2", "!", "&amp;"],
        *["`code`", "**bold**", "*em*", "_under_", "~~gone~~", "[a link](http://x.org)"],
        *["<kbd>K</kbd>", "<b>", "\\*", "*", "**", "`", "[", "]", "_", "~~", "<", "&"],
        *["`` a ` b ``", "**open", "close**", "[label", "](http://y)"],
    ]
)
LINE_ENDS = st.sampled_from(["", "", "", " ", "  ", "\\"])
LINE_STARTS = st.sampled_from(["", "", "", " ", "   "])
ODD_LINES = st.sampled_from(
    ["# A heading", "- an item", "", "> quoted", "\tafter a tab", "![i](x)"]
)


@st.composite
def paragraphs(draw: st.DrawFn) -> str:
    """Lines of pieces, each with what may start and end it."""
    lines = []
    for _ in range(draw(st.integers(1, 25))):
        words = draw(st.lists(PIECES, min_size=1, max_size=8))
        line = draw(LINE_STARTS) + " ".join(words) + draw(LINE_ENDS)
        if draw(st.integers(0, 30)) == 0:
            line = draw(ODD_LINES)
        lines.append(line)
    return "\n".join(lines)


def written(block: str, kind: str, width: int, sizes: tuple[int, int, int] | None) -> str:
    """What is written of `block`: a piece at a time (`sizes`), or rich's Markdown whole."""
    out = io.StringIO()
    console = Console(file=out, width=width, height=25, highlight=False, **KINDS[kind])
    if sizes is None:
        console.print(markdown(block))
    else:
        group, most, window = sizes
        print_renderable(console, LongParagraph(block, group=group, most=most, window=window))
    return out.getvalue()


@settings(max_examples=400, deadline=None)
@given(
    block=paragraphs(),
    width=st.integers(1, 60),
    kind=st.sampled_from(list(KINDS)),
    group=st.integers(1, 80),
    most=st.integers(20, 300),
    window=st.integers(1, 120),
)
def test_a_paragraph_drawn_in_pieces_is_what_rich_draws_of_it_whole(
    *, block: str, width: int, kind: str, group: int, most: int, window: int
) -> None:
    whole = written(block, kind, width, None)
    assert written(block, kind, width, (group, most, window)) == whole


def test_a_long_block_is_a_long_paragraph_and_a_short_one_is_not() -> None:
    assert isinstance(text_block("word " * (LONG // 5 + 1)), LongParagraph)
    assert not isinstance(text_block("word " * 100), LongParagraph)


def test_a_reply_of_many_chunks_is_drawn_holding_a_bounded_part_of_it() -> None:
    words = ("alpha ", "beta ", "gamma\n", "delta ", "`code` ", "**bold** ")
    block = "".join(words[number % len(words)] for number in range(40_000))  # 260 KB
    out = io.StringIO()
    console = Console(file=out, width=100, height=25, highlight=False, color_system=None)
    tracemalloc.start()
    try:
        print_renderable(console, text_block(block))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # rich's Markdown of it whole takes about 30 MB (its tokens, then every line laid out);
    # the output itself is 230 KB.
    assert peak < 8_000_000, peak
    assert out.getvalue() == written(block, "plain", 100, None)


def test_a_word_too_wide_for_any_line_is_folded_as_rich_folds_it() -> None:
    # rich folds a word wider than the line from where it starts in the paragraph; cut before
    # it, it would start a text of its own and fold otherwise.
    for block in ("alpha 名前", "ab 名前 cd\nef 名 gh", "x " + "y" * 30 + " z"):
        for width in (1, 2, 3, 5):
            pieces = written(block, "plain", width, (1, 20, 1))
            assert pieces == written(block, "plain", width, None), (block, width)
