"""Without colour, a command's card is written as text made from its view alone: the bytes rich
draws of the card, for any command, output, ending and width, or nothing where rich must lay it
out (colours to decode, a line to wrap)."""

from __future__ import annotations

import io

from hypothesis import event, example, given, settings
from hypothesis import strategies as st
from rich.console import Console

from tests.render.helpers import as_rich_draws, drawn
from tether.render.frame import Card
from tether.render.terminal_card import (
    COLLAPSE_OVER,
    bare_terminal_result,
    render_terminal_result,
)
from tether.render.written import bare_options
from tether.views import TerminalCallView, TerminalResultView

ASCII = st.characters(min_codepoint=0x20, max_codepoint=0x7E)
RARE = st.sampled_from(["\t", "\n", "\x1b[31m", "\x07", "\x85", "名", "e\u0301", "\u200b", "…"])
PLAIN = st.text(ASCII, max_size=40)
WORDS = st.one_of(PLAIN, PLAIN, st.lists(st.one_of(ASCII, RARE), max_size=20).map("".join))
OUTPUT = st.one_of(
    st.none(),
    st.lists(PLAIN, max_size=45).map("\n".join),
    st.lists(WORDS, max_size=45).map("\n".join),
)


@st.composite
def results(draw: st.DrawFn) -> tuple[TerminalResultView, TerminalCallView | None]:
    """A finished command, and the call that ran it (or none)."""
    ended = draw(st.sampled_from(["exit", "signal", "neither"]))
    view = TerminalResultView(
        title=draw(st.one_of(st.none(), WORDS)),
        output=draw(OUTPUT),
        exit_code=draw(st.integers(0, 255)) if ended == "exit" else None,
        signal=draw(WORDS) if ended == "signal" else None,
        notes=draw(st.one_of(st.none(), st.lists(WORDS, max_size=2).map(tuple))),
    )
    call = draw(
        st.one_of(
            st.none(),
            st.builds(
                TerminalCallView,
                title=WORDS,
                description=st.one_of(st.none(), WORDS),
                sandbox=st.one_of(st.none(), WORDS),
            ),
        )
    )
    return view, call


def collapsible(lines: int) -> tuple[TerminalResultView, None]:
    """A command of `lines` lines of output (at the edge of collapsing them)."""
    output = "\n".join(f"line {n}" for n in range(lines))
    return TerminalResultView(title="seq", output=output, exit_code=0), None


@settings(max_examples=150, deadline=None)
@example(made=collapsible(COLLAPSE_OVER), full=False, proposed=False, failed=False, width=30)
@example(made=collapsible(COLLAPSE_OVER + 1), full=False, proposed=False, failed=False, width=30)
@given(
    made=results(),
    full=st.booleans(),
    proposed=st.booleans(),
    failed=st.booleans(),
    width=st.sampled_from([5, 12, 30, 47, 80]),
)
def test_a_bare_command_card_is_what_rich_draws(
    made: tuple[TerminalResultView, TerminalCallView | None],
    full: bool,
    proposed: bool,
    failed: bool,
    width: int,
) -> None:
    view, call = made
    console = Console(file=io.StringIO(), width=width, color_system=None, highlight=False)
    options = bare_options(console)
    assert options is not None
    flags = {"full": full, "proposed": proposed, "failed": failed}
    bare = bare_terminal_result(view, console, options, call, **flags)
    event(f"bare {bare is not None}")
    card = render_terminal_result(view, call, **flags)
    assert isinstance(card, Card)
    if bare is not None:
        assert bare == drawn(as_rich_draws(card), "plain", width)


def test_a_command_card_that_fits_is_written_bare() -> None:
    output = "\n".join(f"output line {n}" for n in range(1, 81))
    view = TerminalResultView(title="seq 1 80", output=output, exit_code=0)
    call = TerminalCallView(title="seq 1 80", description="List", sandbox="sandbox: on")
    console = Console(file=io.StringIO(), width=60, color_system=None, highlight=False)
    options = bare_options(console)
    assert options is not None
    bare = bare_terminal_result(view, console, options, call, full=False)
    assert bare is not None
    assert bare == drawn(as_rich_draws(render_terminal_result(view, call, full=False)), "plain", 60)
    assert "… 60 earlier lines" in bare and bare.rstrip().endswith("sandbox: on  exit 0 ─╯")
    coloured = TerminalResultView(title="ls", output="\x1b[31mred\x1b[0m", exit_code=1)
    assert bare_terminal_result(coloured, console, options) is None  # rich decodes colours
