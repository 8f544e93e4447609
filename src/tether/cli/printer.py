"""Updates as terminal output: prompts, streamed text, and every card as its call completes."""

from __future__ import annotations

from typing import assert_never

from rich.console import Console
from rich.text import Text

from tether.render.terminal import render_call_view, render_result_view
from tether.session.updates import (
    AgentText,
    TitleChanged,
    ToolCallFinished,
    ToolCallProgress,
    ToolCallStarted,
    TurnEnded,
    TurnFailed,
    Update,
    UserImage,
    UserText,
)
from tether.views import GenericResultView, ToolCallView

__all__ = ["Printer"]

_STOPS = {
    "max_tokens": "stopped: the model reached its output limit",
    "max_turn_requests": "stopped: the step limit for one prompt was reached",
    "refusal": "stopped: the model refused",
    "cancelled": "cancelled",
}


class Printer:
    """Prints updates in order; the same for a live run and a replayed log."""

    def __init__(self, console: Console, errors: Console | None = None) -> None:
        self.console = console
        self.errors = errors or console
        self._calls: dict[str, ToolCallView] = {}
        self._mid_line = False

    def __call__(self, update: Update) -> None:
        """Print one update."""
        match update:
            case UserText():
                self._end_line()
                self.console.print(Text(f"> {update.text}", style="bold"))
            case UserImage():
                self._end_line()
                self.console.print(Text(f"> [image {update.mime_type}]", style="bold"))
            case AgentText():
                self.console.print(update.text, end="", markup=False, highlight=False)
                self._mid_line = not update.text.endswith("\n")
            case ToolCallStarted():
                self._calls[update.tool_call_id] = update.view
            case ToolCallProgress() | TitleChanged():
                pass
            case ToolCallFinished():
                self._end_line()
                call = self._calls.pop(update.tool_call_id, None)
                # Read, diff and terminal results say what was called; a generic one may not.
                if call is not None and isinstance(update.view, GenericResultView):
                    self.console.print(render_call_view(call))
                self.console.print(render_result_view(update.view, call))
            case TurnEnded():
                self._end_line()
                if update.stop_reason in _STOPS:
                    self.errors.print(Text(_STOPS[update.stop_reason], style="yellow"))
            case TurnFailed():
                self._end_line()
                self.errors.print(Text(f"error: {update.message}", style="red"))
            case _:
                assert_never(update)

    def _end_line(self) -> None:
        if self._mid_line:
            self.console.print()
            self._mid_line = False
