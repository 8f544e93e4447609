"""A question's guard runs from when it is first drawn: keys before it, or in its first moments
on screen, go to the draft; the screen is tether's own, over a pipe and a terminal emulator."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stdout
from pathlib import Path

import pyte
from prompt_toolkit.application import Application, create_app_session
from prompt_toolkit.input import PipeInput, create_pipe_input

from tether.cli.interactive.front import Front
from tether.cli.interactive.picker import QUESTION_GUARD, Choice, Picked, Picker

HOLD = QUESTION_GUARD + 1.5
"""How long after the screen's last draw the question's first draw waits: longer than the
guard, as on a machine so busy the question shows only after its guard would have run out."""
WAIT_S = 10.0


class _Terminal(io.StringIO):
    """What the screen writes, read by a terminal emulator (80 columns, 24 rows)."""

    def __init__(self) -> None:
        super().__init__()
        self.screen = pyte.Screen(80, 24)
        self._stream = pyte.Stream(self.screen)

    def isatty(self) -> bool:
        """A terminal, as the screen's output expects."""
        return True

    def write(self, text: str) -> int:
        """Show `text` on the emulated screen."""
        self._stream.feed(text)
        return len(text)

    @property
    def shown(self) -> str:
        """The screen's lines now."""
        return "\n".join(self.screen.display)


@contextmanager
def _session(tmp_path: Path) -> Iterator[tuple[Front, PipeInput, _Terminal]]:
    """The interactive screen and its keys, as `tether` makes them, over a pipe of keys."""
    terminal = _Terminal()
    with create_pipe_input() as keys, create_app_session(input=keys), redirect_stdout(terminal):
        yield Front(tmp_path, "ask", None), keys, terminal


async def _until(done: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not done():
        assert time.monotonic() < deadline, f"waited {WAIT_S} s for {what}"
        await asyncio.sleep(0.01)


async def test_keys_before_a_question_is_drawn_and_in_its_first_moments_on_screen_are_not_answers(
    tmp_path: Path,
) -> None:
    with _session(tmp_path) as (front, keys, terminal):
        screen = front.screen
        app: Application[int] = screen.app
        # Draws at most every HOLD seconds: the question's first draw comes HOLD after the last.
        app.min_redraw_interval = HOLD
        drawn: list[float] = []

        def draw(_app: object) -> None:
            drawn.append(time.monotonic())
            if len(drawn) == 2:  # the question's first draw: a key typed as it shows
                app.min_redraw_interval = None
                keys.send_text("2")

        app.after_render.add_handler(draw)
        running = asyncio.ensure_future(app.run_async())
        await _until(lambda: bool(drawn), "the first draw")
        picker = Picker(
            "Allow touch HAZARD.txt?",
            [Choice("Allow once"), Choice("Reject")],
            guard=QUESTION_GUARD,
        )
        screen.open_picker(picker)
        opened = time.monotonic()

        # Past the guard counted from the opening, still before the draw: not an answer.
        await asyncio.sleep(QUESTION_GUARD + 0.1)
        keys.send_text("1")
        await _until(lambda: screen.input.text == "1" or picker.result.done(), "the key")
        assert len(drawn) == 1, "the question was drawn before the key was read"
        assert time.monotonic() - opened > QUESTION_GUARD
        assert not picker.result.done() and screen.input.text == "1"
        assert "HAZARD" not in terminal.shown

        # Drawn at last: its guard starts now, and a key at once is still not an answer.
        await _until(lambda: len(drawn) >= 2, "the question's first draw")
        assert "Allow touch HAZARD.txt?" in terminal.shown
        assert "waiting for you" in terminal.shown
        await _until(lambda: screen.input.text == "12" or picker.result.done(), "the key")
        assert time.monotonic() - drawn[1] < QUESTION_GUARD, "the key came after the guard"
        assert not picker.result.done() and screen.input.text == "12"

        # The keys line changes by itself once the guard has run from the draw.
        await _until(lambda: "enter to choose" in terminal.shown, "the keys line")
        assert time.monotonic() - drawn[1] >= QUESTION_GUARD
        assert "waiting for you" not in terminal.shown
        keys.send_text("2")
        assert await asyncio.wait_for(picker.result, WAIT_S) == Picked(1)
        assert screen.input.text == "12"
        screen.close()
        assert await asyncio.wait_for(running, WAIT_S) == 0


async def test_a_question_closed_before_its_draw_starts_nothing_and_a_plain_picker_answers_at_once(
    tmp_path: Path,
) -> None:
    with _session(tmp_path) as (front, keys, terminal):
        screen = front.screen
        # Opened before the screen has drawn anything: the first draw is the question's.
        gone = Picker("Allow rm -rf build?", [Choice("Allow once")], guard=QUESTION_GUARD)
        screen.open_picker(gone)
        gone.dismiss_now()
        question = Picker("Allow touch HAZARD.txt?", [Choice("Allow once")], guard=QUESTION_GUARD)
        screen.open_picker(question)
        running = asyncio.ensure_future(screen.app.run_async())
        await _until(lambda: question.shown_at is not None, "the question's first draw")
        assert gone.shown_at is None and "rm -rf" not in terminal.shown
        assert "waiting for you" in terminal.shown
        keys.send_text("1")  # at once: typing
        await _until(lambda: screen.input.text == "1", "the key")
        assert question.guarded() and not question.result.done()
        question.dismiss_now()

        plain = Picker("Which model?", [Choice("fast"), Choice("slow")])
        screen.open_picker(plain)
        keys.send_text("2")  # no guard: an answer even before its draw
        assert await asyncio.wait_for(plain.result, WAIT_S) == Picked(1)
        assert screen.input.text == "1"
        screen.close()
        assert await asyncio.wait_for(running, WAIT_S) == 0
