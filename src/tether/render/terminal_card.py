"""The terminal card: where and what ran, its output in colour, and how it ended."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.control import strip_control_codes
from rich.text import Text

from tether.render.bare_rows import fitting_rows
from tether.render.frame import bare_card
from tether.render.theme import (
    GUTTER,
    HEADING,
    SUBTLE,
    assembled,
    card,
    note,
    pill,
    printable,
)
from tether.views import TerminalCallView, TerminalResultView

__all__ = [
    "COLLAPSE_OVER",
    "KEEP_TAIL",
    "bare_terminal_result",
    "render_terminal_call",
    "render_terminal_result",
]

COLLAPSE_OVER = 30
"""Output longer than this many lines is shown by its tail unless asked in full."""
KEEP_TAIL = 20
"""Lines of a collapsed output kept from its end (where errors and summaries are)."""


def render_terminal_call(view: TerminalCallView, state: str = "running…") -> RenderableType:
    """A command not finished: its cwd, `$ command`, how it runs, and `state` as a note."""
    parts: list[RenderableType] = []
    if view.cwd:
        parts.append(Text(printable(view.cwd), style=GUTTER))
    parts.append(_command(view.title))
    if view.sandbox:
        parts.append(note(printable(view.sandbox)))
    return card(Group(*parts), title=_title(view), subtitle=note(state))


def render_terminal_result(
    view: TerminalResultView,
    call: TerminalCallView | None = None,
    *,
    full: bool = True,
    proposed: bool = False,
    failed: bool = False,
) -> RenderableType:
    """A finished command: `$ command`, its output with ANSI colours, then how it ended.

    With the call's card, the frame is titled by the call's description and its footer says
    how the command ran (sandboxed or not). When the call's card was `proposed` (shown for
    approval) the command is not repeated. Unless `full`, output longer than
    `COLLAPSE_OVER` lines keeps its last `KEEP_TAIL` under `… N earlier lines`.
    """
    parts: list[RenderableType] = []
    if view.title and not proposed:
        parts.append(_command(view.title))
    output = (view.output or "").rstrip("\n")
    parts.extend(_output(output, full=full) if output else [note("no output")])
    parts += [note(printable(said)) for said in view.notes or ()]
    title = _title(call) if call is not None else None
    if title is None and proposed and view.title:
        # The command is above, in the card that asked; a short reminder keeps them together.
        title = Text(printable(_first_line(view.title)), style=SUBTLE)
    footer = _footer(view, call, failed)
    return card(Group(*parts), title=title, subtitle=footer, failed=failed)


def bare_terminal_result(
    view: TerminalResultView,
    console: Console,
    options: ConsoleOptions,
    call: TerminalCallView | None = None,
    *,
    full: bool = True,
    proposed: bool = False,
    failed: bool = False,
) -> str | None:
    """What a console without colour writes of `render_terminal_result` (the same arguments)
    at `options`' width, made from the view's text alone (no rich text, group or frame); None
    where rich must lay some of it out (output with colours, a line that does not fit)."""
    output = (view.output or "").rstrip("\n")
    if output and not output.replace("\n", "").isprintable():
        return None  # colours to decode: rich's `from_ansi`
    texts: list[str] = []
    if view.title and not proposed:
        texts.append(f"$ {_shown(printable(view.title))}")
    if not output:
        texts.append("no output")
    else:
        rows = output.split("\n")
        if full or len(rows) <= COLLAPSE_OVER:
            texts.append(output)
        else:
            hidden = len(rows) - KEEP_TAIL
            texts += [f"… {hidden} earlier lines", "\n".join(rows[hidden:])]
    texts += [_shown(printable(said)) for said in view.notes or ()]
    inner = options.max_width - 4
    lines: list[str] = []
    for text in texts:
        drawn = fitting_rows(text, inner)
        if drawn is None:
            return None
        lines += drawn
    if call is not None:
        title = _shown(printable(call.description)) if call.description else None
    else:
        title = None
    if title is None and proposed and view.title:
        title = _shown(printable(_first_line(view.title)))
    ending = _ending_label(view, failed)
    how = _shown(printable(call.sandbox)) if call is not None and call.sandbox else None
    said = (how, None if ending is None else _shown(ending[0]))
    footer = "  ".join(part for part in said if part is not None) or None
    if failed:
        footer = f"{footer}  failed" if footer else "failed"
    return bare_card(console, options, title, lines, footer)


def _shown(text: str) -> str:
    """What rich keeps of `text` in a text (its control codes stripped)."""
    return text if text.isprintable() else strip_control_codes(text)


def _title(view: TerminalCallView) -> Text | None:
    if not view.description:
        return None
    return Text(printable(view.description), style=HEADING)


def _command(command: str) -> Text:
    return assembled(("$ ", GUTTER), (printable(command), "bold"))


def _output(output: str, *, full: bool) -> list[RenderableType]:
    """The output with its colours (tail only unless `full`); other control characters shown."""
    if output.replace("\n", "").isprintable():
        # No escape and no other control character: the text `from_ansi` would decode, and
        # its lines, made at once (decoding costs a replayed session's long outputs more than
        # drawing them).
        rows = output.split("\n")
        if full or len(rows) <= COLLAPSE_OVER:
            return [Text(output)]
        hidden = len(rows) - KEEP_TAIL
        return [note(f"… {hidden} earlier lines"), Text("\n".join(rows[hidden:]))]
    text = Text.from_ansi(output)
    # One-for-one replacement keeps the colour spans where they were.
    text.plain = printable(text.plain)
    lines = text.split("\n")
    if full or len(lines) <= COLLAPSE_OVER:
        return [text]
    hidden = len(lines) - KEEP_TAIL
    tail = Text("\n").join(lines[hidden:])
    return [note(f"… {hidden} earlier lines"), tail]


def _first_line(command: str, width: int = 60) -> str:
    stripped = command.strip()
    line = stripped.split("\n", 1)[0]
    if len(line) > width:
        return line[:width] + "…"
    return line + " …" if "\n" in stripped else line


def _footer(view: TerminalResultView, call: TerminalCallView | None, failed: bool) -> Text | None:
    ending = _ending(view, failed)
    how = note(printable(call.sandbox)) if call is not None and call.sandbox else None
    if how is None:
        return ending
    return Text.assemble(how, "  ", ending) if ending is not None else how


def _ending(view: TerminalResultView, failed: bool) -> Text | None:
    ending = _ending_label(view, failed)
    return None if ending is None else pill(*ending)


def _ending_label(view: TerminalResultView, failed: bool) -> tuple[str, bool] | None:
    """How the command ended, and whether that was well."""
    if view.signal is not None:
        return view.signal, False
    if view.exit_code is not None:
        # A command stopped by its timeout or a cancel failed, whatever code its shell gave.
        return f"exit {view.exit_code}", view.exit_code == 0 and not failed
    return None
