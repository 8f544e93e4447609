"""The interactive `tether` in a real pseudo-terminal, read back through a terminal emulator.

`Tui` spawns `tether ARGS` with pexpect in a pty of a given size and feeds everything it
writes to a `pyte` screen with history, which also answers the cursor-position requests
prompt_toolkit makes (as a real terminal would). Tests wait for what is on the screen or in
the scrollback, each wait bounded by a deadline, never by a fixed sleep.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pexpect
import pyte

from tests.cli.support import writing_bytecode
from tests.conftest import REPO

__all__ = ["KEYS", "TETHER", "Tui"]

TETHER = REPO / ".venv" / "bin" / "tether"
WAIT_S = 60.0
HISTORY = 5000

KEYS = {
    "enter": "\r",
    "esc": "\x1b",
    "up": "\x1b[A",
    "down": "\x1b[B",
    "tab": "\t",
    "shift-tab": "\x1b[Z",
    "ctrl-b": "\x02",
    "ctrl-c": "\x03",
    "ctrl-d": "\x04",
    "ctrl-j": "\n",
    "alt-enter": "\x1b\r",
    "backspace": "\x7f",
}
"""What the keys send."""


class _Screen(pyte.HistoryScreen):  # type: ignore[misc]
    """A pyte screen that answers device status reports through `reply`."""

    def __init__(self, columns: int, lines: int, reply: Callable[[str], None]) -> None:
        super().__init__(columns, lines, history=HISTORY, ratio=0.5)
        self._reply = reply

    def write_process_input(self, data: str) -> None:
        self._reply(data)


class Tui:
    """One interactive `tether` at `columns` x `rows`, its screen readable at any time."""

    def __init__(
        self,
        home: Path,
        args: Sequence[str],
        *,
        cwd: Path,
        columns: int = 80,
        rows: int = 30,
        env: dict[str, str] | None = None,
        stty_to: tuple[Path, Path] | None = None,
        program: Sequence[str] | None = None,
    ) -> None:
        """`stty_to`: files where the terminal's settings are written before and after;
        `program`: what runs in place of the `tether` script (an interpreter and a driver)."""
        environment = {
            **os.environ,
            "TETHER_HOME": str(home),
            "TERM": "xterm-256color",
            "PAGER": "cat",
            **(env or {}),
        }
        # pyte does not rewrap lines when it narrows: no variable may say that it does.
        rewrapping = ("TMUX", "TERM_PROGRAM", "VTE_VERSION", "KONSOLE_VERSION", "WT_SESSION")
        for name in ("TETHER_MODEL", "COLUMNS", "LINES", "NO_COLOR", *rewrapping):
            if not env or name not in env:
                environment.pop(name, None)
        writing_bytecode(environment, env)
        self._lock = threading.Condition()
        self._changes = 0
        """How many times the screen has changed (fed or resized): what the texts were read at."""
        self._display = (-1, "")
        self._everything = (-1, "")
        self.screen = _Screen(columns, rows, self._answer)
        self._stream = pyte.Stream(self.screen)
        self.raw = ""
        command, argv = str(TETHER), list(args)
        if program is not None:
            command, argv = program[0], [*program[1:], *args]
        if stty_to is not None:
            # A shell owns the terminal around tether, as it does for a person.
            script = 'stty -a > "$1"; "$3" "${@:4}"; status=$?; stty -a > "$2"; exit $status'
            command, argv = "bash", ["-c", script, "-", *map(str, stty_to), command, *argv]
        self.child = pexpect.spawn(
            command,
            argv,
            cwd=str(cwd),
            env=environment,
            dimensions=(rows, columns),
            encoding="utf-8",
            codec_errors="replace",
        )
        # pexpect sleeps 50 ms before every write (for programs that turn echo off late);
        # tether reads keys through prompt_toolkit, and each wait here is for what the
        # screen shows, so a key needs no head start: the sleeps only made every key slow.
        self.child.delaybeforesend = None
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # Reading the screen.

    @property
    def display(self) -> str:
        """The visible screen, one line per row, trailing blanks removed."""
        with self._lock:
            # pyte draws the whole screen cell by cell when asked: asked again for a screen
            # nothing has changed since (a wait's next look, a check right after it), the
            # text is the one drawn then.
            if self._display[0] != self._changes:
                text = "\n".join(line.rstrip() for line in self.screen.display)
                self._display = (self._changes, text)
            return self._display[1]

    @property
    def status_bar(self) -> str:
        """The last line drawn on the screen (the status bar under the input box)."""
        lines = [line for line in self.display.splitlines() if line.strip()]
        return lines[-1] if lines else ""

    @property
    def everything(self) -> str:
        """The scrollback above the screen, then the screen."""
        with self._lock:
            if self._everything[0] != self._changes:
                top = [_plain_row(row) for row in self.screen.history.top]
                self._everything = (self._changes, "\n".join([*top, self.display]))
            return self._everything[1]

    def wait(self, found: Callable[[], bool], what: str, timeout: float = WAIT_S) -> None:
        """Wait until `found()` holds (it is checked after every write)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while not found():
                remaining = deadline - time.monotonic()
                # The reader ends once the terminal is closed and all it was given is read.
                # The process itself is not asked (`isalive`): that reaps it, and the reader's
                # own reads ask it too, so two threads asking at once could each reap it (the
                # second one's `waitpid` found no child, and pexpect raised).
                if remaining <= 0 or not self._reader.is_alive():
                    raise AssertionError(f"{what} never showed; the screen:\n{self.display}")
                self._lock.wait(min(remaining, 0.5))

    def wait_for(self, text: str, timeout: float = WAIT_S) -> None:
        """Wait until `text` is on the screen."""
        self.wait(lambda: text in self.display, repr(text), timeout)

    def wait_for_all(self, *texts: str, timeout: float = WAIT_S) -> None:
        """Wait until every one of `texts` is on the screen at once.

        What is drawn below a line may come in a later read than the line itself: checked
        on the snapshot that showed the first, a later one is missing whenever a write is
        read in two parts (a busy machine, a long frame)."""
        self.wait(lambda: all(text in self.display for text in texts), repr(texts), timeout)

    def wait_in_scrollback(self, text: str, timeout: float = WAIT_S) -> None:
        """Wait until `text` is anywhere: on the screen or scrolled above it."""
        self.wait(lambda: text in self.everything, repr(text), timeout)

    def wait_gone(self, text: str, timeout: float = WAIT_S) -> None:
        """Wait until `text` is no longer on the screen."""
        self.wait(lambda: text not in self.display, f"the end of {text!r}", timeout)

    # Typing.

    def type(self, text: str) -> None:
        """Type text as is."""
        self.child.send(text)

    def press(self, *keys: str) -> None:
        """Press named keys (`KEYS`), one after the other."""
        for key in keys:
            self.child.send(KEYS[key])

    def line(self, text: str) -> None:
        """Type `text` and press Enter."""
        self.child.send(text)
        self.child.send("\r")

    def resize(self, columns: int, rows: int) -> None:
        """Resize the terminal (the process gets SIGWINCH)."""
        with self._lock:
            self.screen.resize(rows, columns)
            self._changes += 1
        self.child.setwinsize(rows, columns)

    def signal_tether(self, signum: int) -> None:
        """Send `signum` to tether itself (not to the shell around it, if there is one)."""
        pid = self.child.pid
        children = Path(f"/proc/{pid}/task/{pid}/children")
        found = children.read_text().split() if children.exists() else []
        os.kill(int(found[0]) if found else pid, signum)

    def finish(self, timeout: float = WAIT_S) -> int:
        """Wait for the process to end (all it wrote read); its exit status."""
        self._reader.join(timeout)
        assert not self._reader.is_alive(), f"tether did not end; the screen:\n{self.display}"
        # Its end is awaited, so closing need not sleep to give the kernel time to see it.
        self.child.wait()
        self.child.delayafterclose = 0
        self.child.close()
        status = self.child.exitstatus
        return status if status is not None else 128 + (self.child.signalstatus or 0)

    def kill(self) -> None:
        """Make sure the process is gone (a failed test must not leave it behind)."""
        try:
            if self.child.isalive():
                self.child.terminate(force=True)
        except pexpect.ExceptionPexpect:
            pass  # the reader's own read reaped it meanwhile: it is gone

    # Plumbing.

    def _answer(self, data: str) -> None:
        if self.child.isalive():
            self.child.send(data)

    def _read(self) -> None:
        while True:
            try:
                chunk = self.child.read_nonblocking(65536, timeout=0.2)
            except pexpect.TIMEOUT:
                continue
            except (pexpect.EOF, OSError):
                with self._lock:
                    self._lock.notify_all()
                return
            with self._lock:
                self.raw += chunk
                self._stream.feed(chunk)
                self._changes += 1
                self._lock.notify_all()


def _plain_row(row: dict[int, pyte.screens.Char]) -> str:
    if not row:
        return ""
    width = max(row) + 1
    return "".join(row[i].data if i in row else " " for i in range(width)).rstrip()
