"""Running one prompt from the terminal: Ctrl-C cancels it cleanly, the stop becomes a status."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from rich.console import Console

from tether.cli.mcp import CliMcp
from tether.cli.safe_output import consoles
from tether.cli.status import StatusLine
from tether.content import TextContent
from tether.errors import PromptFailed
from tether.models.retry import retry_notices
from tether.session import ClientUpdate, Session, TurnStop

if TYPE_CHECKING:
    from tether.session.commanded import CommandFile

__all__ = ["UpdateSink", "consoles", "exit_status", "prompt_status", "run_prompt"]


class UpdateSink(Protocol):
    """What a run's updates go to: the printer, or JSON lines for a program."""

    console: Console
    """Where text for people goes."""
    refused: bool
    """Whether a call was refused because no one could approve it."""
    failed: bool
    """Whether an update could not be shown."""

    def __call__(self, update: ClientUpdate) -> None:
        """Show one update."""
        ...

    def close(self) -> None:
        """Show what is left."""
        ...


def run_prompt(
    session: Session,
    prompt: str,
    printer: UpdateSink,
    typed: str | None = None,
    mcp: CliMcp | None = None,
    *,
    ready: Callable[[], None] | None = None,
    command: CommandFile | None = None,
) -> int:
    """Prompt the session, printing as it goes; the exit status says how it ended (see
    `prompt_status`, which this runs on an event loop of its own)."""
    return asyncio.run(
        prompt_status(session, prompt, printer, typed, mcp, ready=ready, command=command)
    )


async def prompt_status(
    session: Session,
    prompt: str,
    printer: UpdateSink,
    typed: str | None = None,
    mcp: CliMcp | None = None,
    *,
    ready: Callable[[], None] | None = None,
    command: CommandFile | None = None,
) -> int:
    """Prompt the session, printing as it goes; the exit status says how it ended.

    A turn that ended normally but had a call refused for want of someone to approve it is
    2: the run did not do what was asked; one whose output could not all be shown is 1.
    `typed` is the prompt as the person wrote it when a slash command expanded it into
    `prompt` (the log shows it as typed). `mcp` starts the MCP servers for the prompt (and
    stops them after it); `ready` is called once they run, before the prompt starts.
    `command` is the slash command's file `prompt` comes from: its `` !`cmd` `` lines run
    first, and its `allowed-tools` and `model` hold for the prompt.
    """
    try:
        stop = await _prompt(session, prompt, printer, typed, mcp, ready=ready, command=command)
    except PromptFailed:
        return 1  # the printer has shown the error already (a `TurnFailed` update)
    finally:
        # Whatever happens (an interrupt included), what the model said stays on screen.
        printer.close()
    status = exit_status(stop)
    if status == 0 and printer.failed:
        return 1  # some of the turn could not be shown: the printer said what
    return 2 if status == 0 and printer.refused else status


async def _prompt(
    session: Session,
    prompt: str,
    printer: UpdateSink,
    typed: str | None,
    mcp: CliMcp | None,
    *,
    ready: Callable[[], None] | None,
    command: CommandFile | None,
) -> TurnStop:
    servers = await mcp.start(session) if mcp is not None else None
    if ready is not None:
        ready()
    try:
        return await _prompt_now(session, prompt, printer, typed, command)
    finally:
        if servers is not None:
            await servers.close()


async def _prompt_now(
    session: Session,
    prompt: str,
    printer: UpdateSink,
    typed: str | None,
    command: CommandFile | None,
) -> TurnStop:
    loop = asyncio.get_running_loop()
    cancelled = asyncio.Event()

    def interrupt() -> None:
        cancelled.set()
        session.cancel()

    # Ctrl-C cancels the prompt like a client's cancel: results and `turn/end` still land.
    loop.add_signal_handler(signal.SIGINT, interrupt)
    status = getattr(printer, "status", None)
    if isinstance(status, StatusLine):
        # Each retry of a failing request says so on the spinner line.
        retry_notices.set(lambda notice: status.show(notice.text))
    try:
        shown = [TextContent(text=typed)] if typed is not None else None
        if command is None:
            return await session.prompt([TextContent(text=prompt)], printer, shown=shown)
        # A command file's machinery (its `!` lines, its arguments) loads with the first one.
        from tether.session.commanded import prepare_command

        prepared = await prepare_command(session, prompt, command, printer, cancelled)
        if cancelled.is_set():
            return "cancelled"
        return await session.prompt(
            prepared.content,
            printer,
            shown=shown or [TextContent(text=prompt)],
            grants=prepared.grants,
            model=prepared.model,
        )
    finally:
        loop.remove_signal_handler(signal.SIGINT)


def exit_status(stop: TurnStop) -> int:
    """0 for a finished turn, 130 for a cancelled one, 2 for any other stop."""
    if stop == "end_turn":
        return 0
    return 130 if stop == "cancelled" else 2
