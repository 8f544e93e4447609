"""The live bottom of the terminal, as one non-full-screen prompt_toolkit application.

From the top: the spinner line (and a running command's output, or the text streaming in),
the queued prompts, the input box or a picker in its place, the completion menu, and the
status bar. Everything above it is the terminal's own scrollback (see `Scrollback`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import (
    BufferControl,
    ConditionalContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    Window,
)
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.processors import (
    ConditionalProcessor,
    PasswordProcessor,
    Processor,
    Transformation,
    TransformationInput,
)
from prompt_toolkit.styles import Style
from prompt_toolkit.widgets import SearchToolbar

from tether.cli.interactive.completion import PromptCompleter, menu_fragments, menu_height
from tether.cli.interactive.output import terminal_output
from tether.cli.interactive.picker import Picker
from tether.cli.interactive.reflow import RewrappingApplication
from tether.cli.interactive.statusbar import StatusFacts, status_fragments

__all__ = ["INPUT_ROWS", "STYLE", "Screen"]

INPUT_ROWS = 12
"""Rows the input box grows to before it scrolls."""

STYLE = Style.from_dict(
    {
        "rule": "ansibrightblack",
        "prompt": "ansicyan bold",
        "placeholder": "ansibrightblack italic",
        "queued": "ansibrightblack",
        "status": "",
        "status.note": "ansiyellow",
        "status.hint": "ansibrightblack",
        "status.separator": "ansibrightblack",
        "mode.ask": "bold",
        "mode.accept-edits": "ansimagenta bold",
        "mode.auto": "ansired bold reverse",
        "mode.plan": "ansicyan bold",
        "budget.amber": "ansiyellow bold",
        "budget.red": "ansired bold",
        "menu": "",
        "menu.selected": "reverse",
        "menu.meta": "ansibrightblack",
        "picker.title": "bold",
        "picker.note": "ansibrightblack",
        "picker.choice": "",
        "picker.selected": "ansicyan bold",
        "picker.detail": "ansibrightblack",
        "picker.keys": "ansibrightblack",
        "picker.ask": "bold",
    }
)
"""Named ANSI colours only: they follow the terminal's own palette, light or dark."""

PLACEHOLDER = "Type a prompt · / commands · @ files · ! shell"


