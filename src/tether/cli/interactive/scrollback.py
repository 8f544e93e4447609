"""Printing above the live bottom of the screen, into the terminal's own scrollback.

What the conversation prints (rich output, already rendered to text with its escapes) is
written at once when the print ends: the live part is erased, the text written where it was,
and the live part drawn again under it on the next turn of the event loop. Nothing is written
while the terminal is lent to another program (a pager), and once the application is gone
the text goes straight to the terminal.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import IO, TextIO, cast

from prompt_toolkit.application import Application

from tether.cli.safe_output import safe_text

__all__ = ["Scrollback"]


class Scrollback:
    """A text stream (a rich console's file) whose text lands above the live screen."""

    def __init__(self, terminal: TextIO | None = None) -> None:
        self._terminal = terminal or sys.stdout
        self._encoding = getattr(self._terminal, "encoding", None) or "utf-8"
        self._pending: list[str] = []
        self._app: Application[object] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._scheduled = False
        self._loop_thread: int | None = None
        self.held = False
        """While set, text waits (another program has the terminal)."""

    def attach(self, app: Application[object], loop: asyncio.AbstractEventLoop) -> None:
        """Print above `app` from now on (on `loop`, the thread that runs it)."""
        self._app, self._loop = app, loop
        self._loop_thread = threading.get_ident()
        if self._pending and not self._scheduled:
            self._scheduled = True
            loop.call_soon_threadsafe(self.flush_now)

    @property
    def stream(self) -> IO[str]:
        """This object as the text stream it acts as (a rich console's `file`)."""
        return cast(IO[str], self)

    def isatty(self) -> bool:
        """It ends at a terminal (rich then keeps colours and styles)."""
        return True

    def fileno(self) -> int:
        """The terminal's descriptor, so a console can ask its size."""
        return self._terminal.fileno()

    def write(self, text: str) -> int:
        """Queue `text`; `flush` (which rich calls after each print) puts it on the screen."""
        self._pending.append(text)
        return len(text)

    def flush(self) -> None:
        """Print what is queued: now on the event loop's thread, else soon on it."""
        if self._loop is None:
            return
        if threading.get_ident() == self._loop_thread:
            self.flush_now()
        elif not self._scheduled:
            self._scheduled = True
            self._loop.call_soon_threadsafe(self.flush_now)

    def flush_now(self) -> None:
        """Print what is queued: erase the live screen, write, let it draw again below."""
        self._scheduled = False
        if self.held or not self._pending:
            return
        # Whatever a model or a log holds must be writable (a lone surrogate, say).
        text = safe_text("".join(self._pending), self._encoding)
        self._pending.clear()
        app = self._app
        if app is None or not app.is_running or app.is_done:
            self._terminal.write(text)
            self._terminal.flush()
            return
        app.renderer.erase(leave_alternate_screen=False)
        app.output.write_raw(text)
        app.output.flush()
        app.renderer.request_absolute_cursor_position()
        app.invalidate()

    def release(self) -> None:
        """Stop holding text back and print what waited."""
        self.held = False
        self.flush_now()

    def finish(self) -> None:
        """The application has ended: print what is left straight to the terminal."""
        self._app = None
        self.flush_now()
