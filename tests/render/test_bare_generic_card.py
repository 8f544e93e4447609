"""Without colour, a plain result's card (a failure's too) is written as text made from its
view alone: the bytes rich draws of the card, or nothing where rich must lay it out."""

from __future__ import annotations

import io

from hypothesis import event, given, settings
from hypothesis import strategies as st
from rich.console import Console

from tests.render.helpers import as_rich_draws, drawn
from tether.render.frame import Card
from tether.render.generic_card import bare_generic_result, render_generic_result
from tether.render.written import bare_options
from tether.views import GenericResultView, ImageAttachment

ASCII = st.characters(min_codepoint=0x20, max_codepoint=0x7E)
RARE = st.sampled_from(["\t", "\n", "\x1b", "\x07", "\x85", "名", "e\u0301", "\u200b", "…"])
PLAIN = st.text(ASCII, max_size=60)
WORDS = st.one_of(PLAIN, PLAIN, st.lists(st.one_of(ASCII, RARE), max_size=30).map("".join))


@settings(max_examples=150, deadline=None)
@given(
    view=st.builds(
        GenericResultView,
        title=st.one_of(st.none(), WORDS),
        content=st.one_of(st.none(), WORDS, st.lists(PLAIN, max_size=4).map("\n".join)),
        markdown=st.one_of(st.none(), st.booleans()),
    ),
    call_title=st.one_of(st.none(), WORDS),
    failed=st.booleans(),
    width=st.sampled_from([5, 12, 30, 47, 80]),
)
def test_a_bare_result_card_is_what_rich_draws(
    view: GenericResultView, call_title: str | None, failed: bool, width: int
) -> None:
    console = Console(file=io.StringIO(), width=width, color_system=None, highlight=False)
    options = bare_options(console)
    assert options is not None
    bare = bare_generic_result(view, console, options, failed=failed, call_title=call_title)
    event(f"bare {bare is not None}")
    card = render_generic_result(view, failed=failed, call_title=call_title)
    assert isinstance(card, Card)
    if bare is not None:
        assert bare == drawn(as_rich_draws(card), "plain", width)


def test_a_failure_that_fits_is_written_bare_and_markdown_by_rich() -> None:
    console = Console(file=io.StringIO(), width=50, color_system=None, highlight=False)
    options = bare_options(console)
    assert options is not None
    failure = GenericResultView(content="File not found: /ws/missing.py")
    bare = bare_generic_result(failure, console, options, failed=True, call_title="Read x.py")
    assert bare == drawn(
        as_rich_draws(render_generic_result(failure, failed=True, call_title="Read x.py")),
        "plain",
        50,
    )
    assert bare is not None and bare.splitlines()[-1].endswith("─ failed ─╯")
    plan = GenericResultView(content="# Plan\n\n- one", markdown=True)
    assert bare_generic_result(plan, console, options) is None
    image = GenericResultView(
        content="a chart", attachments=(ImageAttachment(mime_type="image/png", bytes=10),)
    )
    assert bare_generic_result(image, console, options) is None
