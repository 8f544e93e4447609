"""The spinner line of the interactive session: the same `StatusLine`, drawn in the live area.

`tether run` shows it as a transient rich `Live`; here it is one part of the prompt_toolkit
screen, above the input box, rendered by rich into text with escapes at every redraw.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from typing import IO, Literal, cast

from prompt_toolkit.formatted_text import ANSI, StyleAndTextTuples, to_formatted_text
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from rich.text import Text

from tether.cli.status import StatusLine

__all__ = ["Clipped", "LiveStatus", "console_like", "render_ansi"]

_ColorSystem = Literal["standard", "256", "truecolor", "windows"] | None

_TICK = 0.1
"""Seconds between redraws while the spinner turns."""


class LiveStatus(StatusLine):
    """A `StatusLine` whose line is part of the screen: `redraw` is asked for at each change."""

    def __init__(self, console: Console, redraw: Callable[[], None]) -> None:
        super().__init__(console, enabled=True)
        self._redraw = redraw
        self._on = False
        self._ticker: asyncio.Task[None] | None = None

    @property
    def active(self) -> bool:
        """Whether the line is on screen."""
        return self._on

    def show(self, label: str, tail: RenderableType | None = None) -> None:
        """Show `label` over `tail` (a command's latest output, the text streaming in)."""
        self.view.set(label, tail)
        self._on = True
        if self._ticker is None or self._ticker.done():
            self._ticker = asyncio.get_running_loop().create_task(self._tick())
        self._redraw()

    def budget(self, text: str) -> None:
        """Where the context budget stands (the status bar shows it; kept for `run`'s line)."""
        self.view.budget = ""

    def stop(self) -> None:
        """Take the line away."""
        if self._on:
            self._on = False
            self._redraw()

    def fragments(self, width: int) -> StyleAndTextTuples:
        """The line as prompt_toolkit text, `width` columns wide (nothing when it is off)."""
        if not self._on:
            return []
        return render_ansi(self.console, self.view, width)

    async def _tick(self) -> None:
        # The spinner and the clock move only while the line is on.
        while self._on:
            await asyncio.sleep(_TICK)
            self._redraw()


def render_ansi(like: Console, renderable: RenderableType, width: int) -> StyleAndTextTuples:
    """`renderable` rendered by rich as `like` would (colours, encoding), as prompt_toolkit text."""
    buffer = io.StringIO()
    console_like(like, buffer, width).print(renderable, end="")
    return to_formatted_text(ANSI(buffer.getvalue()))


def console_like(like: Console, file: IO[str], width: int) -> Console:
    """A console writing to `file`, `width` columns wide, with the colours `like` uses."""
    system = cast(_ColorSystem, like.color_system)
    return Console(
        file=file,
        width=max(width, 20),
        force_terminal=True,
        color_system=system,
        no_color=like.no_color,
        highlight=False,
    )


class Clipped:
    """A card shown live at most `rows` lines tall (the screen must keep room for the question
    under it), then a line saying how many more there are and how to see them: rendered once
    per width, not at every tick of the spinner."""

    def __init__(self, card: RenderableType, rows: int, more: str) -> None:
        self.card = card
        self.rows = max(rows, 3)
        self.more = more
        self._lines: tuple[int, list[list[Segment]]] | None = None

    def lines(self, console: Console, width: int) -> list[list[Segment]]:
        """The card's lines at `width` columns."""
        if self._lines is None or self._lines[0] != width:
            options = console.options.update_width(width)
            self._lines = (width, console.render_lines(self.card, options, pad=False))
        return self._lines[1]

    def cut(self, console: Console, width: int) -> bool:
        """Whether the card is taller than it may be at `width` columns."""
        return len(self.lines(console, width)) > self.rows

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = self.lines(console, options.max_width)
        shown = lines if len(lines) <= self.rows else lines[: self.rows - 1]
        for line in shown:
            yield from line
            yield Segment.line()
        if len(shown) < len(lines):
            yield Text(f"… {len(lines) - len(shown)} more lines · {self.more}", style="dim")
