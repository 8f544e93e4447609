"""The interactive `tether` in a real tmux pane: what a person sees after a day in tmux.

pyte draws what it is sent, but tmux does more, as people's terminals do: a line wider than
the pane reflows when the pane shrinks, and erasing the whole screen from its top-left
corner scrolls it into the history (`scroll-on-clear`). Tests of those artifacts run
`tether` in a pane of a tmux server of their own (its socket in a fresh directory, no
configuration file) and read the pane and its history back with `capture-pane`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from tests.cli.support import writing_bytecode
from tests.cli.tui import TETHER

__all__ = ["TMUX", "Tmux"]

TMUX = shutil.which("tmux")
WAIT_S = 60.0

needs_tmux = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
"""For tests that need tmux's own behaviour (reflow on resize, scroll-on-clear)."""


class Tmux:
    """`tether ARGS` in a tmux pane of `columns` x `rows`."""

    def __init__(
        self,
        home: Path,
        args: Sequence[str],
        *,
        cwd: Path,
        columns: int = 120,
        rows: int = 30,
        env: dict[str, str] | None = None,
        before: str | None = None,
    ) -> None:
        """`before`: a shell line run in the pane first (output above, as after a day)."""
        assert TMUX is not None
        # A short path of its own: a socket's path is limited to about 100 bytes.
        self._dir = Path(tempfile.mkdtemp(prefix="tmux-"))
        self._socket = self._dir / "s"
        environment = {
            **os.environ,
            "TETHER_HOME": str(home),
            "PAGER": "cat",
            **(env or {}),
        }
        for name in ("TETHER_MODEL", "COLUMNS", "LINES", "NO_COLOR", "TMUX", "LESS"):
            if not env or name not in env:
                environment.pop(name, None)
        writing_bytecode(environment, env)
        command = " ".join(_quoted(part) for part in [str(TETHER), *args])
        if before is not None:
            script = before + '; exec "$@"'
            command = f"bash -c {_quoted(script)} - {command}"
        self._run(
            ["new-session", "-d", "-x", str(columns), "-y", str(rows), "-c", str(cwd), command],
            env=environment,
        )
        self._run(["set-option", "-g", "remain-on-exit", "on"])

    def _run(self, args: list[str], env: dict[str, str] | None = None) -> str:
        assert TMUX is not None
        done = subprocess.run(
            [TMUX, "-S", str(self._socket), "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=30,
            check=True,
        )
        return done.stdout

    # Reading the pane.

    @property
    def everything(self) -> str:
        """The pane's history, then the pane, trailing blank lines removed."""
        text = self._run(["capture-pane", "-p", "-J", "-S", "-", "-E", "-"])
        return "\n".join(line.rstrip() for line in text.rstrip("\n").split("\n"))

    @property
    def display(self) -> str:
        """The visible pane."""
        return self._run(["capture-pane", "-p"])

    def wait(self, found: Callable[[], bool], what: str, timeout: float = WAIT_S) -> None:
        """Wait until `found()` holds, looking every 50 ms."""
        deadline = time.monotonic() + timeout
        while not found():
            if time.monotonic() > deadline:
                raise AssertionError(f"{what} never showed; the pane:\n{self.everything}")
            time.sleep(0.05)

    def wait_for(self, text: str, timeout: float = WAIT_S) -> None:
        """Wait until `text` is in the pane (not its history)."""
        self.wait(lambda: text in self.display, repr(text), timeout)

    def wait_gone(self, text: str, timeout: float = WAIT_S) -> None:
        """Wait until `text` is no longer in the pane."""
        self.wait(lambda: text not in self.display, f"the end of {text!r}", timeout)

    # Typing.

    def type(self, text: str) -> None:
        """Type text as is."""
        self._run(["send-keys", "-l", text])

    def press(self, *keys: str) -> None:
        """Press keys by tmux's names (`Enter`, `Escape`, `C-d`)."""
        self._run(["send-keys", *keys])

    def line(self, text: str) -> None:
        """Type `text` and press Enter."""
        self.type(text)
        self.press("Enter")

    def resize(self, columns: int, rows: int) -> None:
        """Resize the pane's window (the program gets SIGWINCH; tmux reflows what is there)."""
        self._run(["resize-window", "-x", str(columns), "-y", str(rows)])

    def close(self) -> None:
        """End the tmux server and what runs in it."""
        subprocess.run(
            [str(TMUX), "-S", str(self._socket), "kill-server"],
            capture_output=True,
            timeout=30,
            check=False,
        )
        shutil.rmtree(self._dir, ignore_errors=True)


def _quoted(part: str) -> str:
    return "'" + part.replace("'", "'\\''") + "'"
