"""What a typed line does in the interactive session: a `!` command, a `/` command, or a
prompt. The front hands each line here (this is its `Back`); a `/` command is resolved
against the catalog and dispatched once (`tether.surface.dispatch.dispatch`) to the
terminal's surface.

`/name` that names no command is said, and put back in the box to correct. A few commands
run at once even while a turn runs (`/help`, `/usage`, `/cost`, `/exit`, and `/mode`,
`/model`, `/thinking` with their value).
"""

from __future__ import annotations

import asyncio
import logging

from prompt_toolkit.formatted_text import StyleAndTextTuples

from tether.cli.interactive.commands import page
from tether.cli.interactive.conversation import Conversation, command_entries
from tether.cli.interactive.slash import literal, unknown_command
from tether.cli.interactive.surface import ScreenSurface
from tether.cli.interactive.turn import run_bang, send_prompt
from tether.commands import resolve
from tether.errors import CommandError
from tether.surface.dispatch import dispatch

__all__ = ["IMMEDIATE", "Lines"]

log = logging.getLogger(__name__)

IMMEDIATE = ("help", "usage", "cost", "exit")
"""Commands that run at once even while a turn runs (`/mode X` and `/model X` too)."""


class Lines:
    """Runs what the front hands it against the conversation (the front's `Back`)."""

    def __init__(self, conversation: Conversation) -> None:
        self.conversation = conversation
        self._paging: asyncio.Task[None] | None = None

    @property
    def busy(self) -> bool:
        """Whether a prompt, a command or a shell line runs now."""
        return self.conversation.busy

    def immediate(self, text: str) -> bool:
        """Commands that do not need the turn to end: help, usage, exit, `/mode X`, `/model X`."""
        if not text.startswith("/") or literal(text) is not None:
            return False
        name, _, arguments = text.strip().removeprefix("/").partition(" ")
        return name in IMMEDIATE or (name in ("mode", "model", "thinking") and bool(arguments))

    def start(self, text: str) -> None:
        """Run `text`: a `!` command, a `/` command or a prompt."""
        conversation = self.conversation
        if conversation.busy:
            # Only an immediate command gets here while something runs: it runs beside it.
            asyncio.get_running_loop().create_task(self._command(text.strip()))
            return
        conversation.task = asyncio.get_running_loop().create_task(self._run(text))
        conversation.task.add_done_callback(self._finished)

    def interrupt(self) -> bool:
        """Stop what runs; whether anything did."""
        return self.conversation.interrupt()

    def set_mode(self, mode: str) -> None:
        """Switch the mode (Shift+Tab)."""
        self.conversation.set_mode(mode)

    def command_running(self) -> bool:
        """Whether a command of the model's runs in the foreground now."""
        return self.conversation.command_running()

    def to_background(self) -> int:
        """Move the running commands to the background (Ctrl+B); how many."""
        return self.conversation.to_background()

    def live(self, width: int) -> StyleAndTextTuples:
        """The spinner line, when something runs."""
        return self.conversation.live(width)

    def picker_escape(self) -> None:
        """Esc on a picker: a permission question interrupts the turn; another closes."""
        self.conversation.picker_escape()

    def view_whole(self) -> None:
        """Page the whole card of the open question."""
        proposal = self.conversation.proposal
        if proposal is not None and (self._paging is None or self._paging.done()):
            paging = page(self.conversation, proposal.card)
            self._paging = asyncio.get_running_loop().create_task(paging)

    async def close(self) -> None:
        """Stop what runs and let go of the session."""
        await self.conversation.close()

    async def _run(self, text: str) -> None:
        stripped = text.strip()
        if stripped.startswith("!") and stripped[1:].strip():
            await run_bang(self.conversation, stripped[1:].strip())
        elif (escaped := literal(text)) is not None:
            await send_prompt(self.conversation, escaped)
        elif text.startswith("/"):  # a leading space makes it text
            await self._command(stripped)
        else:
            await send_prompt(self.conversation, text)

    async def _command(self, text: str) -> None:
        conversation = self.conversation
        screen = conversation.front.screen
        commands = conversation.commands = conversation.work.commands()
        screen.completer.commands = command_entries(commands)
        if (mistake := unknown_command(text, [c.name for c in commands])) is not None:
            conversation.notice(mistake, "yellow")
            screen.input.text = text  # back in the box, to correct
            screen.input.cursor_position = len(text)
            return
        try:
            meant = resolve(text, commands, picking=True)
        except CommandError as exc:
            conversation.notice(str(exc), "red")
            return
        await dispatch(meant, ScreenSurface(conversation, text))

    def _finished(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and (error := task.exception()) is not None:
            log.debug("a turn failed", exc_info=error)
            self.conversation.notice(f"error: {type(error).__name__}: {error}", "red")
        self.conversation.front.next()
