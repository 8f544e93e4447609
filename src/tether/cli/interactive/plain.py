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
from tether.cli.run_surface import run_command_or_prompt
from tether.commands import load_commands
from tether.errors import BadArguments, SessionError, StartupError
from tether.policy import PermissionQuestion
from tether.session import Session, SessionConfig

__all__ = ["run_plain"]

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
            for line in _lines([work.args.prompt] if work.args.prompt else []):
                text = line.strip()
                if text in ("/exit", "/quit"):
                    break
                if text:
                    status = self._one(line, text)
        except KeyboardInterrupt:
            return 130
        return status

    def close(self, reason: str = "prompt_input_exit") -> None:
        """Let go of the session (its `SessionEnd` hooks told `reason`) and say how to resume
        it."""
        session = self.session
        if session is None:
            return
        asyncio.run(session.aclose(reason, on_update=self.printer))
        if session.events:
            hint = f"Resume: tether --continue  ·  tether --resume {session.id}"
            self.err.print(hint, style="dim", markup=False)

    def _one(self, line: str, text: str) -> int:
        work = self.work
        name = text[1:].split(maxsplit=1)[0] if text.startswith("/") else ""
        if name == "clear":
            self.close("clear")
            self.session, self.printer = None, Printer(self.out, self.err, full=work.args.full)
            self._cleared = True
            self.err.print("new session", style="dim")
            return 0
        commands = load_commands(work.cwd, work.store.root, terminal=True)
        if name == "help":
            for command in commands:
                hint = f" {command.hint}" if command.hint else ""
                self.out.print(f"/{command.name}{hint}  {command.description}", markup=False)
            return 0
        mistake = unknown_command(line, [c.name for c in commands])
        if mistake is not None:
            self.err.print(mistake, style="yellow", markup=False)
            return 1
        terminal = {c.name for c in commands if c.terminal}
        if name in terminal or text.startswith("!"):
            what = f"/{name}" if name in terminal else "!command"
            self.err.print(f"{what} {_TERMINAL_ONLY}", style="yellow", markup=False)
            return 0
        if self.session is None:
            self.session = work.create(self._config())
            if self._cleared:
                self.session.replaces_cleared()
                self._cleared = False
        mcp = CliMcp(home=work.store.root, asker=self.asker, err=self.err)
        # Unlike `tether run`, a `/mode` holds for the lines that follow.
        return run_command_or_prompt(
            self.session, work.store, line, self.printer, self.err, mcp=mcp, lasting_mode=True
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
