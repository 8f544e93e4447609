"""What the keys do, from the first frame on: before the session is loaded and after.

The front owns the screen, the queue of prompts typed while something runs, and the
collapsed pastes; once the conversation is loaded it hands prompts and interrupts to it.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Protocol

from prompt_toolkit.formatted_text import StyleAndTextTuples

from tether.cli.interactive.keys import key_bindings
from tether.cli.interactive.paste import Pastes
from tether.cli.interactive.screen import Screen
from tether.cli.interactive.statusbar import StatusFacts

__all__ = ["EXIT_WINDOW", "Back", "Front"]

EXIT_WINDOW = 2.0
"""Seconds within which a second Ctrl+C on an empty box exits."""
REWIND_WINDOW = 0.8
"""Seconds within which a second Esc on an empty, idle box opens the rewind picker."""

MODES = ("ask", "accept-edits", "auto", "plan")
"""The modes Shift+Tab cycles through, in order."""


class Back(Protocol):
    """The loaded conversation, as the front drives it."""

    @property
    def busy(self) -> bool:
        """Whether a turn (or a command) runs now."""
        ...

    def immediate(self, text: str) -> bool:
        """Whether `text` is a command that runs even while a turn does (`/mode`, `/usage`)."""
        ...

    def start(self, text: str) -> None:
        """Run a prompt, a command or a shell line."""
        ...

    def interrupt(self) -> bool:
        """Stop what runs (the same as ACP's cancel); whether anything did."""
        ...

    def set_mode(self, mode: str) -> None:
        """Switch the mode."""
        ...

    def command_running(self) -> bool:
        """Whether a command of the model's runs in the foreground now."""
        ...

    def to_background(self) -> int:
        """Move the commands running in the foreground to the background; how many."""
        ...

    def live(self, width: int) -> StyleAndTextTuples:
        """The spinner line and what shows under it."""
        ...

    def picker_escape(self) -> None:
        """Esc on a picker."""
        ...

    def view_whole(self) -> None:
        """Page the whole of what the open question is about."""
        ...

    async def close(self) -> None:
        """Stop what runs and let go of the session."""
        ...


class Front:
    """The keys' side of the session (`tether.cli.interactive.keys.Controls`)."""

    def __init__(self, cwd: Path, mode: str, history: Path | None) -> None:
        self.facts = StatusFacts(cwd=cwd, mode=mode, note="starting…")
        self.queue: list[str] = []
        self._rewind_armed_until = 0.0
        """Until when a second Esc opens the rewind picker."""
        self.pastes = Pastes()
        self.back: Back | None = None
        self.leaving = False
        self._armed_until = 0.0
        self._note_reset: asyncio.TimerHandle | None = None
        self._screen = Screen(
            self.facts,
            key_bindings(self),
            history=history,
            live=self._live,
            queued=lambda: self.queue,
        )

    @property
    def screen(self) -> Screen:
        """The screen the keys act on."""
        return self._screen

    def attach(self, back: Back) -> None:
        """The conversation is loaded: it takes over, and what was queued meanwhile runs."""
        self.back = back
        self.facts.note = None
        self.next()

    def submit(self, typed: str) -> None:
        """Run what was typed now, or queue it while something runs."""
        text = self.pastes.expand(typed)
        self.pastes.clear()
        back = self.back
        if back is not None and (not back.busy or back.immediate(text)):
            back.start(text)
        else:
            self.queue.append(text)
        self.screen.refresh()

    def next(self) -> None:
        """Run the next queued prompt, if nothing runs (called when a turn ends)."""
        if self.leaving:
            self.screen.close()
            return
        if self.back is not None and not self.back.busy and self.queue:
            self.back.start(self.queue.pop(0))
        self.screen.refresh()

    def escape(self) -> None:
        """Interrupt what runs; the queued prompts come back into the box to edit. Pressed
        twice on an empty box with nothing running: the rewind picker (Claude Code's key)."""
        if self.back is not None and self.back.interrupt():
            self._unqueue()
            self._rewind_armed_until = 0.0
            return
        now = time.monotonic()
        if self.back is not None and not self.screen.input.text and now < self._rewind_armed_until:
            self._rewind_armed_until = 0.0
            self.back.start("/rewind")
            return
        self._rewind_armed_until = now + REWIND_WINDOW

    def control_c(self) -> None:
        """Interrupt what runs, else exit when pressed twice within `EXIT_WINDOW` seconds
        (an interrupt counts as the first press)."""
        now = time.monotonic()
        if now < self._armed_until:
            self.quit()
            return
        if self.back is not None and self.back.interrupt():
            self._unqueue()
        self._armed_until = now + EXIT_WINDOW
        self._say("press Ctrl+C again to exit", EXIT_WINDOW)

    def quit(self) -> None:
        """Leave: at once when idle, else once the interrupted turn has been recorded."""
        self.leaving = True
        if self.screen.picker is not None and self.back is None:
            self.screen.picker.dismiss_now()  # a question asked while loading: declined
        if self.back is not None and self.back.busy:
            self.back.interrupt()
            return
        self.screen.close()

    def command_running(self) -> bool:
        """Whether a command of the model's runs in the foreground now."""
        return self.back is not None and self.back.command_running()

    def to_background(self) -> None:
        """Ctrl+B: the running command goes on as a background job; the turn goes on."""
        if self.back is not None and self.back.to_background():
            self._say("moved to the background · /bashes", EXIT_WINDOW)

    def cycle_mode(self) -> None:
        """ask → accept-edits → auto → plan → ask."""
        mode = MODES[(MODES.index(self.facts.mode) + 1) % len(MODES)]
        self.facts.mode = mode
        if self.back is not None:
            self.back.set_mode(mode)
        self.screen.refresh()

    def recall(self) -> str | None:
        """The last queued prompt, taken off the queue to edit."""
        if not self.queue:
            return None
        text = self.queue.pop()
        self.screen.refresh()
        return text

    def paste(self, data: str) -> str:
        """A long paste becomes one token in the box."""
        return self.pastes.insertion(data)

    def picker_escape(self) -> None:
        """Esc on a picker: the conversation decides (a permission question interrupts)."""
        if self.back is not None:
            self.back.picker_escape()
        elif self.screen.picker is not None:
            self.screen.picker.dismiss_now()

    def view_whole(self) -> None:
        """`v` on a question: the conversation pages what it is about."""
        if self.back is not None:
            self.back.view_whole()

    def keep(self, text: str) -> None:
        """`text` could not be sent: back into the box, above what is typed there now."""
        buffer = self.screen.input
        buffer.text = f"{text}\n{buffer.text}" if buffer.text else text
        buffer.cursor_position = len(buffer.text)
        self.screen.refresh()

    def _unqueue(self) -> None:
        if not self.queue:
            return
        buffer = self.screen.input
        waiting = "\n".join(self.queue)
        self.queue.clear()
        buffer.text = f"{waiting}\n{buffer.text}" if buffer.text else waiting
        buffer.cursor_position = len(buffer.text)
        self.screen.refresh()

    def _say(self, note: str, seconds: float) -> None:
        self.facts.note = note
        if self._note_reset is not None:
            self._note_reset.cancel()
        self._note_reset = asyncio.get_running_loop().call_later(seconds, self._unsay, note)
        self.screen.refresh()

    def _unsay(self, note: str) -> None:
        if self.facts.note == note:
            self.facts.note = None
            self.screen.refresh()

    def _live(self, width: int) -> StyleAndTextTuples:
        return self.back.live(width) if self.back is not None else []
