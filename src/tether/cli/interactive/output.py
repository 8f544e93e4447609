"""The terminal output the screen draws through: prompt_toolkit's, erasing without a trace.

To erase the live screen, prompt_toolkit moves to its top and sends "erase below" (`ESC [J`).
When the live screen starts at the terminal's top-left corner (a fresh tmux pane, or after
`clear`), tmux takes that for a clear of the whole screen and, with its `scroll-on-clear`
option (on by default), scrolls what was there into the history first: the empty input box
and the status bar were left at the top of the scrollback at the first prompt. Here the line
under the cursor is erased on its own and "erase below" is sent from the next line, which
erases the same cells and is never a clear of the whole screen.
"""

from __future__ import annotations

import sys

from prompt_toolkit.output import ColorDepth
from prompt_toolkit.output.vt100 import Vt100_Output
from prompt_toolkit.utils import get_bell_environment_variable, get_term_environment_variable

__all__ = ["ERASE_BELOW", "terminal_output"]

ERASE_BELOW = "\x1b7\x1b[K\x1b[B\x1b[J\x1b8"
"""Save the cursor, erase to the end of its line, go a line down (at the bottom line it stays),
erase below, and come back."""


class _Output(Vt100_Output):
    """prompt_toolkit's VT100 output, whose "erase below" never clears the whole screen."""

    def erase_down(self) -> None:
        """Erase from the cursor to the end of the screen (see the module's docstring)."""
        self.write_raw(ERASE_BELOW)


def terminal_output() -> Vt100_Output:
    """The output to stdout, a terminal, as prompt_toolkit's `create_output` would make it."""
    return _Output.from_pty(
        sys.stdout,
        term=get_term_environment_variable(),
        default_color_depth=ColorDepth.from_env(),
        enable_bell=get_bell_environment_variable(),
    )
