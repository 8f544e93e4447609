"""Without colour, a block of the model's text that is a line of plain words is written as its
bare text: the bytes rich's Markdown draws of it, or nothing for any other block."""

from __future__ import annotations

import io

from hypothesis import event, given, settings
from hypothesis import strategies as st
from rich.console import Console

from tether.render.markdown import bare_block, markdown
from tether.render.written import bare_options

WORDS = st.lists(
    st.sampled_from([*"Abc xyz", "名", "é", ".", "  ", "1", "*", "`", "#", "-", "\n", "\t", "_"]),
    min_size=1,
    max_size=50,
).map("".join)


PLAIN = st.text(st.sampled_from([*"Abc xyz.,é名"]), min_size=1, max_size=60)


@settings(max_examples=150, deadline=None)
@given(block=st.one_of(PLAIN, WORDS), width=st.integers(1, 90))
def test_a_bare_block_is_what_rich_s_markdown_draws(block: str, width: int) -> None:
    console = Console(file=io.StringIO(), width=width, color_system=None, highlight=False)
    options = bare_options(console)
    assert options is not None
    bare = bare_block(block, console, options)
    event(f"bare {bare is not None}")
    if bare is not None:
        reference = Console(file=io.StringIO(), width=width, color_system=None, highlight=False)
        reference.print(markdown(block))
        assert isinstance(reference.file, io.StringIO)
        assert bare == reference.file.getvalue()
