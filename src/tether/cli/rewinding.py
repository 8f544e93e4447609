"""`/rewind`, `/undo`, `/redo` and `/fork` at the terminal: a listing, a plan, its conflicts
asked one by one (or kept, with no one to ask), the restore's notice."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import assert_never

from rich.console import Console
from rich.text import Text

from tether.cli.prompting import UpdateSink
from tether.commands import CheckpointCommand
from tether.session import (
    Conflict,
    RestorePlan,
    RewindError,
    Session,
    SessionStore,
)
from tether.session.rewind.plan import prompt_listing

__all__ = ["ask_conflicts", "checkpoint_command", "terminal_ask"]

Ask = Callable[[str], str | None]
"""Print a question, read the answer (`None`: no more input)."""


async def checkpoint_command(
    session: Session,
    command: CheckpointCommand,
    *,
    store: SessionStore,
    printer: UpdateSink,
    err: Console,
    ask: Ask | None,
) -> int:
    """Run one checkpoint command on `session`; the exit status (1: it could not be done).

    `ask` reads the person's answers; `None` keeps every conflicting file as it is.
    """
    try:
        match command.action:
            case "rewind" if command.prompt is None:
                prompts = await session.rewind.prompts()
                printer.console.print(prompt_listing(session.id, prompts), markup=False)
                return 0
            case "rewind" | "undo" | "redo":
                plan = await _plan(session, command)
                take = ask_conflicts(plan.conflicts, err, ask)
                printer(await session.rewind.restore(plan, take))
                return 0
            case "fork":
                forked = store.fork(session.id, command.prompt)
                forked.close()
                where = f"before prompt {command.prompt}" if command.prompt else "as it is now"
                err.print(
                    f"forked session {session.id} {where} as {forked.header.id}: "
                    f"tether run --continue {forked.header.id} PROMPT",
                    markup=False,
                )
                return 0
            case _:
                assert_never(command.action)
    except RewindError as exc:
        err.print(f"tether: {exc}", markup=False)
        return 1
    finally:
        printer.close()


async def _plan(session: Session, command: CheckpointCommand) -> RestorePlan:
    match command.action:
        case "undo":
            return await session.rewind.plan_undo()
        case "redo":
            return await session.rewind.plan_redo()
        case "rewind" | "fork":
            assert command.prompt is not None
            return await session.rewind.plan_rewind(command.prompt)
        case _:
            assert_never(command.action)


def ask_conflicts(conflicts: Sequence[Conflict], err: Console, ask: Ask | None) -> set[str]:
    """The conflicting paths the person chooses to take from the checkpoint (never by default)."""
    take: set[str] = set()
    for conflict in conflicts:
        err.print(Text(f"conflict: {conflict.path} ({conflict.reason})", style="yellow"))
        if conflict.diff:
            for line in conflict.diff.splitlines():
                style = "red" if line.startswith("-") else "green" if line.startswith("+") else ""
                err.print(Text(f"  {line}", style=style))
        if conflict.take is None or ask is None:
            err.print(Text("  kept as it is", style="dim"))
            continue
        while True:
            answer = ask("  take the checkpoint's version? [y]es / [n]o, keep mine: ")
            if answer is None or answer.strip().lower() in ("n", "no", ""):
                break
            if answer.strip().lower() in ("y", "yes"):
                take.add(conflict.path)
                break
    return take


def terminal_ask(err: Console) -> Ask:
    """Questions on stderr, answers from stdin (a line each)."""

    def ask(question: str) -> str | None:
        err.print(question, end="", markup=False)
        line = sys.stdin.readline()
        return line if line else None

    return ask
