"""Updates as terminal output: prompts, the model's Markdown, and every card as its call completes.

The same printer serves a live run and a replayed log, so `tether show` prints what
`tether run` printed. Live extras (the spinner line, a command's output as it comes) go
through `StatusLine`, which leaves nothing behind. The cards and the Markdown renderer (rich's
Markdown, Pygments) load with the first card or block printed: a run sends its first request
without them.
"""

from __future__ import annotations

import contextlib
import sys
from textwrap import indent
from typing import TYPE_CHECKING, assert_never

from rich.console import Console, RenderableType
from rich.text import Text

from tether import views
from tether.cli.agent_text import AgentTextBuffer
from tether.cli.call_cards import CallCards
from tether.cli.status import TAIL_LINES, StatusLine, tail_text
from tether.session.log.shown import EmbeddedResource, ResourceLink
from tether.session.notices import (
    CheckpointSaved,
    CommandAnswered,
    FilesRestored,
    HookRan,
    TrustSettled,
)
from tether.session.updates import (
    AgentText,
    AgentThought,
    ClientUpdate,
    ContextCompacted,
    JobChanged,
    ThoughtFinished,
    TitleChanged,
    ToolCallFinished,
    ToolCallPartial,
    ToolCallStarted,
    TurnEnded,
    TurnFailed,
    UsageChanged,
    UserImage,
    UserResource,
    UserText,
)
from tether.tools.outcome import PermissionOutcome
from tether.views import TaskResultView, ToolCallView

if TYPE_CHECKING:
    from tether.policy import PermissionQuestion
    from tether.tools.todo import TodoItem  # the plan card's items, made by the todo tool
    from tether.views import ToolResultView

__all__ = ["Printer"]

_WRITTEN = "tether.render.written"
"""Where cards are written directly (`CallCards._put_to`), loaded with the first."""

_STOPS = {
    "max_tokens": "stopped: the model reached its output limit",
    "max_turn_requests": "stopped: the step limit for one prompt was reached",
    "refusal": "stopped: the model refused",
    "cancelled": "cancelled",
}


