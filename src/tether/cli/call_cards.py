"""A finished call's cards in the terminal: its result, how its question was answered, and
the plan a `todo` call changed (`Printer` is built on them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, assert_never

from rich.console import Console, RenderableType

from tether import views
from tether.policy import said_instead
from tether.session.updates import ToolCallFinished
from tether.views import ToolCallView

if TYPE_CHECKING:
    from tether.tools.todo import TodoItem

__all__ = ["CallCards"]


class CallCards:
    """Prints a call's cards once it finished, after what its question showed."""

    console: Console
    full: bool
    brief_reads: bool
    refused: bool
    _calls: dict[str, ToolCallView]
    _names: dict[str, str]
    _proposed: set[str]
    _plan: list[TodoItem] | None

    def _finished(self, update: ToolCallFinished) -> None:
        # The cards' modules load with the first card, each where it is needed: a replayed
        # session prints thousands of cards, and an import statement costs as much as a
        # card's title (a module imported costs half its names imported one by one).
        # Only a task's result can say its child refused calls (the task tool's modules load
        # with the first that does).
        meta = update.result.meta
        if isinstance(meta, dict) and meta.get("refused"):
            from tether.tools.task.meta import refusals

            if refusals(meta):
                self.refused = True  # an agent's call was refused: the run did not do it all
        call = self._calls.pop(update.tool_call_id, None)
        name = self._names.pop(update.tool_call_id, None)
        shown = update.tool_call_id in self._proposed
        self._proposed.discard(update.tool_call_id)
        failed = update.status == "failed"
        outcome = update.permission
        match outcome:
            case "allow_once" | "allow_always" | "allow_project":
                from tether.render.outcome import outcome_line

                applied = isinstance(update.view, views.DiffResultView) and not failed
                if shown:
                    # The proposed card is on screen above: the outcome, then what came of it.
                    self._put(outcome_line(outcome, applied=applied))
                    if applied:
                        return  # a diff result repeats the proposed change
                else:
                    # One card for the call (the question showed it only while it was open).
                    self._final_card(update, call, failed=failed)
                    self._put(outcome_line(outcome, applied=applied))
                    return
            case "reject" | "refused":
                from tether.render.outcome import not_applied, outcome_line, told_instead
                from tether.render.terminal import render_call_view, render_result_view

                if not shown and call is not None:
                    self._put(not_applied(render_call_view(call, "rejected")))
                self._put(outcome_line(outcome))
                if (instead := said_instead(update.result.text())) is not None:
                    self._put(told_instead(instead))
                if outcome == "refused":
                    self.refused = True
                    # The policy's message says which mode would allow it.
                    self._put(not_applied(render_result_view(update.view)))
                return
            case None:
                from tether.tools import todo  # the todo tool's module, with the first card

                if name == todo.TODO_TOOL and not failed and self._plan_changed(update):
                    return
            case _:
                assert_never(outcome)
        self._final_card(update, call, failed=failed, proposed=shown)

    def _final_card(
        self,
        update: ToolCallFinished,
        call: ToolCallView | None,
        *,
        failed: bool,
        proposed: bool = False,
    ) -> None:
        """The result card. Read, diff and terminal results say what was called; a generic
        one may not, unless it failed (its card is then titled by the call): its call card
        goes above it, unless the question showed it already."""
        from tether.render import terminal, written

        generic = isinstance(update.view, views.GenericResultView)
        if call is not None and generic and not failed and not proposed:
            self._print_card(terminal.render_call_view(call))
        if self.brief_reads and not self.full and isinstance(update.view, views.ReadResultView):
            from tether.render.read_card import render_read_result

            self._put(render_read_result(update.view, brief=True))
            return
        # Without colour, a card made from the view's text where it can be: the same bytes.
        options = written.bare_options(self.console)
        if options is not None and (
            bare := terminal.bare_result_view(
                update.view,
                call,
                self.console,
                options,
                full=self.full,
                failed=failed,
                proposed=proposed,
            )
        ):
            written.print_bare(self.console, bare)
            return
        self._print_card(
            terminal.render_result_view(
                update.view, call, full=self.full, failed=failed, proposed=proposed
            )
        )

    def _put(self, renderable: RenderableType) -> None:
        """Print to the conversation's console (`_put_to`)."""
        self._put_to(self.console, renderable)

    def _put_to(
        self, console: Console, renderable: RenderableType | None, *, crop: bool = True
    ) -> None:
        """`console.print(renderable, crop=crop)` (`None`: an empty line), written directly
        where that writes the same (`tether.render.written`, loaded with the first print)."""
        from tether.render import written

        if renderable is None:
            written.print_line_break(console)
        else:
            written.print_renderable(console, renderable, crop=crop)

    def _print_card(self, card: RenderableType) -> None:
        """Print a card; one drawn to the width exactly has nothing for rich to crop, so the
        pass that looks for it is left out (a replayed session prints thousands), and one
        that draws its own lines is written directly."""
        from tether.render import frame

        self._put_to(self.console, card, crop=not isinstance(card, frame.Card))

    def _plan_changed(self, update: ToolCallFinished) -> bool:
        """Print the plan a `todo` result holds if it changed; whether it was one at all."""
        from tether.tools.todo import todos_from_meta

        todos = todos_from_meta(update.result.meta)
        if todos is None:
            return False
        if todos != self._plan:
            from tether.render.plan_card import render_plan

            self._plan = todos
            self._put(render_plan(todos))
        return True
