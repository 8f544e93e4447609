"""A hook's run as the terminal shows it: one line, coloured by what it decided."""

from __future__ import annotations

from rich.text import Text

from tether.render.theme import printable
from tether.session.updates import HookRan

__all__ = ["hook_line"]


def hook_line(update: HookRan) -> Text:
    """`⚙ PreToolUse hook blocked the call: ... (./guard.sh, exit 2, 15 ms)`: yellow when it
    decided something, red when it failed, dim when it only ran."""
    if update.failed:
        style = "red"
    elif update.decision is not None:
        style = "yellow"
    else:
        style = "dim"
    return Text.assemble(("⚙ ", style), (printable(update.text), style))
