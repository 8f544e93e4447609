"""Permission questions in place of the input box: the card first, then a picker.

The choices are the question's own (allow once, always allow with what it covers, reject,
and any the policy adds), then "reject and tell the model what to do instead", which asks
for a line that goes back to the model with the rejection. Questions from parallel calls
wait their turn. The answer is printed under the card by the printer, as `tether run` does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from tether.cli.interactive.picker import Choice, Picker
from tether.cli.interactive.screen import Screen
from tether.policy import (
    PermissionAnswer,
    PermissionQuestion,
    RejectWithMessage,
    ServerStart,
    WorkspaceTrust,
)

__all__ = ["INSTEAD_CHOICE", "ScreenAsker"]

INSTEAD_CHOICE = "Reject and tell the model what to do instead"


class ScreenAsker:
    """Asks on the screen; `before` prints the card of what would happen."""

    def __init__(self, screen: Screen, before: Callable[[PermissionQuestion], None]) -> None:
        self.screen = screen
        self.before = before
        self.open: Picker | None = None
        """The question on screen now, if any."""
        self._lock = asyncio.Lock()

    async def ask(self, question: PermissionQuestion) -> PermissionAnswer:
        """The person's answer; cancelling the call that asks takes the question away."""
        async with self._lock:
            self.before(question)
            options = question.options
            choices = [Choice(option.name) for option in options]
            # Words for the model only make sense where a model's call asked.
            by_call = not isinstance(question.subject, ServerStart | WorkspaceTrust)
            instead = by_call and any(option.decision == "reject" for option in options)
            if instead:
                choices.append(
                    Choice(INSTEAD_CHOICE, asks="What should the model do instead? (enter sends)")
                )
            picker = Picker(
                f"Allow {_one_line(question.title)}?",
                choices,
                note=question.reason,
                dismiss="esc to interrupt" if by_call else "esc to decline",
            )
            self.open = picker
            self.screen.open_picker(picker)
            try:
                picked = await picker.result
            finally:
                picker.dismiss_now()
                self.open = None
            if picked is None:
                return "reject"
            if picked.index < len(options):
                return options[picked.index].decision
            return RejectWithMessage(picked.text or "")


def _one_line(title: str, width: int = 120) -> str:
    line = title.strip().split("\n", 1)[0]
    if len(line) > width:
        return line[: width - 1] + "…"
    return line + " …" if "\n" in title.strip() else line
