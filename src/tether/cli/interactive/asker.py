"""Permission questions in place of the input box: the card first, then a picker.

The choices are the question's own (allow once, always allow with what it covers, reject,
and any the policy adds), then "reject and tell the model what to do instead", which asks
for a line that goes back to the model with the rejection. Questions from parallel calls
wait their turn. The answer is printed under the card by the printer, as `tether run` does.

A plain reject ends the turn once the call has its refusal (as Claude Code does): the model
does not go on to its next idea while the person is typing. "Reject and tell the model what
to do instead" lets the turn go on with those words.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from tether.cli.interactive.picker import QUESTION_GUARD, Choice, Picker
from tether.cli.interactive.screen import Screen
from tether.policy import (
    DelegatedAccess,
    PermissionAnswer,
    PermissionQuestion,
    RejectWithMessage,
    ServerStart,
    WorkspaceTrust,
)
from tether.session.updates import ClientUpdate, ToolCallFinished

__all__ = ["INSTEAD_CHOICE", "ScreenAsker"]

INSTEAD_CHOICE = "Reject and tell the model what to do instead"


class ScreenAsker:
    """Asks on the screen; `before` shows the card of what would happen (and returns a key
    hint when more of it can be seen), `after` is told the answer, and `interrupt` ends the
    turn after a plain reject."""

    def __init__(
        self,
        screen: Screen,
        before: Callable[[PermissionQuestion], str],
        *,
        after: Callable[[PermissionQuestion, PermissionAnswer], None] = lambda _q, _a: None,
        interrupt: Callable[[], object] = lambda: None,
    ) -> None:
        self.screen = screen
        self.before = before
        self.after = after
        self.interrupt = interrupt
        self.open: Picker | None = None
        """The question on screen now, if any."""
        self._lock = asyncio.Lock()
        self._ending: str | None = None
        """The rejected call whose refusal ends the turn."""

    def seen(self, update: ClientUpdate) -> None:
        """Watch the turn's updates: once a rejected call has its refusal, the turn ends."""
        if isinstance(update, ToolCallFinished) and update.tool_call_id == self._ending:
            self._ending = None
            asyncio.get_running_loop().call_soon(self.interrupt)

    def _rejected(self, question: PermissionQuestion) -> None:
        subject = question.subject
        if isinstance(subject, ServerStart | WorkspaceTrust):
            return  # declining servers or trust is not about the turn
        if isinstance(subject, DelegatedAccess):
            # An agent's call: its refusal goes to the agent, which would go on; stop it now.
            asyncio.get_running_loop().call_soon(self.interrupt)
            return
        self._ending = subject.tool_call_id

    async def ask(self, question: PermissionQuestion) -> PermissionAnswer:
        """The person's answer; cancelling the call that asks takes the question away."""
        async with self._lock:
            more = self.before(question)
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
                f"Allow {_first_line(question.title)}?",
                choices,
                note=question.reason,
                dismiss="esc to interrupt" if by_call else "esc to decline",
                guard=QUESTION_GUARD,
                more=more,
                wrap=True,
            )
            self.open = picker
            self.screen.open_picker(picker)
            try:
                picked = await picker.result
            finally:
                picker.dismiss_now()
                self.open = None
            answer: PermissionAnswer
            if picked is None:
                answer = "reject"
            elif picked.index < len(options):
                answer = options[picked.index].decision
            else:
                answer = RejectWithMessage(picked.text or "")
            if answer == "reject":
                self._rejected(question)
            self.after(question, answer)
            return answer


def _first_line(title: str, width: int = 120) -> str:
    """A question's title cut at its first line (and at `width`), an ellipsis saying so."""
    line = title.strip().split("\n", 1)[0]
    if len(line) > width:
        return line[: width - 1] + "…"
    return line + " …" if "\n" in title.strip() else line
