"""The task card: an agent's report, what it did and spent, and the session to open for more."""

from __future__ import annotations

from typing import assert_never

from rich.console import Group, RenderableType
from rich.text import Text

from tether.figures import short_tokens
from tether.render.theme import HEADING, NOTE, SUBTLE, card, note, pill, printable
from tether.views import TaskResultView

__all__ = ["COLLAPSE_OVER", "render_task_result", "task_state", "task_tail"]

COLLAPSE_OVER = 40
"""A report longer than this many lines shows its start unless asked in full."""


def render_task_result(view: TaskResultView, *, full: bool = True) -> RenderableType:
    """`agent  description`, the report as Markdown, then calls, tokens, session and outcome."""
    title = Text.assemble((f" {printable(view.agent)} ", "reverse"), " ")
    title.append_text(Text.assemble((printable(view.description), HEADING)))
    parts: list[RenderableType] = []
    if view.stop_reason == "running":
        parts.append(Text(printable(view.activity or "starting"), style=SUBTLE))
        if view.thought:
            parts.append(Text(printable(view.thought), style=NOTE))
    elif view.summary:
        from rich.markdown import Markdown  # with the first report: Pygments comes with it

        lines = view.summary.splitlines()
        shown = lines if full or len(lines) <= COLLAPSE_OVER else lines[:COLLAPSE_OVER]
        parts.append(
            Markdown(printable("\n".join(shown)), code_theme="ansi_dark", hyperlinks=False)
        )
        if len(shown) < len(lines):
            parts.append(note(f"… {len(lines) - len(shown)} more lines (--verbose shows all)"))
    else:
        parts.append(note("no final message"))
    if view.error:
        parts.append(Text(printable(f"failed: {view.error}"), style="red"))
    return card(Group(*parts), title=title, subtitle=_footer(view))


def task_tail(view: TaskResultView) -> Text:
    """A running agent's line under the spinner: its name, its current step, its calls; then,
    while it thinks, the end of its thought, dimmed."""
    calls = f"{view.tool_calls} call{'' if view.tool_calls == 1 else 's'}"
    activity = printable(view.activity or "starting")
    line = Text.assemble((f"{printable(view.agent)} › ", SUBTLE), activity, (f" · {calls}", SUBTLE))
    if view.thought:
        line.append("\n")
        line.append(printable(view.thought), style=NOTE)
    return line


def task_state(view: TaskResultView) -> tuple[str, bool]:
    """How the child ended, in a word or two, and whether that is a good ending."""
    match view.stop_reason:
        case "end_turn":
            return "done", True
        case "running":
            return "running", True
        case "error":
            return "failed", False
        case "cancelled":
            return "cancelled", False
        case "max_turn_requests":
            return "stopped: step limit", False
        case "max_tokens":
            return "stopped: output limit", False
        case "refusal":
            return "refused", False
        case _:
            assert_never(view.stop_reason)


def _footer(view: TaskResultView) -> Text:
    calls = f"{view.tool_calls} call{'' if view.tool_calls == 1 else 's'}"
    facts = [calls]
    if view.tokens is not None:
        facts.append(f"{short_tokens(view.tokens)} tokens")
    facts.append(f"session {view.session_id}")
    footer = Text(printable(" · ".join(facts)) + "  ", style=SUBTLE)
    label, ok = task_state(view)
    footer.append_text(pill(label, ok=ok))
    return footer
