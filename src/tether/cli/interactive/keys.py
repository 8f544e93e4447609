"""The keys of the interactive session.

| key                          | does                                                      |
|------------------------------|-----------------------------------------------------------|
| Enter                        | send the prompt (queued while a turn runs)                |
| Shift+Enter, Alt+Enter, Ctrl+J | a new line                                              |
| Up / Down                    | history (on the first / last line); a queued prompt back  |
| Ctrl+R                       | search the history                                        |
| Tab                          | complete (`/` commands, `@` paths)                        |
| Esc                          | interrupt the running turn; close a menu or picker       |
| Esc Esc                      | on an empty box with nothing running: `/rewind`          |
| Ctrl+G                       | edit the prompt in `$VISUAL` / `$EDITOR`                  |
| Ctrl+Z                       | suspend (SIGTSTP); `fg` comes back                        |
| Alt+B, Alt+F, Alt+D          | a word back, forward, delete the next word               |
| Ctrl+C                       | clear the box, else interrupt; twice on an empty box: exit |
| Ctrl+D                       | exit (on an empty box)                                    |
| Shift+Tab                    | cycle the mode: ask → accept-edits → auto → plan          |
| Ctrl+B                       | while a command runs: move it to the background           |
| 1-9, arrows, Enter           | answer a picker (till a question is 0.8 s on screen: the draft) |

Terminals send Shift+Enter in several ways (the kitty protocol, xterm's modifyOtherKeys, or
Esc+Enter as VS Code's terminal is often set up to): each is read as Ctrl+J.
"""

from __future__ import annotations

from typing import Protocol

from prompt_toolkit.filters import Condition
from prompt_toolkit.input.ansi_escape_sequences import ANSI_SEQUENCES
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

from tether.cli.interactive.picker import Picker
from tether.cli.interactive.screen import Screen

__all__ = ["Controls", "key_bindings", "read_shift_enter", "submit"]

_NEWLINE_SEQUENCES = ("\x1b\r", "\x1b[13;2u", "\x1b[27;2;13~", "\x1b[13;2~")


class Controls(Protocol):
    """What the keys ask of the conversation."""

    @property
    def screen(self) -> Screen:
        """The screen the keys act on."""
        ...

    def submit(self, typed: str) -> None:
        """Send (or queue) what was typed."""
        ...

    def escape(self) -> None:
        """Esc with nothing else to close: interrupt the running turn, if any."""
        ...

    def control_c(self) -> None:
        """Ctrl+C on an empty box: interrupt a turn, else exit when pressed twice."""
        ...

    def quit(self) -> None:
        """Leave the session (Ctrl+D, `/exit`)."""
        ...

    def cycle_mode(self) -> None:
        """Switch to the next mode."""
        ...

    def recall(self) -> str | None:
        """Take back the last queued prompt, to edit it."""
        ...

    def paste(self, data: str) -> str:
        """What a bracketed paste puts in the box."""
        ...

    def picker_escape(self) -> None:
        """Esc or Ctrl+C on a picker: dismiss it (a permission question: interrupt the turn)."""
        ...

    def view_whole(self) -> None:
        """Show the whole of what a question is about (a long diff, a long command)."""
        ...

    def command_running(self) -> bool:
        """Whether a command of the model's runs in the foreground now."""
        ...

    def to_background(self) -> None:
        """Move the commands running in the foreground to the background (Ctrl+B)."""
        ...


def read_shift_enter() -> None:
    """Read every way terminals send Shift+Enter or Alt+Enter as Ctrl+J (a new line)."""
    for sequence in _NEWLINE_SEQUENCES:
        ANSI_SEQUENCES.setdefault(sequence, Keys.ControlJ)


