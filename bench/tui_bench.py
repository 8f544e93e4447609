"""Benchmark the interactive `tether`: spawn to a drawn input box, and Enter to the first answer.

In the same run, in a pseudo-terminal that answers cursor-position requests as a terminal does:
- floor: spawn `python -c "import prompt_toolkit, rich"` and stop the clock when it exits
  (what any prompt_toolkit + rich program pays before drawing anything);
- startup: spawn `python -m tether --model script:FILE` and stop the clock when the input
  box is on the screen (its placeholder is written). Goal: <= 1.3x the floor's median.
- first character: once the session is loaded, type a prompt and press Enter; stop the clock
  when the first character of the scripted model's answer is written. Goal: <= 50 ms (median
  over the prompts; the first, which also creates the session, is printed apart).

Sessions go to a temporary `TETHER_HOME` removed afterwards; no request leaves the machine.

Usage: python bench/tui_bench.py [--runs N] [--prompts N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pyte

RATIO_GOAL = 1.3
FIRST_CHAR_GOAL_MS = 50.0
TIMEOUT = 120.0
PLACEHOLDER = "Type a prompt"
COLUMNS, ROWS = 120, 40
_ANSWER = "answer-{n}-marker"


class _Screen(pyte.Screen):  # type: ignore[misc]
    """Answers cursor-position requests through the child, as a terminal does."""

    def __init__(self, columns: int, rows: int, child: pexpect.spawn) -> None:
        super().__init__(columns, rows)
        self.child = child

    def write_process_input(self, data: str) -> None:
        self.child.send(data)


class Pty:
    """A child in a pty whose output is read (and cursor requests answered) until `marker`."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path) -> None:
        self.child = pexpect.spawn(
            argv[0], argv[1:], env=env, cwd=str(cwd), dimensions=(ROWS, COLUMNS), encoding="utf-8"
        )
        self.seen = ""
        self.screen = _Screen(COLUMNS, ROWS, self.child)
        self._stream = pyte.Stream(self.screen)

    def on_screen(self, text: str, timeout: float = TIMEOUT) -> float:
        """Read until `text` is on the screen (drawn, however the writes were split)."""
        return self.until(lambda: any(text in line for line in self.screen.display), timeout)

    def written(self, found: re.Pattern[str] | str, timeout: float = TIMEOUT) -> float:
        """Read until `found` is in what was written; the time it was read at."""
        if isinstance(found, str):
            return self.until(lambda: found in self.seen, timeout)
        return self.until(lambda: found.search(self.seen) is not None, timeout)

    def until(self, done: Callable[[], bool], timeout: float = TIMEOUT) -> float:
        """Read until `done()`; the time it first held."""
        deadline = time.monotonic() + timeout
        while True:
            if done():
                return time.perf_counter()
            if time.monotonic() > deadline:
                raise RuntimeError(f"nothing within {timeout}s: {self.seen[-400:]!r}")
            try:
                chunk = self.child.read_nonblocking(65536, timeout=0.5)
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF:
                raise RuntimeError(f"the process ended: {self.seen[-400:]!r}") from None
            self._stream.feed(chunk)  # the screen answers cursor requests
            self.seen += chunk

    def end(self) -> None:
        """Wait for the process to end (reading what is left), killing it if it does not."""
        try:
            self.child.expect(pexpect.EOF, timeout=TIMEOUT)
        finally:
            self.child.close(force=True)


def floor_once(env: dict[str, str], cwd: Path) -> float:
    """Seconds from spawn to exit of a bare `import prompt_toolkit, rich`."""
    start = time.perf_counter()
    child = pexpect.spawn(
        sys.executable, ["-c", "import prompt_toolkit, rich"], env=env, cwd=str(cwd)
    )
    child.expect(pexpect.EOF, timeout=TIMEOUT)
    child.close()
    if child.exitstatus != 0:
        raise RuntimeError("python -c 'import prompt_toolkit, rich' failed")
    return time.perf_counter() - start


def startup_once(env: dict[str, str], cwd: Path, script: Path) -> float:
    """Seconds from spawn to the drawn input box of `tether`."""
    start = time.perf_counter()
    pty = Pty([sys.executable, "-m", "tether", "--model", f"script:{script}"], env, cwd)
    drawn = pty.written(PLACEHOLDER)
    pty.on_screen("script.json")  # loaded: the status bar names the model
    pty.child.send("\x04")  # Ctrl+D
    pty.end()
    return drawn - start


def first_chars(
    env: dict[str, str], cwd: Path, script: Path, prompts: int
) -> tuple[list[float], list[float]]:
    """Milliseconds from Enter to the first character of each answer, in one session; and,
    as a control, from a typed key to its echo in the input box (the terminal's round trip
    and the machine's scheduling, with none of the session's work)."""
    pty = Pty([sys.executable, "-m", "tether", "--model", f"script:{script}"], env, cwd)
    pty.written(PLACEHOLDER)
    pty.on_screen("script.json")
    times, echoes = [], []
    for n in range(1, prompts + 1):
        typed = time.perf_counter()
        pty.child.send(f"question {n}")
        echoes.append((pty.on_screen(f"question {n}") - typed) * 1000)
        sent = time.perf_counter()
        pty.child.send("\r")
        answered = pty.on_screen(_ANSWER.format(n=n))
        times.append((answered - sent) * 1000)
        pty.on_screen(PLACEHOLDER)
    pty.child.send("\x04")
    pty.end()
    return times, echoes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="spawns of each kind (default 7)")
    parser.add_argument("--prompts", type=int, default=10, help="prompts timed (default 10)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tether-tui-bench-") as temp:
        root = Path(temp)
        home, cwd = root / "home", root / "ws"
        cwd.mkdir()
        script = root / "script.json"
        turns = [{"text": _ANSWER.format(n=n)} for n in range(1, args.prompts + 1)]
        script.write_text(json.dumps({"turns": turns}))
        env = {**os.environ, "TETHER_HOME": str(home), "TERM": "xterm-256color"}
        for name in ("TETHER_MODEL", "NO_COLOR", "COLUMNS", "LINES"):
            env.pop(name, None)
        floors, starts = [], []
        for _ in range(args.runs):
            floors.append(floor_once(env, cwd))
            starts.append(startup_once(env, cwd, script))
        chars, echoes = first_chars(env, cwd, script, args.prompts)
    floor, start = statistics.median(floors), statistics.median(starts)
    ratio = start / floor
    later = statistics.median(chars[1:]) if len(chars) > 1 else chars[0]
    print(f"floor (import prompt_toolkit, rich): median {floor * 1000:.0f} ms over {args.runs}")
    print(f"spawn to drawn input box:            median {start * 1000:.0f} ms over {args.runs}")
    print(f"ratio: {ratio:.2f} (goal <= {RATIO_GOAL})")
    print(
        f"Enter to first answer character: median {later:.1f} ms "
        f"(first prompt, which creates the session: {chars[0]:.1f} ms; goal <= "
        f"{FIRST_CHAR_GOAL_MS:.0f} ms)"
    )
    print(
        f"control, a typed key to its echo: median {statistics.median(echoes):.1f} ms "
        "(the pty and the machine's scheduling alone)"
    )
    return 0 if ratio <= RATIO_GOAL and later <= FIRST_CHAR_GOAL_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
