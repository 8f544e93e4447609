"""The terminal's own commands: `/help`, `/clear`, `/resume`, `/model`, `/thinking`,
`/usage` (`/cost`), `/transcript`, `/bashes`, `/login`, `/logout` (in `login`), `/exit`. Each
is a `terminal` entry of the shared catalog (`tether.commands.catalog.BUILTIN`), registered
here in `TERMINAL` against its name; `tether.surface.dispatch` hands them over as
`TerminalCommand`s. The commands every surface has (`/mode`, `/permissions`, ...) are the
dispatcher's."""

from __future__ import annotations

import asyncio
import io
import os
import shlex
import shutil
import subprocess
from collections.abc import Callable, Coroutine
from typing import Any

from prompt_toolkit.application import run_in_terminal
from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from tether.cli.interactive.conversation import Conversation, model_label
from tether.cli.interactive.live import console_like
from tether.cli.interactive.login import login, logout
from tether.cli.interactive.picker import Choice, Picker
from tether.cli.interactive.scrollback import Scrollback
from tether.cli.interactive.sessions import age, resumable
from tether.cli.interactive.usage import render_usage, usage_by_model
from tether.cli.printer import Printer
from tether.cli.status import StatusLine
from tether.errors import SessionError
from tether.models.catalog import offered_models
from tether.models.messages import THINKING_LEVELS
from tether.models.thinking import parse_level
from tether.session.usage import usage_report

__all__ = ["KEYS", "TERMINAL", "page"]

KEYS = (
    ("Enter", "send the prompt (queued while a turn runs)"),
    ("Shift+Enter, Alt+Enter, Ctrl+J", "a new line"),
    ("Up, Down", "history; Up on an empty box takes back a queued prompt"),
    ("Ctrl+R", "search the history"),
    ("Tab", "complete a /command or an @path"),
    ("Esc", "interrupt the running turn, close a menu"),
    ("Esc Esc", "on an empty box with nothing running: /rewind"),
    ("Ctrl+G", "edit the prompt in $VISUAL / $EDITOR"),
    ("Ctrl+Z", "suspend (SIGTSTP); fg brings it back"),
    ("Alt+B, Alt+F, Alt+D", "a word back, forward; delete the next word"),
    ("Ctrl+C", "clear the box, else interrupt; twice on an empty box: exit"),
    ("Ctrl+D", "exit (on an empty box)"),
    ("Shift+Tab", "cycle the mode: ask → accept-edits → auto → plan"),
    ("Ctrl+B", "while a command runs: move it to the background"),
    ("!command", "run a shell command; the model sees it with your next prompt"),
    ("@path", "send a workspace file with the prompt"),
)
"""What `/help` says of the keys (the same as `tether.cli.interactive.keys`)."""


async def show_help(conversation: Conversation, _arguments: str) -> None:
    """Keys, then every command with its hint and description."""
    keys = Table(box=None, show_header=False, pad_edge=False)
    keys.add_column(style="bold", no_wrap=True)
    keys.add_column()
    for key, does in KEYS:
        keys.add_row(key, does)
    commands = Table(box=None, show_header=False, pad_edge=False)
    commands.add_column(style="bold cyan", no_wrap=True)
    commands.add_column()
    for command in conversation.work.commands():
        described = Text(command.description)
        if command.hint:
            described.append(f"  {command.hint}", style="dim")
        commands.add_row(f"/{command.name}", described)
    conversation.say(
        Group(Text("Keys", style="bold"), keys, Text(""), Text("Commands", style="bold"), commands)
    )


async def clear(conversation: Conversation, _arguments: str) -> None:
    """A new session with the same settings (the old one can be resumed)."""
    old = conversation.session
    await conversation.end_session("clear")
    conversation.cleared = True
    conversation.say(Rule("new session", style="dim"))
    if old is not None:
        conversation.notice(f"the last one: tether --resume {old.id}")


async def resume(conversation: Conversation, arguments: str) -> None:
    """Open a session of this workspace: by id, or picked from a list (newest first)."""
    chosen = arguments or await _pick_session(conversation)
    if not chosen:
        return
    work = conversation.work
    if conversation.session is not None and conversation.session.id.startswith(chosen):
        conversation.notice("that is this session")
        return
    await conversation.end_session("other")
    try:
        config = work.config(conversation.asker, conversation.mode, conversation.model)
        session = work.open(chosen, config)
    except SessionError as exc:
        conversation.notice(f"error: {exc}", "red")
        return
    conversation.adopt(session)


async def _pick_session(conversation: Conversation) -> str | None:
    found = await asyncio.to_thread(resumable, conversation.work.store, conversation.work.cwd)
    here = conversation.session.id if conversation.session is not None else None
    found = [s for s in found if s.id != here]
    if not found:
        conversation.notice("no other session in this workspace yet")
        return None
    choices = [
        Choice(
            # The id tells apart forks, which keep their session's title.
            f"{s.title or '(untitled)'} · {s.id[:8]} · {age(s.updated_at)} · "
            f"{s.turns} turn{'' if s.turns == 1 else 's'}",
            # The first prompt, unless the title already is it.
            detail=s.first_prompt if s.first_prompt and s.first_prompt != s.title else "",
        )
        for s in found
    ]
    picked = await conversation.pick(Picker("Resume which session?", choices))
    return found[picked].id if picked is not None else None


