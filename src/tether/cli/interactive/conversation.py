"""The loaded side of the interactive session: one session at a time, what runs in it, and
what the terminal shows of it (the scrollback, the spinner line, the status bar).

What a typed line does is `lines`' to decide; a turn's running is `turn`'s. This module
imports neither: they use it.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from prompt_toolkit.formatted_text import StyleAndTextTuples
from rich.console import RenderableType
from rich.rule import Rule
from rich.text import Text

from tether.cli.interactive.asker import ScreenAsker
from tether.cli.interactive.completion import CommandEntry
from tether.cli.interactive.front import Front
from tether.cli.interactive.live import Clipped, LiveStatus
from tether.cli.interactive.paths import FileIndex
from tether.cli.interactive.picker import Picker
from tether.cli.interactive.statusbar import budget_level
from tether.cli.interactive.workbench import Workbench
from tether.cli.printer import Printer
from tether.commands import Command
from tether.errors import ModelError
from tether.figures import short_tokens
from tether.models.base import Model
from tether.models.messages import ThinkingLevel
from tether.models.windows import context_window
from tether.policy import (
    PermissionAnswer,
    PermissionQuestion,
    PolicyMode,
    RejectWithMessage,
    is_mode,
)
from tether.session import Session
from tether.session.shell import ShellRun
from tether.session.updates import (
    ClientUpdate,
    JobChanged,
    ToolCallFinished,
    ToolCallStarted,
    UsageChanged,
)
from tether.views import TerminalCallView

if TYPE_CHECKING:  # the MCP SDK loads only when a server is configured
    from tether.mcp.servers import McpServers

__all__ = ["Conversation", "command_entries", "model_label"]

_HINT = "esc to interrupt"
_HINT_COMMAND = "esc to interrupt · ctrl+b to run in background"

log = logging.getLogger(__name__)


class Conversation:
    """Runs what the front hands it against the current session (made at the first prompt)."""

    def __init__(self, front: Front, work: Workbench) -> None:
        self.front = front
        self.work = work
        self.console = work.console
        self.mode: PolicyMode = work.mode
        self.model: Model = work.model
        self.thinking: ThinkingLevel | None = None
        """What `/thinking` chose here (`None`: the settings' level, or the log's)."""
        self.session: Session | None = None
        self.created_here = False
        """Whether the session began in this process (its first model is then known)."""
        self.first_model = work.model.name
        self.cleared = False
        """Whether the next session replaces one the person cleared (`/clear`)."""
        self.printer = self._printer()
        self.proposal: Clipped | None = None
        """The card of the question open now, if any."""
        self.asker = ScreenAsker(
            front.screen, self._propose, after=self._answered, interrupt=self.interrupt
        )
        self.files = FileIndex(work.cwd)
        self.commands: list[Command] = work.commands()
        self.task: asyncio.Task[None] | None = None
        """What runs now: a prompt, a command or a `!` line."""
        self.shell_runs: list[ShellRun] = []
        """The person's `!` commands since the last prompt (the model sees them with it)."""
        self.shell_cancel: asyncio.Event | None = None
        """Set to stop the `!` command (or a slash command's `` !`cmd` `` lines) running now."""
        self.servers: McpServers | None = None
        self.servers_started = False
        """Whether the session's MCP servers were started (with its first prompt)."""
        self.last_session: str | None = None
        """The session open when the terminal closed, if it holds anything to resume."""
        self.show_facts()

    # What the front asks.

    @property
    def busy(self) -> bool:
        """Whether a prompt, a command or a shell line runs now."""
        return self.task is not None and not self.task.done()

    def command_running(self) -> bool:
        """Whether a command of the model's runs in the foreground now."""
        return self.session is not None and self.session.jobs.in_foreground()

    def to_background(self) -> int:
        """Move the commands running in the foreground to the background; how many."""
        return self.session.jobs.to_background() if self.session is not None else 0

    def interrupt(self) -> bool:
        """Stop what runs; whether anything did."""
        if not self.busy:
            return False
        if self.session is not None and self.session.running:
            self.session.cancel()
        elif self.shell_cancel is not None:
            self.shell_cancel.set()
            if self.asker.open is not None:
                self.asker.open.dismiss_now()
        elif self.front.screen.picker is not None:
            self.front.screen.picker.dismiss_now()
        else:
            assert self.task is not None
            self.task.cancel()
        return True

    def picker_escape(self) -> None:
        """Esc on a picker: a permission question interrupts the turn; another closes."""
        picker = self.front.screen.picker
        if picker is not None and picker is self.asker.open:
            self.interrupt()
        elif picker is not None:
            picker.dismiss_now()

    def set_mode(self, mode: str) -> None:
        """Switch the mode: for the running session, and for the next one."""
        if not is_mode(mode):
            return
        self.mode = mode
        if self.session is not None:
            self.session.set_mode(mode)
        self.front.facts.mode = mode
        self.front.screen.refresh()

    def live(self, width: int) -> StyleAndTextTuples:
        """The spinner line, when something runs."""
        status = self.printer.status
        assert isinstance(status, LiveStatus)
        return status.fragments(width)

    async def close(self) -> None:
        """Interrupt what runs, wait until it is recorded, and let go of the session."""
        if self.busy:
            self.interrupt()
            assert self.task is not None
            await asyncio.wait([self.task])
        if self.session is not None and self.session.events:
            self.last_session = self.session.id
        await self.end_session()
        # Its model outlives its sessions (each closed it as it ended), and `/model` may have
        # listed the endpoint's models on it with no session open.
        await self.model.aclose()

    # The session.

    def current(self) -> Session:
        """The session, made now in the workspace if there is none yet."""
        if self.session is None:
            config = self.work.config(self.asker, self.mode, self.model)
            self.session = self.work.create(config)
            self.session.job_cards.listener = self.emit
            if self.thinking is not None:
                # Chosen before the session existed: logged now, so a resume keeps it.
                self.session.set_thinking(self.thinking)
            if self.cleared:
                self.session.replaces_cleared()
                self.cleared = False
            self.created_here = True
            self.first_model = self.model.name
        return self.session

    def adopt(self, session: Session) -> None:
        """Continue `session` here: its model if it chose one, its history in the scrollback."""
        self.session = session
        session.job_cards.listener = self.emit
        self.created_here = False
        self.cleared = False
        logged = session.configured("model")
        if logged is not None and logged != session.model.name:
            try:
                self.model = self.work.switch_model(logged)
                session.set_model(self.model, record=False)
            except ModelError as exc:
                self.notice(f"keeping {session.model.name}: {exc}", "yellow")
        session.set_mode(self.mode)
        if self.thinking is not None:
            session.set_thinking(self.thinking, record=False)
        self.printer = self._printer()
        for update in session.replay():
            self.emit(update)
        self.printer.close()
        self.say(Rule(f"resumed {session.title or session.id}", style="dim"))
        self.show_facts()

    async def end_session(self, reason: str = "prompt_input_exit") -> None:
        """Stop the session's servers and close its log (it can be resumed); `reason` is what
        its `SessionEnd` hooks are told (`clear`, `prompt_input_exit`, `other`)."""
        if self.servers is not None:
            await self.servers.close()
        self.servers, self.servers_started = None, False
        if self.session is not None:
            await self.session.aclose(reason, on_update=self.emit)
        self.session = None
        self.shell_runs.clear()
        self.printer = self._printer()
        self.show_facts()

    async def continue_in(self, session_id: str, text: str = "") -> None:
        """Leave the session for `session_id` (a fork of it), with `text` back in the input."""
        await self.end_session()
        config = self.work.config(self.asker, self.mode, self.model)
        self.adopt(self.work.open(session_id, config))
        if text:
            self.front.screen.input.text = text

    async def pick(self, picker: Picker) -> int | None:
        """The row the person picks in `picker` (`None`: dismissed)."""
        self.front.screen.open_picker(picker)
        try:
            picked = await picker.result
        finally:
            picker.dismiss_now()
        return picked.index if picked is not None else None

    def switch_model(self, spec: str) -> None:
        """Use the model `spec` names from the next request on (logged with the session)."""
        try:
            model = self.work.switch_model(spec)
        except ModelError as exc:
            self.notice(f"error: {exc}", "red")
            return
        self.model = model
        if self.session is not None:
            self.session.set_model(model)
        self.notice(f"model: {model_label(model.name)} (from the next request)")
        self.show_facts()

    def set_thinking(self, level: ThinkingLevel) -> None:
        """Ask for `level` of thinking from the next prompt on (logged with the session)."""
        self.thinking = level
        if self.session is not None:
            self.session.set_thinking(level)
        self.notice(f"thinking: {level} (from the next prompt)")

    # Output.

    def say(self, renderable: RenderableType) -> None:
        """Print into the scrollback. While a turn runs (`/usage` typed as the model writes)
        the text streaming in stays live under the spinner: printed now, it would cut the
        reply in two around what is said."""
        if self.session is None or not self.session.running:
            self.printer.close()
        self.console.print(renderable)

    def notice(self, message: str, style: str = "dim") -> None:
        """A line of the terminal's own (not the conversation's)."""
        self.say(Text(message, style=style))

    def emit(self, update: ClientUpdate) -> None:
        """Show one update of the session: the printer, the asker, the status bar."""
        if isinstance(update, UsageChanged):
            self._budget(update.used, update.size)
        self.printer(update)
        self.asker.seen(update)
        if isinstance(update, ToolCallStarted | ToolCallFinished):
            # Ctrl+B is said where it works: while a command of the model's runs.
            command = self.command_running() or isinstance(update.view, TerminalCallView)
            self.printer.status.view.hint = _HINT_COMMAND if command else _HINT
        session = self.session
        if session is not None and session.gate.mode != self.mode:
            # The session left plan mode (the person approved a plan): the bar follows.
            self.set_mode(session.gate.mode)
        if session is not None and isinstance(update, ToolCallFinished | JobChanged):
            running = len(session.jobs.running())
            if running != self.front.facts.jobs:
                self.front.facts.jobs = running
                self.front.screen.refresh()

    def _propose(self, question: PermissionQuestion) -> str:
        # The card of what would happen shows live above the question, only while it is
        # open: the call's one card goes to the scrollback when it is final.
        card = self.printer.proposal(question)
        if card is None:
            self.proposal = None
            self.printer.status.show("waiting for you")
            return ""
        rows = self.front.screen.app.output.get_size().rows - len(question.options) - 12
        self.proposal = Clipped(card, rows, "v shows it whole")
        self.printer.status.show("waiting for you", self.proposal)
        cut = self.proposal.cut(self.console, self.front.screen.width)
        return "v: see it whole" if cut else ""

    def _answered(self, question: PermissionQuestion, answer: PermissionAnswer) -> None:
        self.proposal = None
        decision = "reject" if isinstance(answer, RejectWithMessage) else answer
        self.printer.decided(question, decision)
        if self.busy:
            self.printer.status.show(self.printer.status_label())
        else:
            self.printer.status.stop()

    def _printer(self) -> Printer:
        status = LiveStatus(self.console, self.front.screen.refresh)
        status.view.hint = _HINT
        full = self.work.args.full
        return Printer(self.console, self.console, full=full, status=status, brief_reads=True)

    def _budget(self, used: int, size: int) -> None:
        facts = self.front.facts
        compact_at = self.work.args.compact_at
        facts.budget = f"{round(100 * used / size)}% of {short_tokens(size)}" if size else None
        facts.level = budget_level(used, size, compact_at)
        facts.threshold = f"compacts at {round(100 * compact_at)}%"
        self.front.screen.refresh()

    def show_facts(self) -> None:
        """Put the model, mode, sandbox and budget of now in the status bar."""
        facts = self.front.facts
        facts.model = model_label(self.model.name)
        facts.mode = self.mode
        facts.sandbox = self.work.sandbox.mode
        window = self.work.args.context_window or context_window(self.model.name)
        if self.session is not None:
            window = self.session.window
        if self.session is None or facts.budget is None:
            self._budget(0, window)
        self.front.screen.completer.commands = command_entries(self.commands)
        self.front.screen.completer.files = self.files


def model_label(name: str) -> str:
    """A model as the status bar names it: `deepseek-chat`, `script:demo.json`."""
    kind, _, rest = name.partition(":")
    if kind == "script" and rest:
        return f"script:{Path(rest).name}"
    return rest or name


def command_entries(commands: list[Command]) -> list[CommandEntry]:
    """The commands as the completer offers them."""
    return [CommandEntry(c.name, c.description, c.hint) for c in commands]
