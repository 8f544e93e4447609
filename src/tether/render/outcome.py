"""How a permission request ended, as the terminal shows it under the proposed card."""

from __future__ import annotations

from typing import assert_never

from rich.console import RenderableType
from rich.styled import Styled
from rich.text import Text

from tether.render.theme import printable
from tether.tools.outcome import PermissionOutcome

__all__ = ["not_applied", "outcome_line", "told_instead"]


def outcome_line(outcome: PermissionOutcome, *, applied: bool = False) -> Text:
    """`✓ allowed once`, `✓ always allowed`, or `✕ rejected · not applied`."""
    match outcome:
        case "allow_once":
            text = Text.assemble(("✓ ", "green"), "allowed once")
        case "allow_always":
            text = Text.assemble(("✓ ", "green"), "always allowed for this session")
        case "allow_project":
            text = Text.assemble(("✓ ", "green"), "always allowed for this project")
        case "reject":
            return Text.assemble(("✕ rejected", "bold red"), (" · not applied", "red"))
        case "refused":
            return Text.assemble(
                ("✕ rejected", "bold red"), (" · not applied: no one to approve it", "red")
            )
        case _:
            assert_never(outcome)
    if applied:
        text.append(" · applied", style="dim")
    return text


def not_applied(card: RenderableType) -> RenderableType:
    """A card whose change or command never happened: dimmed."""
    return Styled(card, "dim")


def told_instead(message: str) -> Text:
    """`↳ instead: MESSAGE`: what the person told the model to do, under their rejection."""
    return Text.assemble(("↳ instead: ", "dim"), printable(message))
