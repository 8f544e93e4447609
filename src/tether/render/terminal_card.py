"""The terminal card: where and what ran, its output in colour, and how it ended."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from tether.render.theme import GUTTER, HEADING, card, note, pill, printable
from tether.views import TerminalCallView, TerminalResultView

__all__ = ["render_terminal_call", "render_terminal_result"]


def render_terminal_call(view: TerminalCallView, state: str = "running…") -> RenderableType:
    """A command not finished: its cwd, `$ command`, its purpose, and `state` as a note."""
    parts: list[RenderableType] = []
    if view.cwd:
        parts.append(Text(printable(view.cwd), style=GUTTER))
    parts.append(_command(view.title))
    if view.sandbox:
        parts.append(note(printable(view.sandbox)))
    title = Text(printable(view.description), style=HEADING) if view.description else None
    return card(Group(*parts), title=title, subtitle=note(state))


def render_terminal_result(
    view: TerminalResultView, call: TerminalCallView | None = None, *, failed: bool = False
) -> RenderableType:
    """A finished command: `$ command`, its output with ANSI colours, then an exit pill.

    With the call's card, the frame's title says how the command ran (sandboxed or not).
    A `failed` call (stopped by its timeout or a cancel) has a red pill whatever its code.
    """
    parts: list[RenderableType] = []
    if view.title:
        parts.append(_command(view.title))
    output = (view.output or "").rstrip("\n")
    parts.append(_output(output) if output else note("no output"))
    how = note(printable(call.sandbox)) if call is not None and call.sandbox else None
    return card(Group(*parts), title=how, subtitle=_ending(view, failed))


def _command(command: str) -> Text:
    return Text.assemble(("$ ", GUTTER), (printable(command), "bold"))


def _output(output: str) -> Text:
    """The output with its colours; any other escape or control character made visible."""
    text = Text.from_ansi(output)
    # One-for-one replacement keeps the colour spans where they were.
    text.plain = printable(text.plain)
    return text


def _ending(view: TerminalResultView, failed: bool) -> Text | None:
    if view.signal is not None:
        return pill(view.signal, ok=False)
    if view.exit_code is not None:
        return pill(f"exit {view.exit_code}", ok=view.exit_code == 0 and not failed)
    return pill("failed", ok=False) if failed else None