class Printer(CallCards):
    """Prints updates in order; `full` shows long cards whole, `status` is the live line."""

    def __init__(
        self,
        console: Console,
        errors: Console | None = None,
        *,
        full: bool = False,
        status: StatusLine | None = None,
        brief_reads: bool = False,
    ) -> None:
        self.console = console
        self.errors = errors or console
        self.full = full
        self.brief_reads = brief_reads
        """Read cards as one line (the interactive terminal), unless `full`."""
        self.status = status or StatusLine(self.errors, enabled=False)
        self.refused = False
        """Whether a call was refused because no one could approve it (a headless run)."""
        self.failed = False
        """Whether an update could not be shown (the command then exits non-zero)."""
        self._calls: dict[str, ToolCallView] = {}
        self._names: dict[str, str] = {}
        self._proposed: set[str] = set()
        self._plan: list[TodoItem] | None = None
        """The plan printed last: a `todo` call that does not change it prints nothing."""
        self._text = AgentTextBuffer()
        self._printed_text = False
        self._thought: list[str] = []
        """The running thought, shown under the live line until it ends."""

    def __call__(self, update: ClientUpdate) -> None:
        """Print one update; a failure to show it is reported, and later updates still show."""
        try:
            if update.__class__ is AgentText:  # most of a log: a reply's chunks, straight on
                self._agent_text(update.text)
            else:
                self._show(update)
        except BrokenPipeError:
            raise  # the reader left: nothing more can show (`tether.cli` stops quietly)
        except Exception as exc:
            self.failed = True
            with contextlib.suppress(Exception):  # the report must not fail the next update
                self.status.stop()
                self.errors.print(
                    Text(f"tether: error: could not show {update.kind}: {exc!r}", style="red")
                )

    def _show(self, update: ClientUpdate) -> None:
        match update:
            case UserText():
                self._end_text()
                self._prompt(Text(f"> {update.text}", style="bold"))
                self.status.show("thinking")
            case UserImage() | UserResource():
                self._end_text()
                said = (
                    f"[image {update.mime_type}]"
                    if isinstance(update, UserImage)
                    else _mention(update.block)
                )
                self._prompt(Text(f"> {said}", style="bold"))
            case AgentText() | AgentThought() | ThoughtFinished():
                self._streamed(update)
            case ToolCallStarted():
                self._end_text()
                self._calls[update.tool_call_id] = update.view
                self._names[update.tool_call_id] = update.name
                self._show_status()
            case ToolCallPartial():
                if self.status.enabled and (tail := _live_tail(update.view)) is not None:
                    self.status.show(self.status_label(), tail)
            case JobChanged():
                self._job(update)
            case TitleChanged():
                pass
            case ToolCallFinished():
                self.status.stop()
                self._end_text()
                self._finished(update)
                self._show_status()
            case TurnEnded():
                self.close()
                if update.stop_reason in _STOPS:
                    self._put_to(self.errors, Text(_STOPS[update.stop_reason], style="yellow"))
            case TurnFailed():
                self.close()
                self._put_to(self.errors, Text(f"error: {update.message}", style="red"))
            case UsageChanged():
                # Where the budget stands after each response: in the live line at a
                # terminal, else a line of its own on stderr.
                if self.status.enabled:
                    self.status.budget(update.text)
                else:
                    self._put_to(self.errors, Text(update.text, style="dim"))
            case ContextCompacted() | FilesRestored() | CommandAnswered() | TrustSettled():
                self._notice(Text(update.text.rstrip("\n"), style="yellow"))
            case CheckpointSaved():
                self._notice(Text(update.text, style="dim"))
            case HookRan():
                from tether.render.hook_notice import hook_line

                decided = update.decision is not None
                self._notice(hook_line(update.text, failed=update.failed, decided=decided))
            case _:
                assert_never(update)

    def _prompt(self, line: Text) -> None:
        """The prompt, through `Console.print` until the cards are loaded (`tether run` prints
        its first before its first request, which loads nothing of `tether.render`), then
        written directly as cards are (`_put`): the same text either way."""
        if _WRITTEN in sys.modules:
            self._put(line)
        else:
            self.console.print(line)

    def _streamed(self, update: AgentText | AgentThought | ThoughtFinished) -> None:
        """What the model streams: its text, and apart from it, dimmed, its thinking."""
        match update:
            case AgentText():
                self._agent_text(update.text)
            case AgentThought():
                self._thinking(update.text)
            case ThoughtFinished():
                self._thought_finished(update)
            case _:
                assert_never(update)

    def _thinking(self, chunk: str) -> None:
        """The thought so far shows under the live line, never in the scrollback."""
        self._end_text()
        self._thought.append(chunk)
        self.status.show("thinking", tail_text("".join(self._thought), plain=True))

    def _thought_finished(self, update: ThoughtFinished) -> None:
        """A dimmed `Thought for 4.2 s`; the thought itself in full (`--verbose`, `/transcript`)."""
        thought, self._thought = "".join(self._thought).strip(), []
        self.status.stop()
        self._end_text()
        self._put(Text(f"✻ {update.text}", style="dim italic"))
        if self.full and thought:
            self._put(Text(indent(thought, "  "), style="dim italic"))
        self._show_status()

    def _notice(self, notice: Text) -> None:
        """A line between the turn's output, with the live status line set aside for it."""
        self.status.stop()
        self._end_text()
        self._put(notice)
        self._show_status()

    def _agent_text(self, chunk: str) -> None:
        """Print the blocks a chunk completes; the rest shows live, as it streams."""
        blocks = self._text.feed(chunk)
        if blocks:
            self.status.stop()
            self._print_blocks(blocks)
        if self._text.pending:
            if self.status.enabled:  # the tail is worked out only where it is shown
                tail = self._text.pending_tail(TAIL_LINES)
                self.status.show("writing", tail_text(tail, plain=True))
        else:
            self.status.show("thinking")

    def _show_status(self) -> None:
        """The live line says what runs (worked out only where the line is shown)."""
        if self.status.enabled:
            self.status.show(self.status_label())

    def status_label(self) -> str:
        """What the live line says: the running calls, else that the model is thinking."""
        if not self._calls:
            return "thinking"
        titles = [view.title for view in self._calls.values()]
        shown = titles[0] if len(titles) == 1 else f"{len(titles)} calls"
        return f"running {shown}"

    def propose(self, request: PermissionQuestion) -> None:
        """Before a person is asked: the card of what would happen, so they see it first."""
        self.status.stop()
        self._end_text()
        card = self.proposal(request)
        if card is None:
            return
        self._put(card)
        from tether.policy import DelegatedAccess  # asked while a call runs, not in a replay

        subject = request.subject
        if not isinstance(subject, DelegatedAccess):
            self._proposed.add(subject.tool_call_id)

    def proposal(self, request: PermissionQuestion) -> RenderableType | None:
        """The card of what would happen if the person allows it (nothing printed): an
        agent's call is its own card, not the task card it runs under; an edit worked out
        before asking shows the change with its line numbers."""
        from tether.policy import DelegatedAccess  # asked while a call runs, not in a replay
        from tether.render.terminal import render_call_view

        self._end_text()
        subject = request.subject
        if isinstance(subject, DelegatedAccess):
            view = subject.view
            return None if view is None else render_call_view(view, "awaiting approval")
        call = self._calls.get(subject.tool_call_id)
        if call is None:
            return None
        from tether.tools.access import FileAccess  # asked while a call runs, not in a replay

        if isinstance(subject, FileAccess) and subject.preview is not None:
            call = subject.preview
        return render_call_view(call, "awaiting approval")

    def decided(self, request: PermissionQuestion, outcome: PermissionOutcome) -> None:
        """An agent's call was answered: its card and the answer stay in the scrollback (the
        agent's own result shows in its task card)."""
        from tether.policy import DelegatedAccess  # asked while a call runs, not in a replay
        from tether.render.outcome import not_applied, outcome_line
        from tether.render.terminal import render_call_view

        subject = request.subject
        if isinstance(subject, DelegatedAccess) and subject.view is not None:
            self.status.stop()
            self._end_text()
            card = render_call_view(subject.view)
            self._put(card if outcome != "reject" else not_applied(card))
            self._put(outcome_line(outcome))

    def close(self) -> None:
        """Print what is left of the model's text and take the live line away."""
        self.status.stop()
        self._end_text()

    def _job(self, update: JobChanged) -> None:
        """A background command's card, printed again once the command ended: its output and
        how it ended (while it runs, the status bar counts it)."""
        if update.ended:
            from tether.render.terminal import render_result_view

            self._end_text()
            self._put(render_result_view(update.view, full=self.full))

    def _print_blocks(self, blocks: list[str]) -> None:
        from tether.render import markdown, written  # loaded with the first block

        # Without colour, a line of plain words is written as its bare text (the same bytes),
        # with the empty line before it.
        options = written.bare_options(self.console)
        for block in blocks:
            bare = None if options is None else markdown.bare_block(block, self.console, options)
            if bare is not None:
                written.print_bare(self.console, f"\n{bare}" if self._printed_text else bare)
            else:
                if self._printed_text:
                    self._put_to(self.console, None)
                self._put(markdown.text_block(block))
            self._printed_text = True

    def _end_text(self) -> None:
        blocks = self._text.flush()
        if blocks:
            self.status.stop()
            self._print_blocks(blocks)
        self._printed_text = False


def _live_tail(view: ToolResultView) -> Text | None:
    """What a running call shows under the spinner: a command's output, an agent's step."""
    if isinstance(view, views.TerminalResultView) and view.output:
        return tail_text(view.output)
    if isinstance(view, TaskResultView):
        from tether.render.task_card import task_tail

        return task_tail(view)
    return None


def _mention(block: ResourceLink | EmbeddedResource) -> str:
    match block:
        case ResourceLink(name=name, uri=uri):
            return f"[@{name}]({uri})"
        case EmbeddedResource(uri=uri):
            return f"[context {uri}]"
        case _:
            assert_never(block)
