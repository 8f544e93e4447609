"""A long paragraph drawn a piece at a time gives the bytes rich's Markdown of the whole
block gives, for any marks, breaks and widths, and holds a bounded part of it meanwhile."""

from __future__ import annotations

import io
import tracemalloc
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.console import Console

from tests.render.helpers import KINDS, paragraph_written
from tether.render.long_paragraph import LONG, LongParagraph, _paragraph
from tether.render.markdown import text_block
from tether.render.markdown_parser import block_parser
from tether.render.written import print_renderable

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
    [
        *["# A heading", "- an item", "", "> quoted", "\tafter a tab", "![i](x)", "===", "---"],
        *["1. one", "10) ten", "+ plus", "* star", "```", "~~~ fence", "<div>", "***", "___"],
        *["[ref]: http://r", "| a | b |\n|---|---|", ":-|-", "    four in", "a\r\nb", "a\x00b"],
    ]
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


@settings(max_examples=150, deadline=None)
@given(
    block=paragraphs(),
    width=st.integers(1, 60),
    kind=st.sampled_from(list(KINDS)),
    group=st.integers(1, 80),
    most=st.integers(20, 300),
    window=st.integers(1, 120),
)
# A group of lines may not end where the next line is indented, nor where this one ends in
# white space or a backslash (a break markdown-it reads with the next line): in groups of one.
@example(block="alpha\n 2", width=1, kind="plain", group=1, most=20, window=1)
@example(block="alpha\\\nalpha", width=1, kind="plain", group=1, most=20, window=1)
@example(block="alpha \n2", width=1, kind="plain", group=1, most=20, window=1)
def test_a_paragraph_drawn_in_pieces_is_what_rich_draws_of_it_whole(
    *, block: str, width: int, kind: str, group: int, most: int, window: int
) -> None:
    whole = paragraph_written(block, kind, width, None)
    assert paragraph_written(block, kind, width, (group, most, window)) == whole


# Any line, as a model might write it: prose, marks that start blocks, indents, blank lines.
BLOCK_STARTS = [
    *["=", "==", "-", "---", "- ", "| a |", "|-|", "a | b", "|-|-|", "-|-", ":-|-:", "1. ", "1)"],
    *["2. ", "0. ", "# ", "#", "> ", ">", "* ", "***", "+ ", "_ _ _", "___", "```", "~~~"],
    *["<div>", "<!--", "<a>", "[a]: /u", "[a]", "9", "\\", "&amp;", "`", "!", ""],
]
SOURCE_LINES = st.one_of(
    st.sampled_from(["", " ", "a", "b c"]),
    st.tuples(
        st.sampled_from(["", "", "", " ", "   ", "    ", "\t", "\u00a0"]),
        st.sampled_from(["", "a", "a", "b c", "名", *BLOCK_STARTS]),
        st.sampled_from(
            ["", "", " x", "a b", "|", "-", " -", "=", "\r", "\x00", "\x0c", " ", "  "]
        ),
        st.sampled_from(["", "", "", "\u00a0", "\u3000", " ", "  ", "\x1c"]),
    ).map("".join),
)


@settings(max_examples=250, deadline=None)
@given(lines=st.lists(SOURCE_LINES, min_size=1, max_size=8))
@example(lines=["a", "", "b"])
@example(lines=["a", "==="])
@example(lines=["x", "a | b", "-|-"])
@example(lines=["a | b", ":-|-:"])
@example(lines=["0. a"])
@example(lines=["a", "1. b"])
@example(lines=["a\x00b"])
@example(lines=["a\rb"])
@example(lines=["_ _ _"])  # a rule of underscores
@example(lines=["a\x1c"])  # white space to Python, kept at the end by markdown-it
@example(lines=["a "])  # the paragraph's text is trimmed
def test_a_block_read_as_one_paragraph_without_the_block_parser_is_what_it_reads(
    lines: list[str],
) -> None:
    read_alike("\n".join(lines))


def test_every_line_start_that_may_begin_a_block_is_left_to_the_block_parser() -> None:
    for start in BLOCK_STARTS:
        for indent in ("", " ", "   ", "    "):
            for lines in ([start], [start + " x"], ["a", start], ["a", start + " x"], [start, "="]):
                read_alike("\n".join(indent + line for line in lines))


def read_alike(block: str) -> None:
    """`_paragraph` gives the block parser's tokens of `block` when it is one paragraph (and
    its references), and None when it is not."""
    if not block:
        return
    env: dict[str, Any] = {}
    parsed = block_parser().parse(block, env)
    kept: dict[str, Any] = {}
    found = _paragraph(block, kept)
    one = [token.type for token in parsed] == ["paragraph_open", "inline", "paragraph_close"]
    if found is None:
        assert not one, block
    else:
        assert one, block
        assert [(t.type, t.tag, t.nesting, t.content) for t in found] == [
            (t.type, t.tag, t.nesting, t.content) for t in parsed
        ], block
        assert kept == env


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
    assert out.getvalue() == paragraph_written(block, "plain", 100, None)


def test_a_word_too_wide_for_any_line_is_folded_as_rich_folds_it() -> None:
    # rich folds a word wider than the line from where it starts in the paragraph; cut before
    # it, it would start a text of its own and fold otherwise.
    for block in ("alpha 名前", "ab 名前 cd\nef 名 gh", "x " + "y" * 30 + " z"):
        for width in (1, 2, 3, 5):
            pieces = paragraph_written(block, "plain", width, (1, 20, 1))
            assert pieces == paragraph_written(block, "plain", width, None), (block, width)


def test_white_space_that_starts_a_line_is_folded_as_rich_folds_it() -> None:
    # rich's first word of a line holds the white space before it: where that is folded, a
    # break after the white space is inside that word, not before the next.
    for kind in KINDS:
        for block in ("` ` a `a", "`   ` b c"):
            pieces = paragraph_written(block, kind, 1, (20, 200, 1))
            assert pieces == paragraph_written(block, kind, 1, None), (block, kind)