def key_bindings(controls: Controls) -> KeyBindings:
    """The bindings, each active only where it means something."""
    kb = KeyBindings()
    _box_keys(kb, controls)
    _menu_keys(kb, controls)
    _picker_keys(kb, controls)

    @kb.add("s-tab", filter=~_asking(controls))
    def _mode(event: KeyPressEvent) -> None:
        controls.cycle_mode()

    # Only while a command runs: otherwise Ctrl+B stays the box's "a character back".
    @kb.add("c-b", filter=Condition(controls.command_running) & ~_asking(controls))
    def _background(event: KeyPressEvent) -> None:
        controls.to_background()

    return kb


def _picking(controls: Controls) -> Condition:
    return Condition(lambda: controls.screen.picker is not None)


def _asking(controls: Controls) -> Condition:
    return Condition(lambda: (p := controls.screen.picker) is not None and p.asking is not None)


def _typing(controls: Controls) -> Condition:
    """The cursor is in the input box (not in a picker, not in the history search)."""
    return Condition(
        lambda: (
            controls.screen.picker is None
            and controls.screen.app.layout.current_buffer is controls.screen.input
        )
    )


def _menu(controls: Controls) -> Condition:
    return Condition(lambda: bool((s := controls.screen.input.complete_state) and s.completions))


def _box_keys(kb: KeyBindings, controls: Controls) -> None:
    """Sending, new lines, history, Esc, Ctrl+C, Ctrl+D and pastes in the input box."""
    typing, menu = _typing(controls), _menu(controls)

    @kb.add("enter", filter=typing & ~menu)
    def _submit(event: KeyPressEvent) -> None:
        submit(controls)

    @kb.add("c-j", filter=typing)
    def _newline(event: KeyPressEvent) -> None:
        controls.screen.input.newline(copy_margin=False)

    @kb.add("up", filter=typing & ~menu)
    def _up(event: KeyPressEvent) -> None:
        buffer = controls.screen.input
        if not buffer.text and (queued := controls.recall()) is not None:
            buffer.text = queued
            buffer.cursor_position = len(queued)
            return
        buffer.auto_up(count=event.arg)

    @kb.add("down", filter=typing & ~menu)
    def _down(event: KeyPressEvent) -> None:
        controls.screen.input.auto_down(count=event.arg)

    # Not eager: Alt+letter arrives as Esc then the letter, and Emacs's word keys (Alt+B,
    # Alt+F, Alt+D, Alt+Backspace) must see both; a lone Esc fires after `timeoutlen`.
    @kb.add("escape", filter=typing)
    def _escape(event: KeyPressEvent) -> None:
        buffer = controls.screen.input
        if buffer.complete_state is not None:
            buffer.complete_state = None
            return
        controls.escape()

    @kb.add("c-c", filter=typing)
    def _control_c(event: KeyPressEvent) -> None:
        buffer = controls.screen.input
        if buffer.text:
            buffer.reset()
            return
        controls.control_c()

    @kb.add("c-z", filter=typing)
    def _suspend(event: KeyPressEvent) -> None:
        """Stop as a shell's job (SIGTSTP); `fg` brings the screen back as it was."""
        event.app.suspend_to_background()

    @kb.add("c-g", filter=typing)
    def _editor(event: KeyPressEvent) -> None:
        """Edit the prompt in `$VISUAL` / `$EDITOR`; it comes back into the box, unsent."""
        controls.screen.input.open_in_editor(validate_and_handle=False)

    @kb.add("c-d", filter=typing)
    def _control_d(event: KeyPressEvent) -> None:
        buffer = controls.screen.input
        if buffer.text:
            buffer.delete()
            return
        controls.quit()

    @kb.add(Keys.BracketedPaste, filter=typing)
    def _paste(event: KeyPressEvent) -> None:
        controls.screen.input.insert_text(controls.paste(event.data))


def submit(controls: Controls) -> None:
    """Send what the box holds (nothing when it is blank) and empty it."""
    buffer = controls.screen.input
    typed = buffer.text
    if not typed.strip():
        return
    buffer.append_to_history()
    buffer.reset()
    controls.submit(typed)


