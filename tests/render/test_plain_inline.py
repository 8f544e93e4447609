"""A paragraph of code spans and emphasis read in one pass gives the text rich's Markdown
shows of it (markdown-it's reading), and a long one is drawn as rich draws it whole."""

from __future__ import annotations

import io
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich._wrap import divide_line
from rich.console import Console

from tests.render.helpers import paragraph_written
from tether.render.long_paragraph import _single_cell_breaks, _text_of
from tether.render.markdown_parser import block_parser, inline_parser
from tether.render.plain_inline import plain_inline

# Words, punctuation and white space of every kind beside the marks, runs of every length.
PIECES = st.sampled_from(
    [
        *["a", "bc", "名前", "é", "9", ".", ",", "(", ")", '"', "—", "+", "#", "-", "'", "€"],
        *[" ", " ", "  ", "   ", "\n", "\n", "  \n", " \n", "\n  ", "\u00a0", "\u3000", "\x0b"],
        *["*", "*", "**", "**", "***", "****", "*****", "`", "``", "```", "` ", " `", "`a`"],
        *["*a*", "**a**", "***a***", "*a", "a*", "**a", "a**", "`` ` ``", "` a `", "`  `", "`\n`"],
        *["_", "__", "___", "_a_", "__a__", "a_b", "_a", "a_", "__a", "a__", "*_", "_*", "**_a_**"],
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
    others = ("a \\* b", "[a](b)", "![a](b)", "<b>", "&amp;", "~~a~~", "a\tb", "a\x0cb")
    for source in others:
        assert plain_inline(source) is None


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
    pieces = paragraph_written(block, "plain", width, (20, 200, window))
    assert pieces == paragraph_written(block, "plain", width, None)


@settings(max_examples=500, deadline=None)
@given(
    line=st.lists(st.sampled_from(["a", "b", " ", "cdefghij", "   ", "-"]), max_size=20).map(
        "".join
    ),
    width=st.integers(1, 12),
)
def test_a_line_of_one_cell_characters_wraps_where_rich_wraps_it(line: str, width: int) -> None:
    assert _single_cell_breaks(line, width) == divide_line(line, width, fold=True)


def test_names_with_underscores_are_read_in_one_pass() -> None:
    # A reply naming `snake_case` things, in code spans or not, needs no Markdown parser.
    source = "set `max_tokens` in the_config, then *run_it* and __done__"
    read = plain_inline(source)
    assert read is not None
    assert (
        "".join(read) == rich_plain(source) == "set max_tokens in the_config, then run_it and done"
    )
