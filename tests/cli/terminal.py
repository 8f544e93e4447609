"""`tether` on a real pseudo-terminal: stdin, stdout and stderr all on one pty, Ctrl-C included."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import termios
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from tests.cli.support import writing_bytecode
from tests.conftest import REPO

TETHER = REPO / ".venv" / "bin" / "tether"
WAIT_S = 30
_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


def plain(raw: str) -> str:
    """Terminal output without its escape sequences and carriage returns."""
    return _ESCAPES.sub("", raw)


class Terminal:
    """One `tether` process whose controlling terminal is a pty of `columns` x `rows`."""

    def __init__(
        self, home: Path, args: Sequence[str], *, columns: int = 100, rows: int = 40
    ) -> None:
        leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        env = {**os.environ, "TETHER_HOME": str(home), "TERM": "xterm-256color"}
        for name in ("TETHER_MODEL", "COLUMNS", "LINES", "NO_COLOR"):
            env.pop(name, None)
        writing_bytecode(env)
        self.process = subprocess.Popen(
            [str(TETHER), *args],
            env=env,
            stdin=follower,
            stdout=follower,
            stderr=follower,
            preexec_fn=_controlling_terminal,  # noqa: PLW1509 - only setsid and an ioctl
        )
        os.close(follower)
        self._leader = leader
        self._raw = b""
        self._lock = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    @property
    def text(self) -> str:
        """Everything printed so far, escapes removed."""
        with self._lock:
            return plain(self._raw.decode(errors="replace"))

    def wait_for(self, marker: str, timeout: float = WAIT_S) -> str:
        """Wait (bounded) until `marker` has been printed; return the output so far."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while marker not in plain(self._raw.decode(errors="replace")):
                remaining = deadline - time.monotonic()
                assert remaining > 0, f"no {marker!r} in {self.text!r}"
                self._lock.wait(remaining)
            return plain(self._raw.decode(errors="replace"))

    def wait_until(self, found: Callable[[str], bool], what: str, timeout: float = WAIT_S) -> str:
        """Wait (bounded) until `found(output so far)` holds; return the output so far."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while not found(text := plain(self._raw.decode(errors="replace"))):
                remaining = deadline - time.monotonic()
                assert remaining > 0, f"{what} never came: {self.text!r}"
                self._lock.wait(remaining)
            return text

    def type(self, keys: bytes) -> None:
        """Type at the keyboard (b"\\x03" is Ctrl-C)."""
        os.write(self._leader, keys)

    def finish(self, timeout: float = WAIT_S) -> int:
        """Wait for the exit status; the process is killed if it does not end in time."""
        try:
            return self.process.wait(timeout)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self._reader.join(5)
            os.close(self._leader)

    def _read(self) -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self._leader], [], [], 0.2)
            if not ready:
                if self.process.poll() is not None:
                    return
                continue
            try:
                chunk = os.read(self._leader, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self._lock:
                self._raw += chunk
                self._lock.notify_all()


def _controlling_terminal() -> None:
    # A new session whose controlling terminal is the pty, so Ctrl-C typed there is SIGINT.
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
