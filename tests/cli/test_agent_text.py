"""The model's streamed text cut into Markdown blocks: the same blocks however it was chunked
(`bench/show_bench.py` measures that a long block costs what each chunk adds)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tether.cli.agent_text import AgentTextBuffer, _blocks, _cut_blocks
from tether.cli.status import tail_text

_PIECES = st.sampled_from(
    [
        "a",
        "b c",
        " ",
        "  x",
        "\n",
        "\n\n",
        "\r",
        "\r\n",
        "```",
        "~~~",
        "- item",
        "    code",
        "# h",
        "\u2028",
        "\x0c",
        "text ",
        "``",
        "`",
    ]
)


def _feed_all(chunks: list[str]) -> list[str]:
    buffer = AgentTextBuffer()
    blocks: list[str] = []
    for chunk in chunks:
        blocks += buffer.feed(chunk)
    return blocks + buffer.flush()


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=40), st.data())
def test_the_blocks_do_not_depend_on_the_chunking(pieces: list[str], data: st.DataObject) -> None:
    text = "".join(pieces)
    cuts = sorted(data.draw(st.sets(st.integers(0, len(text)), max_size=12)))
    chunks = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    assert _feed_all(chunks) == _blocks(text) == _feed_all(list(text))


_ONE_LINE_PIECES = st.sampled_from(
    ["a", "b c", " ", "  x", "```", "- item", "    code", "# h", "`"]
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(_ONE_LINE_PIECES, max_size=12), st.lists(_PIECES, max_size=12)))
def test_a_text_of_one_line_is_cut_as_any_other(pieces: list[str]) -> None:
    # Text with no line end (most replies before a call) skips looking for boundaries.
    text = "".join(pieces)
    assert _blocks(text) == _cut_blocks(text)


_NEWLINE_PIECES = st.sampled_from(["a", "b c", " ", "  x", "\n", "\n\n", "```", "- item", "`"])
"""Pieces whose only line end is `\n`, the one the live tail (as `tail_text`) splits on."""


@settings(max_examples=200, deadline=None)
@given(st.lists(_NEWLINE_PIECES, max_size=40), st.integers(1, 10))
def test_the_live_tail_is_the_end_of_the_waiting_text(pieces: list[str], lines: int) -> None:
    buffer = AgentTextBuffer()
    for piece in pieces:
        buffer.feed(piece)
        if buffer.pending:
            expected = tail_text(buffer.pending_text, lines, plain=True)
            shown = tail_text(buffer.pending_tail(lines), lines, plain=True)
            assert shown.plain == expected.plain


@settings(max_examples=200, deadline=None)
@given(st.lists(_PIECES, max_size=40), st.data())
def test_whether_text_waits_does_not_depend_on_the_chunking(
    pieces: list[str], data: st.DataObject
) -> None:
    # Fed whole or a character at a time, the buffer says text waits at the same places
    # (a chunk may be empty, or white space alone).
    text = "".join(pieces)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=12)))
    chunked, single = AgentTextBuffer(), AgentTextBuffer()
    fed = 0
    for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True):
        chunked.feed(text[a:b])
        for character in text[fed:b]:
            single.feed(character)
        fed = b
        assert chunked.pending == single.pending
        assert chunked.pending_text == single.pending_text
