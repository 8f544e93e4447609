"""`tether` with no subcommand: an interactive session in the terminal.

The input box is drawn first; the arguments are parsed and the session's machinery imported
while it shows (`launch`), so the box is there about as soon as prompt_toolkit can draw it.
Finished output goes into the terminal's scrollback; only the bottom of the screen is live.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

__all__ = ["HELP", "configure", "launch"]

HELP = (
    "talk to a session in the terminal: type a prompt, watch the cards, approve edits, "
    "interrupt with Esc, resume later (`tether --continue`)"
)


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of `tether` with no subcommand."""
    from tether.cli.interactive.arguments import add_arguments

    add_arguments(parser)


def launch(argv: Sequence[str]) -> int:
    """Draw the input box, then parse `argv` and load the session behind it."""
    from tether.cli.interactive.start import run_argv

    return run_argv(list(argv))
