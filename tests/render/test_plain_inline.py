"""A paragraph of code spans and `*` emphasis read in one pass gives the text rich's Markdown
shows of it (markdown-it's reading), and a long one is drawn as rich draws it whole."""

from __future__ import annotations

import io
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich._wrap import divide_line
from rich.console import Console

from tether.render.long_paragraph import LongParagraph, _single_cell_breaks, _text_of
from tether.render.markdown import markdown
from tether.render.markdown_parser import block_parser, inline_parser
from tether.render.plain_inline import plain_inline
from tether.render.written import print_renderable

# Words, punctuation and white space of every kind beside the marks, runs of every length.
PIECES = st.sampled_from(
    [
        *["a", "bc", "名前", "é", "9", ".", ",", "(", ")", '"', "—", "+", "#", "-", "'", "€"],
        *[" ", " ", "  ", "   ", "\n", "\n", "  \n", " \n", "\n  ", "\u00a0", "\u3000", "\x0b"],
        *["*", "*", "**", "**", "***", "****", "*****", "`", "``", "```", "` ", " `", "`a`"],
        *["*a*", "**a**", "***a***", "*a", "a*", "**a", "a**", "`` ` ``", "` a `", "`  `", "`\n`"],
    ]
)
SOURCES = st.lists(PIECES, min_size=1, max_size=40).map("".join)


def rich_plain(source: str) -> str | None:
    """What rich's Markdown shows of `source` as one paragraph, as plain text (None if
    markdown-it does not read it as one paragraph)."""
    env: dict[str, Any] = {}
    tokens = block_parser().parse(source, env)
    if [token.type for token in tokens] != ["paragraph_open", "inline", "paragraph_close"]:
        return None
    if not tokens[1].content:
        return ""  # rich draws an empty paragraph's line itself
    console = Console(file=io.StringIO(), width=80, color_system=None)
    read = inline_parser().parseInline(tokens[1].content, env)
    text, _ = _text_of(console, console.options, tokens, read)
    return text.plain


@settings(max_examples=1500, deadline=None)
@given(source=SOURCES)
@example(source="*a **b** c*")
@example(source="***a* b**")
@example(source="a*** b* c**")
@example(source="*a\n*")
@example(source="``a`")
@example(source="**a*bb******a****b**")
def test_a_paragraph_of_code_and_emphasis_reads_as_markdown_it_reads_it(source: str) -> None:
    shown = rich_plain(source)
    if shown is None:
        return
    env: dict[str, Any] = {}
    content = block_parser().parse(source, env)[1].content
    read = plain_inline(content)
    if read is None:
        assert any(code in source for code in "\x0b\x0c")  # left to markdown-it
        return
    assert "".join(read) == shown


def test_a_paragraph_with_other_marks_is_left_to_markdown_it() -> None:
    others = ("a \\* b", "[a](b)", "![a](b)", "<b>", "&amp;", "_a_", "~~a~~", "a\tb", "a\x0cb")
    for source in others:
        assert plain_inline(source) is None


def written(block: str, width: int, sizes: tuple[int, int, int] | None) -> str:
    """What is written of `block` without colour: a piece at a time, or rich's Markdown."""
    out = io.StringIO()
    console = Console(file=out, width=width, height=25, highlight=False, color_system=None)
    if sizes is None:
        console.print(markdown(block))
    else:
        group, most, window = sizes
        print_renderable(console, LongParagraph(block, group=group, most=most, window=window))
    return out.getvalue()


@settings(max_examples=400, deadline=None)
@given(
    block=SOURCES.filter(lambda block: block.strip() != ""),
    width=st.integers(1, 60),
    window=st.integers(1, 120),
)
@example(block="名前 **a** `b`", width=1, window=1)
@example(block="名名    b  c", width=3, window=200)
def test_a_paragraph_read_in_one_pass_is_drawn_as_rich_draws_it(
    *, block: str, width: int, window: int
) -> None:
    assert written(block, width, (20, 200, window)) == written(block, width, None)


@settings(max_examples=500, deadline=None)
@given(
    line=st.lists(st.sampled_from(["a", "b", " ", "cdefghij", "   ", "-"]), max_size=20).map(
        "".join
    ),
    width=st.integers(1, 12),
)
def test_a_line_of_one_cell_characters_wraps_where_rich_wraps_it(line: str, width: int) -> None:
    assert _single_cell_breaks(line, width) == divide_line(line, width, fold=True)
