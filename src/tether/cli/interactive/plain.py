"""`tether` where nothing can be drawn: a pipe, or a terminal that is `dumb`.

Each line read is a prompt (or a command) for one session, run as `tether run` runs it:
the same cards, printed as plain text where there are no colours; a question is asked on
the terminal when there is one (y / a / n), and refused without one. `/exit` or the end of
input ends the session and prints how to resume it. The pickers, menus, `!command` and the
live line need a terminal that can draw; their commands say so here.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator, Sequence

from rich.console import Console

from tether.cli.asker import TerminalAsker
from tether.cli.interactive.slash import unknown_command
from tether.cli.interactive.workbench import Workbench, load
from tether.cli.mcp import CliMcp
from tether.cli.printer import Printer
from tether.cli.prompting import consoles
from tether.cli.run_surface import RunSurface
from tether.commands import (
    CheckpointCommand,
    Command,
    PromptText,
    TerminalCommand,
    load_commands,
    resolve,
)
from tether.errors import BadArguments, CommandError, SessionError, StartupError
from tether.policy import PermissionQuestion, PolicyMode
from tether.session import Session, SessionConfig
from tether.surface.dispatch import Option, dispatch

__all__ = ["PlainSurface", "run_plain"]

_TERMINAL_ONLY = "needs a terminal that can draw (this one is a pipe or TERM=dumb)"


def run_plain(argv: Sequence[str]) -> int:
    """Read prompts line by line until `/exit` or the end of input."""
    out, err = consoles()
    try:
        work = load(argv, out)
    except BadArguments as exc:
        err.print(f"{exc.usage}tether: error: {exc.message}", markup=False)
        return 2
    except StartupError as exc:
        err.print(f"tether: error: {exc}", markup=False)
        return 1
    plain = _Plain(work, out, err)
    try:
        return plain.run()
    except SessionError as exc:
        err.print(f"tether: error: {exc}", markup=False)
        return 1
    finally:
        plain.close()


class _Plain:
    """One session fed line by line."""

    def __init__(self, work: Workbench, out: Console, err: Console) -> None:
        self.work, self.out, self.err = work, out, err
        self.printer = Printer(out, err, full=work.args.full)
        # Someone at a terminal answers; from a pipe nobody can, and the policy refuses.
        self.asker = TerminalAsker(err, before=self._propose) if sys.stdin.isatty() else None
        self.session: Session | None = None
        self.leaving = False
        """Set by `/exit`: no line after it is read."""
        self._cleared = False

    def run(self) -> int:
        """Open what `-c`/`-r` name, then run each line; the status of the last one."""
        work = self.work
        wanted = work.newest_here() if work.args.continue_last else work.args.resume
        if wanted:
            self.session = work.open(wanted, self._config())
            for update in self.session.replay():
                self.printer(update)
            self.printer.close()
        status = 0
        try:
            for typed in _lines([work.args.prompt] if work.args.prompt else []):
                # `/quit` is the spelling other tools use for `/exit`.
                line = "/exit" if typed.strip() == "/quit" else typed
                if text := line.strip():
                    status = self._one(line, text)
                if self.leaving:
                    break
        except KeyboardInterrupt:
            return 130
        return status

    def close(self, reason: str = "prompt_input_exit") -> None:
        """Let go of the session (its `SessionEnd` hooks told `reason`) and say how to resume
        it."""
        asyncio.run(self.let_go(reason))

    async def let_go(self, reason: str) -> None:
        """`close`, from within a running loop (a `/clear` being dispatched)."""
        session = self.session
        if session is None:
            return
        await session.aclose(reason, on_update=self.printer)
        if session.events:
            hint = f"Resume: tether --continue  ·  tether --resume {session.id}"
            self.err.print(hint, style="dim", markup=False)

    def _one(self, line: str, text: str) -> int:
        work = self.work
        commands = load_commands(work.cwd, work.store.root, terminal=True)
        mistake = unknown_command(line, [c.name for c in commands])
        if mistake is not None:
            self.err.print(mistake, style="yellow", markup=False)
            return 1
        if text.startswith("!"):
            self.err.print(f"!command {_TERMINAL_ONLY}", style="yellow", markup=False)
            return 0
        try:
            meant = resolve(line, commands)
        except CommandError as exc:
            self.err.print(f"tether: error: {exc}", markup=False)
            return 1
        return asyncio.run(dispatch(meant, PlainSurface(self, line, commands)))

    def opened(self) -> Session:
        """The session the lines go to, started with the first line that needs one."""
        if self.session is None:
            self.session = self.work.create(self._config())
            if self._cleared:
                self.session.replaces_cleared()
                self._cleared = False
        return self.session

    async def clear(self) -> None:
        """`/clear`: end the session (`clear`); the next line starts a new one."""
        await self.let_go("clear")
        self.session, self.printer = None, Printer(self.out, self.err, full=self.work.args.full)
        self._cleared = True
        self.err.print("new session", style="dim")

    def run_surface(self, typed: str) -> RunSurface:
        """What the line does as `tether run` would do it, in the session of these lines."""
        session = self.opened()
        session.job_cards.listener = self.printer
        mcp = CliMcp(home=self.work.store.root, asker=self.asker, err=self.err)
        # Unlike `tether run`, a `/mode` holds for the lines that follow.
        return RunSurface(
            session,
            self.work.store,
            typed,
            self.printer,
            self.err,
            mcp=mcp,
            ready=None,
            lasting_mode=True,
        )

    def _config(self) -> SessionConfig:
        return self.work.config(self.asker, self.work.mode, self.work.model)

    def _propose(self, question: PermissionQuestion) -> None:
        # The printer of the moment (`/clear` makes a new one) shows the card that asks.
        self.printer.propose(question)


def _lines(first: list[str]) -> Iterator[str]:
    """The prompt given on the command line, then each line of stdin as it comes."""
    yield from first
    prompt = sys.stdin.isatty()
    if prompt:
        print("> ", end="", flush=True)
    for line in sys.stdin:
        yield line
        if prompt:
            print("> ", end="", flush=True)


class PlainSurface:
    """What dispatching one line does here: as in `tether run` (`RunSurface`), in the
    session these lines share, with the terminal's own `/help`, `/clear` and `/exit`."""

    def __init__(self, plain: _Plain, typed: str, commands: Sequence[Command]) -> None:
        self._plain = plain
        self._typed = typed
        self._commands = commands

    @property
    def mode(self) -> PolicyMode:
        """The session's mode (of the next session, before one starts)."""
        session = self._plain.session
        return session.gate.mode if session is not None else self._plain.work.mode

    def session(self) -> Session:
        """The session of these lines, started now if there is none."""
        return self._plain.opened()

    def say(self, text: str) -> None:
        """On stdout, as `tether run` says it."""
        self._plain.out.print(text, markup=False, highlight=False, soft_wrap=True)

    def notice(self, text: str) -> None:
        """On stderr."""
        self._plain.err.print(text, markup=False)

    async def pick(self, title: str, options: Sequence[Option], selected: int = 0) -> int | None:
        """No one picks from a list here."""
        return None

    def set_mode(self, mode: PolicyMode) -> None:
        """For this session's lines from now on."""
        self._plain.run_surface(self._typed).set_mode(mode)

    async def done(self) -> int:
        """A command done without the model succeeded."""
        return 0

    async def prompt(self, meant: PromptText) -> int:
        """The prompt, printed as it runs."""
        return await self._plain.run_surface(self._typed).prompt(meant)

    async def checkpoint(self, command: CheckpointCommand) -> int:
        """As `tether run` asks and prints it."""
        return await self._plain.run_surface(self._typed).checkpoint(command)

    async def terminal(self, command: TerminalCommand) -> int:
        """`/help`, `/clear` and `/exit`; the terminal's other commands need one that draws."""
        plain = self._plain
        match command.name:
            case "help":
                for known in self._commands:
                    hint = f" {known.hint}" if known.hint else ""
                    plain.out.print(f"/{known.name}{hint}  {known.description}", markup=False)
            case "clear":
                await plain.clear()
            case "exit":
                plain.leaving = True
            case name:
                plain.err.print(f"/{name} {_TERMINAL_ONLY}", style="yellow", markup=False)
        return 0
