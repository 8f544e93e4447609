"""The plan in the terminal: the model's checklist, printed each time it changes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text

from tether.render.theme import HEADING, SUBTLE, note, printable
from tether.tools.todo import TodoItem

__all__ = ["render_plan"]

_DONE = Style(dim=True, strike=True)
_DOING = Style(bold=True)


def render_plan(todos: Sequence[TodoItem]) -> RenderableType:
    """`Plan  1 of 3 done`, then one line per task: `✓` done, `▸` in progress, `○` to do,
    `✕` cancelled (not counted)."""
    done = sum(item.status == "completed" for item in todos)
    live = sum(item.status != "cancelled" for item in todos)
    title = Text.assemble(("Plan", HEADING), "  ", (f"{done} of {live} done", SUBTLE))
    if not todos:
        return Group(title, note("  (no tasks)"))
    return Group(title, *(_task(item) for item in todos))


def _task(item: TodoItem) -> Text:
    priority = f" ({item.priority})" if item.priority else ""
    text = printable(item.shown) + priority
    match item.status:
        case "completed":
            return Text.assemble("  ", ("✓ ", "green"), (text, _DONE))
        case "in_progress":
            return Text.assemble("  ", ("▸ ", "cyan bold"), (text, _DOING))
        case "pending":
            return Text.assemble("  ", ("○ ", "dim"), text)
        case "cancelled":
            return Text.assemble("  ", ("✕ ", "dim"), (text, _DONE), (" cancelled", SUBTLE))
        case _:
            assert_never(item.status)
