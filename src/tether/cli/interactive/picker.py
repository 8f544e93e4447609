"""A choice in place of the input box: arrow keys or digits, Enter to confirm.

Permission questions, `/resume`, `/model` and `/mode` are pickers. A choice may ask for a
line of text before it counts ("reject and tell the model what to do instead").

A question that opens by itself (a permission question, while the person may be typing the
next prompt) has a guard: keys that arrive before it is drawn, or in its first moments on
screen, are not answers; they go on into the draft they were meant for, and the keys line says
the question waits. The guard runs from the first draw, not from when the question opened: on a
busy machine the draw can come late, and no key before it can have been meant for the question.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.formatted_text import StyleAndTextTuples

__all__ = ["PICKER_ROWS", "QUESTION_GUARD", "Choice", "Picked", "Picker"]

PICKER_ROWS = 10
"""Choices shown at once; a longer list scrolls with the selection."""
QUESTION_GUARD = 0.8
"""Seconds after a question is first drawn during which keys are not taken as answers: long
enough that typing under way (and what the terminal had buffered) cannot answer it."""


@dataclass(frozen=True)
class Choice:
    """One line of a picker: its label, a dim detail after it, and whether it asks for text."""

    label: str
    detail: str = ""
    asks: str | None = None
    """When set, choosing it asks for a line of text with this prompt."""
    secret: bool = False
    """The text it asks for is hidden as it is typed (an API key)."""


@dataclass(frozen=True)
class Picked:
    """The choice made (its index) and the text it asked for, if any."""

    index: int
    text: str | None = None


class Picker:
    """One open question; `result` resolves with the choice, or `None` when dismissed."""

    def __init__(
        self,
        title: str,
        choices: Sequence[Choice],
        *,
        note: str = "",
        selected: int = 0,
        dismiss: str = "esc to cancel",
        guard: float = 0.0,
        more: str = "",
        wrap: bool = False,
    ) -> None:
        self.title = title
        self.note = note
        self.choices = tuple(choices)
        self.selected = min(max(selected, 0), max(len(self.choices) - 1, 0))
        self.dismiss = dismiss
        """What Esc does here, as the footer says it."""
        self.text = Buffer(multiline=False)
        """The line a choice that `asks` is typed into."""
        self.asking: int | None = None
        """The index of the choice whose text is being typed."""
        self.result: asyncio.Future[Picked | None] = asyncio.get_running_loop().create_future()
        self.guard = guard
        """Seconds after it is first drawn during which keys are not answers (and before)."""
        self.more = more
        self.wrap = wrap
        """Choices wrap rather than end in `…` (a question: what it allows is read whole)."""
        """A key that shows more of what is asked about (`v: see it whole`), if any."""
        self.shown_at: float | None = None
        """When it was first drawn (`time.monotonic()`); `None` until then."""
        self._on_close: list[Callable[[], None]] = []

    def when_closed(self, action: Callable[[], None]) -> None:
        """Run `action` the moment the picker is answered or dismissed."""
        # At once, not as the result's done callback (which runs on a later turn of the loop):
        # keys read in the same chunk as the answer belong to the input box, not to the picker.
        self._on_close.append(action)

    def shown(self) -> None:
        """The picker has been drawn: its guard starts now (the first call only)."""
        if self.shown_at is None:
            self.shown_at = time.monotonic()

    def guarded(self) -> bool:
        """Whether a key now is too early to be an answer: not drawn yet, or drawn too recently."""
        if not self.guard:
            return False
        return self.shown_at is None or time.monotonic() - self.shown_at < self.guard

    def move(self, delta: int) -> None:
        """Select the choice `delta` lines down (up when negative), wrapping around."""
        if self.choices and self.asking is None:
            self.selected = (self.selected + delta) % len(self.choices)

    def choose(self, index: int | None = None) -> None:
        """Choose `index` (default: the selected one); one that asks opens its text line."""
        index = self.selected if index is None else index
        if not 0 <= index < len(self.choices) or self.result.done():
            return
        self.selected = index
        if self.choices[index].asks is not None and self.asking is None:
            self.asking = index
            return
        text = self.text.text.strip() if self.asking is not None else None
        self._close(Picked(index, text))

    def hiding(self) -> bool:
        """Whether the text being typed now is hidden."""
        return self.asking is not None and self.choices[self.asking].secret

    def back(self) -> bool:
        """Leave the text line for the choices again; whether there was one to leave."""
        if self.asking is None:
            return False
        self.asking = None
        self.text.reset()
        return True

    def dismiss_now(self) -> None:
        """Close with no choice."""
        if not self.result.done():
            self._close(None)

    def _close(self, picked: Picked | None) -> None:
        self.result.set_result(picked)
        for action in self._on_close:
            action()

    def fragments(self, width: int) -> StyleAndTextTuples:
        """The title, the choices around the selection, and the keys that work."""
        out: StyleAndTextTuples = [("class:picker.title", f" {self.title}")]
        if self.note:
            out.append(("class:picker.note", f"  {self.note}"))
        out.append(("", "\n"))
        first = min(
            max(0, self.selected - PICKER_ROWS + 1), max(0, len(self.choices) - PICKER_ROWS)
        )
        for index in range(first, min(first + PICKER_ROWS, len(self.choices))):
            choice = self.choices[index]
            chosen = index == self.selected
            number = f"{index + 1}." if index < 9 else "  "
            line = f" {'❯' if chosen else ' '} {number} {choice.label}"
            style = "class:picker.selected" if chosen else "class:picker.choice"
            out.append((style, line if self.wrap else _fit(line, width)))
            if choice.detail and len(line) + 4 < width:
                out.append(("class:picker.detail", _fit(f"  {choice.detail}", width - len(line))))
            out.append(("", "\n"))
        if self.asking is not None:
            out.append(("class:picker.ask", f"   {self.choices[self.asking].asks}"))
        elif self.guarded():
            waiting = "   waiting for you · keys answer in a moment (typing goes to your draft)"
            out.append(("class:picker.keys", _fit(waiting, width)))
        else:
            keys = "↑↓ to move · enter to choose"
            if len(self.choices) > 1:
                keys = f"↑↓ or 1-{min(len(self.choices), 9)} · enter to choose"
            more = f" · {self.more}" if self.more else ""
            out.append(("class:picker.keys", _fit(f"   {keys}{more} · {self.dismiss}", width)))
        return out


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"
