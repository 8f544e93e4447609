"""Where the cursor is once a rewrapping terminal got narrower, and which terminals rewrap."""

from __future__ import annotations

import pytest
from prompt_toolkit.data_structures import Point
from prompt_toolkit.layout.screen import Char

from tether.cli.interactive.reflow import reflowed_cursor, rewraps


def _line(text: str) -> dict[int, Char]:
    return {x: Char(c) for x, c in enumerate(text)}


def test_each_line_above_the_cursor_counts_the_rows_it_takes_now() -> None:
    drawn = {
        0: _line("⠋ thinking · 0.0s"),  # short: one row still
        1: _line(" "),  # blank: one row
        2: _line("─" * 120),  # two rows at 60 columns, three at 50
        3: _line("› draft"),
    }
    assert reflowed_cursor(drawn, Point(x=9, y=3), 60) == Point(x=9, y=4)
    assert reflowed_cursor(drawn, Point(x=9, y=3), 50) == Point(x=9, y=5)
    # A cursor past the new width is on a row of its line further down.
    assert reflowed_cursor(drawn, Point(x=70, y=3), 60) == Point(x=10, y=5)


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color"}, True),
        ({"TERM_PROGRAM": "iTerm.app", "TERM": "xterm-256color"}, True),
        ({"VTE_VERSION": "7600", "TERM": "xterm-256color"}, True),
        ({"TERM": "xterm-kitty"}, True),
        ({"WT_SESSION": "x", "TERM": "xterm-256color"}, True),
        ({"XTERM_VERSION": "XTerm(390)", "TERM": "xterm-256color"}, False),
        ({"TERM": "linux"}, False),
        ({"TERM": "xterm-256color"}, False),  # unknown: moving up too far would erase text
    ],
)
def test_only_terminals_known_to_rewrap_count_as_such(
    environ: dict[str, str], expected: bool
) -> None:
    assert rewraps(environ) is expected
