"""The loaded side of the interactive session: one session at a time, its turns and commands.

A prompt runs as a task on the event loop while the screen stays live; Esc cancels it the
way ACP's `session/cancel` does (tools stop, the log records it, the session stays usable).
A model or network error is printed and the session waits for the next prompt.
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

from tether.agents import agents_text
from tether.cli.interactive.asker import ScreenAsker
from tether.cli.interactive.completion import CommandEntry
from tether.cli.interactive.front import Front
from tether.cli.interactive.live import Clipped, LiveStatus
from tether.cli.interactive.paths import FileIndex
from tether.cli.interactive.picker import Picker
from tether.cli.interactive.slash import literal, unknown_command
from tether.cli.interactive.statusbar import budget_level
from tether.cli.interactive.workbench import Workbench
from tether.cli.mcp import CliMcp
from tether.cli.model_args import missing_key
from tether.cli.printer import Printer
from tether.commands import (
    AgentsList,
    CheckpointCommand,
    Command,
    ModeSwitch,
    PermissionsList,
    PromptText,
    SkillsList,
    resolve,
)
from tether.content import ContentBlock, TextContent
from tether.errors import CommandError, ModelError, PromptFailed, SessionError
from tether.figures import short_tokens
from tether.models.base import Model
from tether.models.messages import ThinkingLevel
from tether.models.retry import retry_notices
from tether.models.windows import context_window
from tether.policy import (
    PermissionAnswer,
    PermissionQuestion,
    PolicyMode,
    RejectWithMessage,
    is_mode,
)
from tether.session import Session
from tether.session.commanded import CommandFile, CommandPrompt, prepare_command
from tether.session.log.shown import ShownBlock
from tether.session.mentions import attachments
from tether.session.shell import ShellRun, run_shell
from tether.session.updates import ClientUpdate, ToolCallFinished, UsageChanged
from tether.skills import skills_text

if TYPE_CHECKING:  # the MCP SDK loads only when a server is configured
    from tether.mcp.servers import McpServers

__all__ = ["Conversation", "model_label"]

log = logging.getLogger(__name__)

IMMEDIATE = ("help", "usage", "cost", "exit")
"""Commands that run at once even while a turn runs (`/mode X` and `/model X` too)."""


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
        self._paging: asyncio.Task[None] | None = None
        self.asker = ScreenAsker(
            front.screen, self._propose, after=self._answered, interrupt=self.interrupt
        )
        self.files = FileIndex(work.cwd)
        self.commands: list[Command] = work.commands()
        self.task: asyncio.Task[None] | None = None
        self.shell_runs: list[ShellRun] = []
        self._shell_cancel: asyncio.Event | None = None
        self._servers: McpServers | None = None
        self._servers_started = False
        self.last_session: str | None = None
        """The session open when the terminal closed, if it holds anything to resume."""
        self.show_facts()

    # What the front asks.

    @property
    def busy(self) -> bool:
        """Whether a prompt, a command or a shell line runs now."""
        return self.task is not None and not self.task.done()

    def immediate(self, text: str) -> bool:
        """Commands that do not need the turn to end: help, usage, exit, `/mode X`, `/model X`."""
        if not text.startswith("/") or literal(text) is not None:
            return False
        name, arguments = _split(text)
        return name in IMMEDIATE or (name in ("mode", "model", "thinking") and bool(arguments))

    def start(self, text: str) -> None:
        """Run `text`: a `!` command, a `/` command or a prompt."""
        if self.busy:
            # Only an immediate command gets here while something runs.
            self._immediate(text)
            return
        self.task = asyncio.get_running_loop().create_task(self._run(text))
        self.task.add_done_callback(self._finished)

    def interrupt(self) -> bool:
        """Stop what runs; whether anything did."""
        if not self.busy:
            return False
        if self.session is not None and self.session.running:
            self.session.cancel()
        elif self._shell_cancel is not None:
            self._shell_cancel.set()
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

    # The session.

    def current(self) -> Session:
        """The session, made now in the workspace if there is none yet."""
        if self.session is None:
            config = self.work.config(self.asker, self.mode, self.model)
            self.session = self.work.create(config)
            self.session.job_cards.listener = self._emit
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
        session.job_cards.listener = self._emit
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
            self._emit(update)
        self.printer.close()
        self.say(Rule(f"resumed {session.title or session.id}", style="dim"))
        self.show_facts()

    async def end_session(self, reason: str = "prompt_input_exit") -> None:
        """Stop the session's servers and close its log (it can be resumed); `reason` is what
        its `SessionEnd` hooks are told (`clear`, `prompt_input_exit`, `other`)."""
        if self._servers is not None:
            await self._servers.close()
        self._servers, self._servers_started = None, False
        if self.session is not None:
            await self.session.aclose(reason, on_update=self._emit)
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

    # Running what was typed.

    async def _run(self, text: str) -> None:
        stripped = text.strip()
        if stripped.startswith("!") and stripped[1:].strip():
            await self._shell(stripped[1:].strip())
        elif (escaped := literal(text)) is not None:
            await self.prompt(escaped)
        elif text.startswith("/"):  # a leading space makes it text
            await self._command(stripped)
        else:
            await self.prompt(text)

    def _immediate(self, text: str) -> None:
        from tether.cli.interactive.commands import run_now

        run_now(self, text)

    async def _command(self, text: str) -> None:
        from tether.cli.interactive.commands import TERMINAL, pick_mode

        self.commands = self.work.commands()
        self.front.screen.completer.commands = _entries(self.commands)
        name, arguments = _split(text)
        command = next((c for c in self.commands if c.name == name), None)
        if (mistake := unknown_command(text, [c.name for c in self.commands])) is not None:
            self.notice(mistake, "yellow")
            self.front.screen.input.text = text  # back in the box, to correct
            self.front.screen.input.cursor_position = len(text)
            return
        if command is not None and command.terminal:
            await TERMINAL[name](self, arguments)
            return
        if name == "mode" and not arguments:
            await pick_mode(self)
            return
        try:
            meant = resolve(text, self.commands)
        except CommandError as exc:
            self.notice(str(exc), "red")
            return
        match meant:
            case ModeSwitch(mode=mode):
                self.set_mode(mode)
                self.notice(f"mode: {mode}")
            case PermissionsList():
                from tether.cli.interactive.commands import show_permissions

                await show_permissions(self)
            case SkillsList():
                session = self.current()
                self.say(Text(skills_text(session.skills, session.cwd)))
            case AgentsList():
                session = self.current()
                self.say(Text(agents_text(session.agents, session.cwd)))
            case PromptText(text=expanded, source=command):
                typed = text if expanded != text else None
                await self.prompt(expanded, typed=typed, command=command)
            case CheckpointCommand():
                from tether.cli.interactive.rewind import checkpoint_command

                await checkpoint_command(self, meant, text)

    async def prompt(
        self, text: str, typed: str | None = None, command: CommandFile | None = None
    ) -> None:
        """Send a prompt (with the files it mentions and the person's `!` commands); a slash
        command's file (`command`) first runs its `` !`cmd` `` lines, each with its card."""
        if (missing := missing_key(self.model)) is not None:
            # Nothing is sent or logged without a key: the prompt goes back into the box.
            self.notice(f"{missing}, or /login", "red")
            self.front.keep(typed if typed is not None else text)
            return
        try:
            session = self.current()
        except SessionError as exc:
            self.notice(f"error: {exc}", "red")
            return
        runs, self.shell_runs = self.shell_runs, []
        prepared = CommandPrompt([TextContent(text=text)])
        if command is not None:
            self._shell_cancel = asyncio.Event()
            try:
                prepared = await prepare_command(
                    session, text, command, self._emit, self._shell_cancel
                )
                if self._shell_cancel.is_set():
                    self.notice("cancelled", "red")
                    return
            finally:
                self._shell_cancel = None
                self.printer.close()
            for warning in prepared.warnings:
                self.notice(f"warning: {warning}", "yellow")
        mentioned = attachments(text, session.workspace) if command is None else []
        content: list[ContentBlock] = [*(r.for_model for r in runs), *prepared.content]
        content.extend(mentioned)
        shown: list[ShownBlock] | None = None
        if runs or mentioned or typed is not None or command is not None:
            shown = [TextContent(text=f"!{r.command}") for r in runs]
            shown.append(TextContent(text=typed if typed is not None else text))
        await self._start_servers(session)
        if session.events:
            self.say(Text(""))  # a blank line between one turn and the next
        # Each retry of a failing request says so on the spinner line.
        retry_notices.set(lambda notice: self.printer.status.show(notice.text))
        try:
            await session.prompt(
                content, self._emit, shown=shown, grants=prepared.grants, model=prepared.model
            )
        except PromptFailed:
            pass  # the printer has shown the error; the session waits for the next prompt
        except SessionError as exc:
            self.notice(f"error: {exc}", "red")
        finally:
            self.printer.close()

    async def _shell(self, command: str) -> None:
        try:
            session = self.current()
        except SessionError as exc:
            self.notice(f"error: {exc}", "red")
            return
        self._shell_cancel = asyncio.Event()
        try:
            ran = await run_shell(session, command, self._emit, self._shell_cancel, typed=True)
        finally:
            self._shell_cancel = None
            self.printer.close()
        if ran is None:
            self.notice("this session has no bash tool", "red")
        else:
            self.shell_runs.append(ran)

    async def _start_servers(self, session: Session) -> None:
        if self._servers_started:
            return
        self._servers_started = True
        mcp = CliMcp(home=self.work.store.root, asker=self.asker, err=self.console)
        self._servers = await mcp.start(session)

    def _finished(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and (error := task.exception()) is not None:
            log.debug("a turn failed", exc_info=error)
            self.notice(f"error: {type(error).__name__}: {error}", "red")
        self.front.next()

    def _emit(self, update: ClientUpdate) -> None:
        if isinstance(update, UsageChanged):
            self._budget(update.used, update.size)
        self.printer(update)
        self.asker.seen(update)
        session = self.session
        if session is not None and session.gate.mode != self.mode:
            # The session left plan mode (the person approved a plan): the bar follows.
            self.set_mode(session.gate.mode)
        if session is not None and isinstance(update, ToolCallFinished):
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

    def view_whole(self) -> None:
        """Page the whole card of the open question."""
        from tether.cli.interactive.commands import page

        if self.proposal is not None and (self._paging is None or self._paging.done()):
            self._paging = asyncio.get_running_loop().create_task(page(self, self.proposal.card))

    def _printer(self) -> Printer:
        status = LiveStatus(self.console, self.front.screen.refresh)
        status.view.hint = "esc to interrupt"
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
        self.front.screen.completer.commands = _entries(self.commands)
        self.front.screen.completer.files = self.files


def model_label(name: str) -> str:
    """A model as the status bar names it: `deepseek-chat`, `script:demo.json`."""
    kind, _, rest = name.partition(":")
    if kind == "script" and rest:
        return f"script:{Path(rest).name}"
    return rest or name


def _split(text: str) -> tuple[str, str]:
    """`/name arguments` → (`name`, `arguments`)."""
    parts = text.strip().removeprefix("/").split(maxsplit=1)
    return (parts[0] if parts else ""), (parts[1].strip() if len(parts) > 1 else "")


def _entries(commands: list[Command]) -> list[CommandEntry]:
    return [CommandEntry(c.name, c.description, c.hint) for c in commands]
