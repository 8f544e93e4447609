"""The live line under a running prompt: a spinner, what is happening, and for how long.

At a terminal it is a transient rich `Live` on stderr: what the conversation prints goes
above it, a running command's latest output shows inside it, and it vanishes before the
next card or question. Anywhere else (a pipe, a file) it prints nothing.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text

if TYPE_CHECKING:
    from rich.live import Live
    from rich.spinner import Spinner

__all__ = ["TAIL_LINES", "Activity", "StatusLine", "tail_text"]

TAIL_LINES = 8
"""Lines of a running command's output shown live."""


class StatusLine:
    """Shows one activity at a time; `stop` before printing anything that must stay."""

    def __init__(self, console: Console, *, enabled: bool | None = None) -> None:
        self.console = console
        self.enabled = console.is_terminal if enabled is None else enabled
        self._live: Live | None = None
        self.view = Activity()
        """What the line shows."""

    @property
    def active(self) -> bool:
        """Whether the line is on screen."""
        return self._live is not None

    def show(self, label: str, tail: RenderableType | None = None) -> None:
        """Show `label` (its clock restarts when it changes) and, below the label, `tail`."""
        if not self.enabled:
            return
        self.view.set(label, tail)
        if self._live is None:
            # rich's `Live` (and its spinner) load with the first line shown: a run whose
            # stderr is no terminal shows none, and its first request goes out without them.
            from rich.live import Live

            self._live = Live(
                self.view,
                console=self.console,
                refresh_per_second=8,
                transient=True,
                redirect_stdout=True,
                redirect_stderr=True,
            )
            self._live.start()
        else:
            self._live.refresh()

    def budget(self, text: str) -> None:
        """Show where the context budget stands (`23.1k / 128k tokens`) from now on."""
        self.view.budget = text
        if self._live is not None:
            self._live.refresh()

    def stop(self) -> None:
        """Take the line off the screen."""
        if self._live is not None:
            live, self._live = self._live, None
            live.stop()


class Activity:
    """The spinner, label and elapsed time, rendered afresh at every refresh."""

    hint = ""
    """Said after the time (`esc to interrupt` where Esc does)."""

    def __init__(self) -> None:
        self.label = ""
        self.since = time.monotonic()
        self.tail: RenderableType | None = None
        self.budget = ""
        self._spinner: Spinner | None = None
        """Made with the first render (its frames count from then, as rich's own do)."""

    def set(self, label: str, tail: RenderableType | None) -> None:
        """Show `label` (its clock restarts when it changes) over `tail`."""
        if label != self.label:
            self.label, self.since = label, time.monotonic()
        self.tail = tail

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        elapsed = time.monotonic() - self.since
        budget = f" · {self.budget}" if self.budget else ""
        hint = f" · {self.hint}" if self.hint else ""
        if self._spinner is None:
            from rich.spinner import Spinner

            self._spinner = Spinner("dots", style="cyan")
        self._spinner.text = Text(f"{self.label} · {elapsed:.1f}s{budget}{hint}", style="dim")
        yield Group(self.tail, self._spinner) if self.tail is not None else self._spinner


def tail_text(output: str, lines: int = TAIL_LINES, *, plain: bool = False) -> Text:
    """The last `lines` lines of a command's output, colours kept (`plain`: text as it is)."""
    kept = "\n".join(output.rstrip("\n").split("\n")[-lines:])
    if plain:
        # The cards' theme (and rich's Panel under it) loads with the first plain tail: a
        # run prints no card before its first request.
        from tether.render.theme import printable

        return Text(printable(kept), no_wrap=True, overflow="ellipsis")
    return Text.from_ansi(kept, no_wrap=True, overflow="ellipsis")
