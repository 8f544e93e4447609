"""Where the cursor is once a rewrapping terminal got narrower, and which terminals rewrap."""

from __future__ import annotations

import io

import pytest
from prompt_toolkit.application.current import set_app
from prompt_toolkit.data_structures import Point, Size
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.layout import FormattedTextControl, Layout, Window
from prompt_toolkit.layout.screen import Char
from prompt_toolkit.output.vt100 import Vt100_Output

from tether.cli.interactive.reflow import RewrappingApplication, reflowed_cursor, rewraps


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


class _Terminal:
    """What the renderer writes, and a width the test changes (as a resize does)."""

    def __init__(self) -> None:
        self.written = io.StringIO()
        self.size = Size(rows=20, columns=120)

    def output(self) -> Vt100_Output:
        return Vt100_Output(self.written, lambda: self.size, term="xterm-256color")

    def take(self) -> str:
        text = self.written.getvalue()
        self.written.seek(0)
        self.written.truncate()
        return text


@pytest.mark.parametrize("first", ["a tick", "text printed above"])
def test_what_draws_first_after_a_narrowing_starts_from_the_rewrapped_top(
    monkeypatch: pytest.MonkeyPatch, first: str
) -> None:
    """A spinner's tick, or text printed above the screen, may come before the resize's own
    redraw (its handler runs after them on a busy loop): it moves up as far as the terminal
    rewrapped the frame, or the spinner line stays behind in the scrollback."""
    monkeypatch.setenv("TMUX", "/tmp/tmux-0/default,1,0")
    terminal = _Terminal()
    # As tether's screen draws it: the spinner, the input box's rule, the draft (the cursor in it).
    above = "⠋ thinking · 0.0s\n" + "─" * 120 + "\n› "
    frame: StyleAndTextTuples = [("", above), ("[SetCursorPosition]", ""), ("", "draft")]
    with create_pipe_input() as keys:
        app = RewrappingApplication(
            layout=Layout(Window(FormattedTextControl(frame, focusable=True))),
            output=terminal.output(),
            input=keys,
        )
        with set_app(app):
            app.renderer.render(app, app.layout)
            assert app.renderer._cursor_pos.y == 2  # on the third line, at 120 columns
            terminal.take()
            terminal.size = Size(rows=20, columns=60)  # the rule now takes two rows
            if first == "a tick":
                app.renderer.render(app, app.layout)
            else:
                app.renderer.erase(leave_alternate_screen=False)
    assert "\x1b[3A" in terminal.take()  # up to the spinner's row, not the rule's first