def _menu_keys(kb: KeyBindings, controls: Controls) -> None:
    """The completion menu: Tab, arrows, and Enter to take the selection."""
    typing, menu = _typing(controls), _menu(controls)

    @kb.add("enter", filter=typing & menu)
    def _accept(event: KeyPressEvent) -> None:
        buffer = controls.screen.input
        state = buffer.complete_state
        assert state is not None
        completion = state.current_completion or state.completions[0]
        if state.current_completion is None:
            buffer.apply_completion(completion)
        buffer.complete_state = None
        if buffer.text.startswith("/") and completion.text.startswith("/"):
            # A command runs at once: what follows it is optional everywhere.
            submit(controls)

    @kb.add("tab", filter=typing)
    def _complete(event: KeyPressEvent) -> None:
        buffer = controls.screen.input
        state = buffer.complete_state
        if state is None or not state.completions:
            buffer.start_completion(select_first=True)
        elif state.current_completion is None:
            buffer.complete_next()
        else:
            buffer.complete_state = None  # keep what was completed

    @kb.add("up", filter=typing & menu)
    def _up(event: KeyPressEvent) -> None:
        controls.screen.input.complete_previous()

    @kb.add("down", filter=typing & menu)
    def _down(event: KeyPressEvent) -> None:
        controls.screen.input.complete_next()


def _picker_keys(kb: KeyBindings, controls: Controls) -> None:
    """Arrows or digits to choose, Enter to confirm, Esc to dismiss (or go back from text);
    keys in a question's guard time go to the draft instead."""

    picking, asking = _picking(controls), _asking(controls)
    early = Condition(lambda: (p := controls.screen.picker) is not None and p.guarded())
    choosing = picking & ~asking & ~early

    @kb.add(Keys.Any, filter=picking & early)
    @kb.add("enter", filter=picking & early)
    @kb.add("up", filter=picking & early)
    @kb.add("down", filter=picking & early)
    def _early(event: KeyPressEvent) -> None:
        """A key in the guard time was meant for the draft: it goes there, not to the picker."""
        if event.data.isprintable():
            controls.screen.input.insert_text(event.data)

    @kb.add("v", filter=choosing & Condition(lambda: bool(_picker(controls.screen).more)))
    def _view(event: KeyPressEvent) -> None:
        controls.view_whole()

    @kb.add("up", filter=choosing)
    @kb.add("k", filter=choosing)
    def _up(event: KeyPressEvent) -> None:
        _picker(controls.screen).move(-1)

    @kb.add("down", filter=choosing)
    @kb.add("j", filter=choosing)
    def _down(event: KeyPressEvent) -> None:
        _picker(controls.screen).move(1)

    for digit in "123456789":

        @kb.add(digit, filter=choosing)
        def _digit(event: KeyPressEvent) -> None:
            _picker(controls.screen).choose(int(event.data) - 1)
            controls.screen.picker_typing()

    @kb.add("enter", filter=picking & ~early)
    def _choose(event: KeyPressEvent) -> None:
        _picker(controls.screen).choose()
        controls.screen.picker_typing()

    # Esc and Ctrl+C interrupt at once, guard or not: they are never answers.
    @kb.add("escape", filter=picking & ~asking, eager=True)
    @kb.add("c-c", filter=picking & ~asking)
    def _escape(event: KeyPressEvent) -> None:
        controls.picker_escape()

    @kb.add("escape", filter=asking, eager=True)
    @kb.add("c-c", filter=asking)
    def _back(event: KeyPressEvent) -> None:
        _picker(controls.screen).back()
        controls.screen.picker_typing()

    @kb.add(Keys.Any, filter=choosing)
    def _ignore(event: KeyPressEvent) -> None:
        """Other keys do nothing while a choice is open."""


def _picker(screen: Screen) -> Picker:
    picker = screen.picker
    assert picker is not None
    return picker
