"""A line of `tether run` (and of the line-by-line terminal): a slash command or the prompt.

The line is resolved against the workspace's commands and dispatched once
(`tether.surface.dispatch.dispatch`) to `RunSurface`: listings on stdout, notices on stderr,
no pickers, the prompt printed as it runs, and `/rewind`, `/undo`, `/redo`, `/fork` asked
on the terminal when there is one (`tether.cli.rewinding`).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Sequence

from rich.console import Console

from tether.cli.mcp import CliMcp
from tether.cli.printer import Printer
from tether.cli.prompting import UpdateSink, prompt_status
from tether.cli.rewinding import checkpoint_command, terminal_ask
from tether.commands import (
    CheckpointCommand,
    Invocation,
    PromptText,
    TerminalCommand,
    load_commands,
    resolve,
)
from tether.errors import CommandError
from tether.policy import PolicyMode
from tether.session import Session, SessionStore
from tether.surface.dispatch import Option, dispatch

__all__ = ["RunSurface", "run_command_or_prompt"]


def run_command_or_prompt(
    session: Session,
    store: SessionStore,
    prompt: str,
    printer: UpdateSink,
    err: Console,
    *,
    mcp: CliMcp,
    ready: Callable[[], None] | None = None,
    lasting_mode: bool = False,
) -> int:
    """A slash command (`/init`, `/mode auto`, `/undo`, custom ones) or the prompt as it is;
    its status.

    `ready` is called once before anything else is shown (when the prompt runs: once its
    MCP servers run). `lasting_mode`: a `/mode` holds for the lines that follow (the
    line-by-line terminal), where a run ends with its prompt. The session's background
    commands' cards go to `printer` too.
    """
    session.job_cards.listener = printer
    try:
        meant = resolve(prompt, load_commands(session.cwd, store.root))
    except CommandError as exc:
        err.print(f"tether: error: {exc}", markup=False)
        return 1
    if ready is not None and not isinstance(meant, PromptText):
        ready()
    surface = RunSurface(
        session, store, prompt, printer, err, mcp=mcp, ready=ready, lasting_mode=lasting_mode
    )
    return asyncio.run(_dispatched(meant, surface, session))


async def _dispatched(meant: Invocation, surface: RunSurface, session: Session) -> int:
    """Dispatch `meant`, then close the session's connections: each line runs on an event
    loop of its own, and a pool outliving its loop could never be closed."""
    try:
        return await dispatch(meant, surface)
    finally:
        await session.close_connections()


class RunSurface:
    """What dispatching one line does in `tether run`: its answer is the exit status."""

    def __init__(
        self,
        session: Session,
        store: SessionStore,
        typed: str,
        printer: UpdateSink,
        err: Console,
        *,
        mcp: CliMcp,
        ready: Callable[[], None] | None,
        lasting_mode: bool,
    ) -> None:
        self._session = session
        self.store = store
        self.typed = typed
        self.printer = printer
        self.err = err
        self.mcp = mcp
        self.ready = ready
        self.lasting_mode = lasting_mode

    @property
    def mode(self) -> PolicyMode:
        """The session's mode."""
        return self._session.gate.mode

    def session(self) -> Session:
        """The session the run prompts."""
        return self._session

    def say(self, text: str) -> None:
        """On stdout, as it is (a program may read it)."""
        self.printer.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def notice(self, text: str) -> None:
        """On stderr."""
        self.err.print(text, markup=False)

    async def pick(self, title: str, options: Sequence[Option], selected: int = 0) -> int | None:
        """No one picks from a list here."""
        return None

    def set_mode(self, mode: PolicyMode) -> None:
        """For the rest of the session's lines, or (a run) for nothing more: it says which."""
        self._session.set_mode(mode)
        if self.lasting_mode:
            self.err.print(f"mode: {mode}", markup=False)
        else:
            self.err.print(
                f"mode: {mode} (a run ends with its prompt: pass --mode {mode} to run in it)",
                markup=False,
            )

    async def done(self) -> int:
        """A command done without the model succeeded."""
        return 0

    async def prompt(self, meant: PromptText) -> int:
        """The prompt, printed as it runs; the log shows a command as typed."""
        typed = self.typed if meant.text != self.typed else None
        return await prompt_status(
            self._session,
            meant.text,
            self.printer,
            typed=typed,
            mcp=self.mcp,
            ready=self.ready,
            command=meant.source,
        )

    async def checkpoint(self, command: CheckpointCommand) -> int:
        """Conflicts asked on the terminal when someone is there (never of a program)."""
        at_terminal = sys.stdin.isatty() and isinstance(self.printer, Printer)
        ask = terminal_ask(self.err) if at_terminal else None
        return await checkpoint_command(
            self._session, command, typed=self.typed, printer=self.printer, err=self.err, ask=ask
        )

    async def terminal(self, command: TerminalCommand) -> int:
        """The interactive terminal's own commands do not run here."""
        self.err.print(
            f"/{command.name} needs the interactive terminal (tether with no subcommand)",
            style="yellow",
            markup=False,
        )
        return 0