class Screen:
    """The application and what it shows; `live` and `facts` are filled in from outside."""

    def __init__(
        self,
        facts: StatusFacts,
        keys: KeyBindings,
        *,
        history: Path | None,
        live: Callable[[int], StyleAndTextTuples],
        queued: Callable[[], list[str]],
    ) -> None:
        self.facts = facts
        self.picker: Picker | None = None
        self.completer = PromptCompleter()
        self.completer.listed = self._relist
        self._live = live
        self._queued = queued
        self.search = SearchToolbar(ignore_case=True)
        self.input = Buffer(
            multiline=True,
            history=_history(history),
            completer=self.completer,
            complete_while_typing=True,
            name="input",
        )
        picking = Condition(lambda: self.picker is not None)
        asking = Condition(lambda: self.picker is not None and self.picker.asking is not None)
        self.picker_window = Window(
            FormattedTextControl(self._picker_fragments, focusable=True, show_cursor=False),
            dont_extend_height=True,
            # A question's title and reason wrap: nothing asked about is cut at the edge.
            wrap_lines=True,
        )
        self.picker_text = Window(
            BufferControl(buffer=_NO_BUFFER),
            height=1,
            get_line_prefix=lambda _line, _wrap: [("class:prompt", "   > ")],
        )
        self.input_window = Window(
            BufferControl(
                buffer=self.input,
                search_buffer_control=self.search.control,
                input_processors=[_Placeholder(PLACEHOLDER)],
                # Ctrl+R shows the match as the search is typed, not at the next Ctrl+R.
                preview_search=True,
            ),
            height=Dimension(min=1, max=INPUT_ROWS),
            dont_extend_height=True,
            wrap_lines=True,
            get_line_prefix=self._prefix,
        )
        rule = Window(char="─", height=1, style="class:rule")
        body = HSplit(
            [
                ConditionalContainer(
                    Window(
                        FormattedTextControl(lambda: self._live(self.width)),
                        dont_extend_height=True,
                        wrap_lines=False,
                    ),
                    filter=Condition(lambda: bool(self._live(self.width))),
                ),
                ConditionalContainer(
                    Window(FormattedTextControl(self._queued_fragments), dont_extend_height=True),
                    filter=Condition(lambda: bool(self._queued())),
                ),
                rule,
                ConditionalContainer(
                    HSplit(
                        [
                            self.picker_window,
                            ConditionalContainer(self.picker_text, filter=asking),
                        ]
                    ),
                    filter=picking,
                ),
                ConditionalContainer(self.input_window, filter=~picking),
                rule,
                ConditionalContainer(
                    Window(
                        FormattedTextControl(
                            lambda: menu_fragments(self.input.complete_state, self.width)
                        ),
                        height=lambda: menu_height(self.input),
                        wrap_lines=False,
                    ),
                    filter=~picking & Condition(lambda: menu_height(self.input) > 0),
                ),
                self.search,
                Window(
                    FormattedTextControl(lambda: status_fragments(self.facts, self.width)),
                    height=1,
                    wrap_lines=False,
                ),
            ]
        )
        output = terminal_output()
        # Without asking where the cursor is, the screen takes the rows it needs rather
        # than every row down to the bottom of the terminal: each redraw stays small.
        output.enable_cpr = False
        self.app: Application[int] = RewrappingApplication(
            output=output,
            layout=Layout(body, focused_element=self.input_window),
            key_bindings=keys,
            style=STYLE,
            full_screen=False,
            erase_when_done=True,
            mouse_support=False,
            # Draw as soon as something changed, even while a turn keeps the loop busy: the
            # first words of an answer show as they arrive.
            max_render_postpone_time=None,
        )
        # Esc must interrupt at once, not after waiting to see whether a key follows it.
        self.app.ttimeoutlen = 0.05
        # Esc is also the start of Alt+letter: this long is waited for the letter (a terminal
        # sends both in one write, so they come together).
        self.app.timeoutlen = 0.05

    @property
    def width(self) -> int:
        """The terminal's width now."""
        return self.app.output.get_size().columns

    def refresh(self) -> None:
        """Draw again (something shown changed)."""
        self.app.invalidate()

    def close(self, status: int = 0) -> None:
        """End the application with `status` (once: later calls change nothing)."""
        if self.app.is_running and not self.app.is_done:
            self.app.exit(result=status)

    def open_picker(self, picker: Picker) -> None:
        """Show `picker` in place of the input box until it is answered."""
        self.picker = picker
        # A hidden answer (a key) shows as dots, and only on this line: never in the history.
        hidden = ConditionalProcessor(PasswordProcessor("•"), Condition(picker.hiding))
        self.picker_text.content = BufferControl(buffer=picker.text, input_processors=[hidden])
        self.app.layout.focus(self.picker_window)
        picker.when_closed(lambda: self._closed(picker))
        # A cancelled wait cancels the result without an answer: it closes the picker too.
        picker.result.add_done_callback(lambda _done: self._closed(picker))
        # Its guard runs from the first draw, not from now: on a busy machine the draw can come
        # late, and keys typed before anyone could see the question are not answers.
        self.app.after_render.add_handler(self._first_draw_of(picker))
        self.refresh()

    def _first_draw_of(self, picker: Picker) -> Callable[[object], None]:
        """What starts `picker`'s guard once a draw has shown it (once, then it is removed)."""

        def drawn(_app: object) -> None:
            # Removed on the loop's next turn, not now: the event walks its list of handlers as
            # it calls them, and one removed from it now would make it skip the next one.
            asyncio.get_running_loop().call_soon(self.app.after_render.remove_handler, drawn)
            if self.picker is not picker or picker.shown_at is not None:
                return  # drawn before, or closed or replaced before it was drawn
            picker.shown()
            if picker.guard:
                # The keys line changes when the guard ends.
                asyncio.get_running_loop().call_later(picker.guard, self.refresh)

        return drawn

    def picker_typing(self) -> None:
        """The picker's choice asks for text: the cursor goes to its line."""
        if self.picker is None:
            return  # answered: the cursor is back in the input box
        if self.picker.asking is not None:
            self.app.layout.focus(self.picker_text)
        else:
            self.app.layout.focus(self.picker_window)

    def _closed(self, picker: Picker) -> None:
        if self.picker is picker:
            self.picker = None
            self.app.layout.focus(self.input_window)
            self.refresh()

    def _relist(self) -> None:
        # The files arrived after the menu was worked out: work it out again.
        if "@" in self.input.document.text_before_cursor and self.picker is None:
            self.input.start_completion(select_first=False)

    def _prefix(self, line: int, wrap: int) -> StyleAndTextTuples:
        return [("class:prompt", "› " if line == 0 and wrap == 0 else "  ")]

    def _queued_fragments(self) -> StyleAndTextTuples:
        out: StyleAndTextTuples = []
        for text in self._queued():
            first = text.strip().split("\n", 1)[0]
            more = " …" if "\n" in text.strip() else ""
            out.append(("class:queued", f"  ⏎ queued: {first[: max(self.width - 16, 8)]}{more}"))
            out.append(("", "\n"))
        if out:
            out.append(("class:queued", "    (sent when this turn ends · ↑ to edit)"))
        return out

    def _picker_fragments(self) -> StyleAndTextTuples:
        return self.picker.fragments(self.width) if self.picker is not None else []


class _Placeholder(Processor):
    """A dim hint in the empty box."""

    def __init__(self, text: str) -> None:
        self.text = text

    def apply_transformation(self, ti: TransformationInput) -> Transformation:
        if ti.document.text or ti.lineno != 0:
            return Transformation(ti.fragments)
        return Transformation([*ti.fragments, ("class:placeholder", self.text)])


_NO_BUFFER = Buffer()


def _history(path: Path | None) -> History:
    if path is None:
        return InMemoryHistory()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(exist_ok=True)
    except OSError:
        return InMemoryHistory()
    return FileHistory(str(path))
