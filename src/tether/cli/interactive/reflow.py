"""Erasing the live screen after the terminal narrowed, in terminals that reflow.

When a terminal gets narrower, most of today's terminals (tmux, iTerm2, Terminal.app, VTE's,
kitty, WezTerm, Alacritty, Konsole, Windows Terminal, VS Code's) rewrap every line wider than
the new width onto several rows; xterm, rxvt and the Linux console cut it instead. To redraw,
prompt_toolkit moves up as many rows as it drew above the cursor, which after a rewrap is too
few: the top of the old screen (the spinner line) was left in the scrollback. In a terminal
known to rewrap, the rows are counted as the terminal now holds them; in any other, nothing
changes (moving up too far there would erase the conversation above the screen).
The count is made by whatever draws or erases first at the new width, which on a busy
machine is not always the resize's own redraw.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Point
from prompt_toolkit.layout import Layout
from prompt_toolkit.layout.screen import Char
from prompt_toolkit.renderer import Renderer

__all__ = ["RewrappingApplication", "RewrappingRenderer", "reflowed_cursor", "rewraps"]

_PROGRAMS = ("iTerm.app", "Apple_Terminal", "vscode", "WezTerm", "ghostty", "Tabby", "Hyper")
"""`$TERM_PROGRAM` of terminals that rewrap."""
_MARKS = ("TMUX", "VTE_VERSION", "KONSOLE_VERSION", "WT_SESSION", "KITTY_WINDOW_ID")
"""Variables that only terminals that rewrap set (tmux inside its panes)."""
_TERMS = ("xterm-kitty", "alacritty", "xterm-ghostty", "wezterm", "foot")
"""`$TERM` values of terminals that rewrap."""


def rewraps(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the terminal is one known to rewrap long lines when it gets narrower."""
    env = os.environ if environ is None else environ
    if any(env.get(name) for name in _MARKS):
        return True
    return env.get("TERM_PROGRAM", "") in _PROGRAMS or env.get("TERM", "") in _TERMS


def reflowed_cursor(rows: Mapping[int, Mapping[int, Char]], cursor: Point, width: int) -> Point:
    """Where the cursor is relative to the top of what was drawn (`rows`, with the cursor at
    `cursor`), once each drawn line is rewrapped at `width` columns."""
    above = sum(_rows(rows.get(y, {}), width) for y in range(cursor.y))
    return Point(x=cursor.x % width, y=above + cursor.x // width)


def _rows(line: Mapping[int, Char], width: int) -> int:
    """The rows a drawn line takes at `width` columns: its cells up to the last one written."""
    used = max((x + 1 for x, cell in line.items() if cell.char not in ("", " ")), default=0)
    return max(1, -(-used // width))


class RewrappingRenderer(Renderer):
    """prompt_toolkit's renderer, which finds the top of its last frame as a rewrapping
    terminal holds it whenever the terminal got narrower since that frame was drawn."""

    def render(self, app: Application[Any], layout: Layout, is_done: bool = False) -> None:
        """Draw the next frame, from the top of the last one as the terminal holds it now."""
        self._rewrapped()
        super().render(app, layout, is_done)

    def erase(self, leave_alternate_screen: bool = True) -> None:
        """Erase the last frame from its top as the terminal holds it now."""
        self._rewrapped()
        super().erase(leave_alternate_screen)

    def _rewrapped(self) -> None:
        # Whatever draws first after a resize corrects the cursor: the resize's own redraw,
        # but on a busy machine as often a spinner's tick or text printed above, which run
        # before the SIGWINCH handler when they were already due (they find the new size).
        # The frame drawn next (or the erase) records the new size, so it is counted once.
        last, size = self._last_screen, self._last_size
        if last is None or size is None:
            return
        width = self.output.get_size().columns
        if 0 < width < size.columns and rewraps():
            self._cursor_pos = reflowed_cursor(last.data_buffer, self._cursor_pos, width)


class RewrappingApplication(Application[int]):
    """prompt_toolkit's application with a `RewrappingRenderer`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.renderer = RewrappingRenderer(
            self._merged_style,
            self.output,
            full_screen=self.full_screen,
            mouse_support=self.mouse_support,
            cpr_not_supported_callback=self.cpr_not_supported_callback,
        )
