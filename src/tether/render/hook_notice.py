"""A hook's run as the terminal shows it: one line, coloured by what it decided."""

from __future__ import annotations

from rich.text import Text

from tether.render.theme import printable

__all__ = ["hook_line"]


def hook_line(text: str, *, failed: bool, decided: bool) -> Text:
    """`⚙ PreToolUse hook blocked the call: ... (./guard.sh, exit 2, 15 ms)`: yellow when it
    decided something, red when it failed, dim when it only ran."""
    if failed:
        style = "red"
    elif decided:
        style = "yellow"
    else:
        style = "dim"
    return Text.assemble(("⚙ ", style), (printable(text), style))
