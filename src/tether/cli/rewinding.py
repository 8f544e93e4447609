"""`/rewind`, `/undo`, `/redo` and `/fork` at the terminal: the session's `Rewinder` does
them; here is only the asking (on stderr, a line of stdin each) and the printing."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import assert_never

from rich.console import Console
from rich.text import Text

from tether.cli.prompting import UpdateSink
from tether.commands import CheckpointCommand
from tether.errors import RewindError
from tether.session import Conflict, Session
from tether.session.rewind.conflicts import KEEP, KEPT, TAKE
from tether.session.rewind.rewinder import Forked, Listing, Restored

__all__ = ["TerminalConflicts", "checkpoint_command", "conflict_diff", "terminal_ask"]

Ask = Callable[[str], str | None]
"""Print a question, read the answer (`None`: no more input)."""


async def checkpoint_command(
    session: Session,
    command: CheckpointCommand,
    *,
    typed: str,
    printer: UpdateSink,
    err: Console,
    ask: Ask | None,
) -> int:
    """Run one checkpoint command on `session`; the exit status (1: it could not be done).

    `ask` reads the person's answers; `None` keeps every conflicting file as it is. The
    command as `typed` and tether's answer go into the log, as ACP's do, so `tether show`
    and a client's `session/load` show what was asked where it was.
    """
    try:
        done = await session.rewind.run(command, TerminalConflicts(err, ask), typed=typed)
        match done:
            case Listing(text=text):
                session.rewind.answer(typed, text + "\n")
                printer.console.print(text, markup=False)
            case Restored(notice=notice):
                printer(notice)
            case Forked(session_id=forked, source_id=source, prompt=prompt):
                where = f"before prompt {prompt}" if prompt else "as it is now"
                said = f"Forked this session {where} as {forked}.\n"
                session.rewind.answer(typed, said, fork=forked, prompt=prompt)
                err.print(
                    f"forked session {source} {where} as {forked}: "
                    f"tether run --continue {forked} PROMPT",
                    markup=False,
                )
            case _:
                assert_never(done)
        return 0
    except RewindError as exc:
        session.rewind.answer(typed, f"Cannot {command.action}: {exc}\n")
        err.print(f"tether: {exc}", markup=False)
        return 1
    finally:
        printer.close()


class TerminalConflicts:
    """Conflicts shown on stderr with their diff, each asked with a line of input."""

    def __init__(self, err: Console, ask: Ask | None) -> None:
        self._err = err
        self._ask = ask

    async def ask(self, conflict: Conflict) -> bool:
        """Whether the person takes the checkpoint's version (no one to ask: no)."""
        self._show(conflict)
        if self._ask is None:
            self._err.print(Text(f"  {KEPT}", style="dim"))
            return False
        while True:
            answer = self._ask(f"  {conflict.question} [y] {TAKE} / [n] {KEEP}: ")
            if answer is None or answer.strip().lower() in ("n", "no", ""):
                return False
            if answer.strip().lower() in ("y", "yes"):
                return True

    def keep(self, conflict: Conflict) -> None:
        """Show a conflict that stays as it is."""
        self._show(conflict)
        self._err.print(Text(f"  {KEPT}", style="dim"))

    def _show(self, conflict: Conflict) -> None:
        self._err.print(Text(conflict.heading, style="yellow"))
        if conflict.diff:
            self._err.print(conflict_diff(conflict), end="")


def conflict_diff(conflict: Conflict) -> Text:
    """A conflict's diff, indented, its removed lines red and its added lines green."""
    diff = Text()
    for line in conflict.diff.splitlines():
        style = "red" if line.startswith("-") else "green" if line.startswith("+") else ""
        diff.append(f"  {line}\n", style=style)
    return diff


def terminal_ask(err: Console) -> Ask:
    """Questions on stderr, answers from stdin (a line each)."""

    def ask(question: str) -> str | None:
        err.print(question, end="", markup=False)
        line = sys.stdin.readline()
        return line if line else None

    return ask