async def model(conversation: Conversation, arguments: str) -> None:
    """Switch the model by spec, or pick one of the provider's known models."""
    if arguments:
        conversation.switch_model(arguments)
        return
    specs = await offered_models(conversation.model)
    current = specs.index(conversation.model.name) if conversation.model.name in specs else 0
    choices = [Choice(model_label(spec), detail=spec) for spec in specs]
    picked = await conversation.pick(Picker("Which model?", choices, selected=current))
    if picked is not None and specs[picked] != conversation.model.name:
        listed = conversation.model
        conversation.switch_model(specs[picked])
        if conversation.session is None and conversation.model is not listed:
            await listed.aclose()  # no session owns it: what the listing opened closes here


_THINKING_SAID = {
    "off": "ask for none ('think' in a prompt still asks for some)",
    "low": "a short think (as 'think' asks)",
    "medium": "think harder (as 'think hard' asks)",
    "high": "think longest (as 'ultrathink' asks)",
}


async def thinking(conversation: Conversation, arguments: str) -> None:
    """Set how hard the model thinks from the next prompt on, by name or picked."""
    if arguments:
        try:
            conversation.set_thinking(parse_level(arguments))
        except ValueError as exc:
            conversation.notice(f"error: {exc}", "red")
        return
    session = conversation.session
    now = session.thinking if session is not None else conversation.thinking or "off"
    choices = [Choice(level, _THINKING_SAID[level]) for level in THINKING_LEVELS]
    picker = Picker(
        "How hard should the model think?", choices, selected=THINKING_LEVELS.index(now)
    )
    picked = await conversation.pick(picker)
    if picked is not None:
        conversation.set_thinking(THINKING_LEVELS[picked])


async def usage(conversation: Conversation, _arguments: str) -> None:
    """Tokens in and out, cached, per model, for this session; then per agent it started."""
    session = conversation.session
    if session is None:
        conversation.notice("no session yet: nothing was asked")
        return
    first = conversation.first_model if conversation.created_here else "(before this terminal)"
    rows = usage_by_model(session.events, first)
    for row in rows:
        row.model = model_label(row.model)
    conversation.say(render_usage(rows, usage_report(session.events).agents))


async def bashes(conversation: Conversation, _arguments: str) -> None:
    """The session's background commands, each with how it stands; pick a running one to
    stop it."""
    session = conversation.session
    jobs = session.jobs.all() if session is not None else []
    if session is None or not jobs:
        conversation.notice("no background commands (bash with run_in_background starts one)")
        return
    listing = Table(box=None, show_header=False, pad_edge=False)
    listing.add_column(style="bold", no_wrap=True)
    listing.add_column(no_wrap=True)
    listing.add_column()
    for job in jobs:
        listing.add_row(job.id, job.status(), Text(job.command))
    conversation.say(Group(Text("Background commands", style="bold"), listing))
    running = session.jobs.running()
    if not running:
        return
    choices = [Choice(f"Stop {job.id}", detail=job.command) for job in running]
    choices.append(Choice("Keep them running"))
    picked = await conversation.pick(Picker("Stop a background command?", choices))
    if picked is None or picked >= len(running):
        return
    job = await session.jobs.kill(running[picked].id)
    conversation.notice(f"{job.id}: {job.status()}")
    conversation.front.facts.jobs = len(session.jobs.running())
    conversation.front.screen.refresh()


async def transcript(conversation: Conversation, _arguments: str) -> None:
    """The whole session in full (long cards expanded), through a pager."""
    session = conversation.session
    if session is None:
        conversation.notice("no session yet")
        return
    buffer = io.StringIO()
    console = console_like(conversation.console, buffer, conversation.front.screen.width)
    printer = Printer(console, console, full=True, status=StatusLine(console, enabled=False))
    for update in session.replay():
        printer(update)
    printer.close()
    await _page(conversation, buffer.getvalue())


async def page(conversation: Conversation, card: RenderableType) -> None:
    """`card` whole, through the pager (a question's long diff or command)."""
    buffer = io.StringIO()
    console_like(conversation.console, buffer, conversation.front.screen.width).print(card)
    await _page(conversation, buffer.getvalue())


async def _page(conversation: Conversation, text: str) -> None:
    pager = _pager()
    scrollback = conversation.console.file
    if pager is None or not isinstance(scrollback, Scrollback):
        scrollback.write(text)
        return
    # F: a text that fits on the screen is printed as it is. No X: less then takes the
    # alternate screen and gives it back on `q`, so its last page is not left in the
    # scrollback (less sends no init for a text it prints whole).
    env = {**os.environ, "LESS": os.environ.get("LESS", "FR")}

    def run() -> None:
        try:
            subprocess.run(pager, input=text.encode(errors="replace"), env=env, check=False)
        except OSError as exc:
            conversation.notice(f"cannot run the pager {pager[0]}: {exc}", "red")

    # The pager has the terminal meanwhile: what the session prints waits for it.
    scrollback.held = True
    try:
        await run_in_terminal(run)
    finally:
        scrollback.release()


def _pager() -> list[str] | None:
    chosen = os.environ.get("TETHER_PAGER") or os.environ.get("PAGER")
    if chosen:
        return shlex.split(chosen)
    found = shutil.which("less")
    return [found, "-R"] if found else None


async def leave(conversation: Conversation, _arguments: str) -> None:
    """Leave; the session can be resumed."""
    conversation.front.quit()


TERMINAL: dict[str, Callable[[Conversation, str], Coroutine[Any, Any, None]]] = {
    "help": show_help,
    "clear": clear,
    "resume": resume,
    "model": model,
    "thinking": thinking,
    "usage": usage,
    "cost": usage,
    "transcript": transcript,
    "bashes": bashes,
    "login": login,
    "logout": logout,
    "exit": leave,
}
"""The handler of each `terminal` command of the catalog."""
