"""The interactive terminal as a surface of `tether.surface.dispatch`: listings in the
scrollback, pickers in place of the input box, the mode in the status bar, and the
terminal's own commands (`tether.cli.interactive.commands.TERMINAL`)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from tether.cli.interactive.commands import TERMINAL
from tether.cli.interactive.conversation import Conversation
from tether.cli.interactive.picker import Choice, Picker
from tether.cli.interactive.rewind import checkpoint_command
from tether.cli.interactive.turn import send_prompt
from tether.commands import CheckpointCommand, PromptText, TerminalCommand
from tether.policy import PolicyMode
from tether.session import Session
from tether.surface.dispatch import Option

__all__ = ["ScreenSurface"]


class ScreenSurface:
    """What dispatching one typed command (`typed`) does in the interactive terminal."""

    def __init__(self, conversation: Conversation, typed: str) -> None:
        self.conversation = conversation
        self.typed = typed

    @property
    def mode(self) -> PolicyMode:
        """The mode of the session now, and of the next one."""
        return self.conversation.mode

    def session(self) -> Session:
        """The session, made now if there is none yet."""
        return self.conversation.current()

    def say(self, text: str) -> None:
        """Into the scrollback."""
        self.conversation.say(Text(text))

    def notice(self, text: str) -> None:
        """A dim line of the terminal's own."""
        self.conversation.notice(text)

    async def pick(self, title: str, options: Sequence[Option], selected: int = 0) -> int | None:
        """A picker in place of the input box."""
        choices = [Choice(option.label, option.detail) for option in options]
        return await self.conversation.pick(Picker(title, choices, selected=selected))

    def set_mode(self, mode: PolicyMode) -> None:
        """For the running session and the next one; the status bar follows."""
        self.conversation.set_mode(mode)
        self.conversation.notice(f"mode: {mode}")

    async def done(self) -> None:
        """Nothing to answer: the scrollback shows what was done."""
        return None

    async def prompt(self, meant: PromptText) -> None:
        """Send it; the log shows the command as typed when it was expanded."""
        typed = self.typed if meant.text != self.typed else None
        await send_prompt(self.conversation, meant.text, typed=typed, command=meant.source)

    async def checkpoint(self, command: CheckpointCommand) -> None:
        """The rewind pickers, the conflicts asked one by one."""
        await checkpoint_command(self.conversation, command, self.typed)

    async def terminal(self, command: TerminalCommand) -> None:
        """The handler registered for the catalog entry."""
        await TERMINAL[command.name](self.conversation, command.arguments)
