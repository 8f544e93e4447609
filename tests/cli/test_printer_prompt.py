"""A prompt the printer writes directly, once the cards are loaded, is the text
`Console.print` writes of it: any prompt, on any console, at any width."""

from __future__ import annotations

import io
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text

import tether.render.written  # noqa: F401  # the cards' writer, as after a first card
from tether.cli.printer import Printer
from tether.session.updates import UserText

CONSOLES: dict[str, dict[str, Any]] = {
    "plain": {"color_system": None},
    "terminal without colour": {"color_system": None, "force_terminal": True},
    "truecolor": {"color_system": "truecolor", "force_terminal": True},
    "no colour": {"color_system": "truecolor", "force_terminal": True, "no_color": True},
}
PROMPTS = st.one_of(
    st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=60),
    st.lists(
        st.sampled_from([*"ab z", "  ", "\t", "\n", "名", "🎉", "e\u0301", "\u200b", "\x1b", "…"]),
        max_size=40,
    ).map("".join),
)


def console_of(kind: str, width: int) -> tuple[Console, io.StringIO]:
    """A console of `kind` at `width` writing to a string."""
    out = io.StringIO()
    return Console(file=out, width=width, height=25, highlight=False, **CONSOLES[kind]), out


@settings(max_examples=150, deadline=None)
@given(prompt=PROMPTS, width=st.integers(1, 50), kind=st.sampled_from(list(CONSOLES)))
def test_a_prompt_is_written_as_console_print_writes_it(prompt: str, width: int, kind: str) -> None:
    console, out = console_of(kind, width)
    printer = Printer(console, console)
    printer(UserText(text=prompt))
    printer.close()
    reference, expected = console_of(kind, width)
    reference.print(Text(f"> {prompt}", style="bold"))
    assert out.getvalue() == expected.getvalue()
    assert not printer.failed
