"""Cards in the terminal: one rich renderable per call or result view."""

from __future__ import annotations

from typing import assert_never

from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.text import Text

from tether.render.diff_card import bare_diff, render_diff
from tether.render.generic_card import (
    bare_generic_result,
    render_generic_call,
    render_generic_result,
)
from tether.render.read_card import bare_read_result, render_read_result
from tether.render.search_card import render_search_result
from tether.render.task_card import render_task_result
from tether.render.terminal_card import (
    bare_terminal_result,
    render_terminal_call,
    render_terminal_result,
)
from tether.render.theme import failed_label
from tether.render.web_card import render_web_result
from tether.render.web_search_card import render_web_search_result
from tether.views import (
    DiffCallView,
    DiffResultView,
    GenericCallView,
    GenericResultView,
    ReadResultView,
    SearchMatchesResultView,
    SearchPathsResultView,
    TaskResultView,
    TerminalCallView,
    TerminalResultView,
    ToolCallView,
    ToolResultView,
    WebFetchResultView,
    WebSearchResultView,
)

__all__ = ["bare_result_view", "render_call_view", "render_result_view"]


def render_call_view(view: ToolCallView, state: str = "running…") -> RenderableType:
    """The card for a tool call that has not finished yet; a command's card notes `state`."""
    match view:
        case GenericCallView():
            return render_generic_call(view)
        case TerminalCallView():
            return render_terminal_call(view, state)
        case DiffCallView():
            return render_diff(view)
        case _:
            assert_never(view)


def render_result_view(
    view: ToolResultView,
    call: ToolCallView | None = None,
    *,
    full: bool = True,
    failed: bool = False,
    proposed: bool = False,
) -> RenderableType:
    """The card for a finished tool call; unless `full`, long cards are shown collapsed.

    `call` is its call card, when known (a search card highlights the pattern it asked for,
    a terminal card is titled by its description and says how its command ran). A `failed`
    call is marked so (red frame, `failed` label); `proposed` says its call card was shown
    already, for approval, so a terminal card does not repeat the command.
    """
    match view:
        case GenericResultView():
            title = call.title if call is not None else None
            return render_generic_result(view, failed=failed, call_title=title)
        case TerminalResultView():
            return render_terminal_result(
                view,
                call if isinstance(call, TerminalCallView) else None,
                full=full,
                proposed=proposed,
                failed=failed,
            )
        case DiffResultView():
            card = render_diff(view)
        case ReadResultView():
            card = render_read_result(view, full=full)
        case SearchMatchesResultView() | SearchPathsResultView():
            card = render_search_result(view, _pattern(call), full=full)
        case WebFetchResultView():
            card = render_web_result(view)
        case WebSearchResultView():
            card = render_web_search_result(view, full=full)
        case TaskResultView():
            # The task card says itself how its agent ended (failed, cancelled).
            return render_task_result(view, full=full)
        case _:
            assert_never(view)
    # Cards that only a working call produces; a tool that still made one for a failure
    # gets the mark under it.
    return (
        Group(card, Text.assemble(failed_label(), " ", ("the call failed", "red")))
        if failed
        else card
    )


def bare_result_view(
    view: ToolResultView,
    call: ToolCallView | None,
    console: Console,
    options: ConsoleOptions,
    *,
    full: bool = True,
    failed: bool = False,
    proposed: bool = False,
) -> str | None:
    """What a console without colour (`written.bare_options`) writes of `render_result_view`
    (the same arguments), made from the view's text alone, for the cards a replayed session
    holds most (reads, edits, commands, plain results and failures); None for any other card, or
    where rich must lay it out."""
    if isinstance(view, DiffResultView):
        return None if failed else bare_diff(view, console, options)
    if isinstance(view, GenericResultView):
        title = call.title if call is not None else None
        return bare_generic_result(view, console, options, failed=failed, call_title=title)
    if isinstance(view, ReadResultView):
        return None if failed else bare_read_result(view, console, options, full=full)
    if isinstance(view, TerminalResultView):
        return bare_terminal_result(
            view,
            console,
            options,
            call if isinstance(call, TerminalCallView) else None,
            full=full,
            proposed=proposed,
            failed=failed,
        )
    return None


def _pattern(call: ToolCallView | None) -> str | None:
    """The search pattern a call asked for, to highlight what it matched (case-insensitive
    as the search was)."""
    if isinstance(call, GenericCallView) and isinstance(call.raw_input, dict):
        pattern = call.raw_input.get("pattern")
        if not isinstance(pattern, str):
            return None
        return f"(?i){pattern}" if call.raw_input.get("ignore_case") is True else pattern
    return None
