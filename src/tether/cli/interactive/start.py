"""Starting the interactive session: the screen first, then the arguments and the session.

The terminal is always given back as it was found: prompt_toolkit leaves raw mode when the
application ends (also on an error), SIGTERM and SIGHUP end the session the way Ctrl+D does,
and the terminal's settings are put back once more on the way out whatever happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import os
import signal
import sys
import termios
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tether.home import data_dir
from tether.session._gc import gc_started

if TYPE_CHECKING:
    # The screen's modules (prompt_toolkit) load when there is a terminal to draw on; the
    # session's once the screen shows; a pipe loads neither screen nor input box.
    from rich.console import Console

    from tether.cli.interactive.front import Front
    from tether.cli.interactive.scrollback import Scrollback
    from tether.cli.interactive.workbench import Workbench

__all__ = ["HISTORY_FILE", "run_argv"]

_LOADED = (
    "tether.cli.interactive.conversation",
    "tether.cli.interactive.lines",
    "tether.cli.interactive.login",
    "tether.cli.interactive.opening",
)
"""The session's side of the terminal, imported while the screen already shows."""

HISTORY_FILE = "history"
"""The prompts typed, in `$TETHER_HOME` (one file for every workspace, as shells keep it)."""


def run_argv(argv: list[str]) -> int:
    """Run `tether ARGV` (no subcommand): interactive at a terminal, else line by line."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()) or _dumb():
        from tether.cli.interactive.plain import run_plain

        gc_started()  # the entry's pause (`tether.cli.main`) is not this path's
        return run_plain(argv)
    with _terminal_restored(sys.stdin.fileno()):
        return asyncio.run(_session(argv))


async def _session(argv: Sequence[str]) -> int:
    from tether.cli.interactive.front import Front
    from tether.cli.interactive.keys import read_shift_enter
    from tether.cli.interactive.scrollback import Scrollback
    from tether.cli.interactive.typeahead import take_typeahead

    front = Front(_peek_cwd(argv), _peek(argv, "--mode") or "ask", data_dir() / HISTORY_FILE)
    scrollback = Scrollback()
    app = front.screen.app
    loop = asyncio.get_running_loop()
    scrollback.attach(app, loop)  # type: ignore[arg-type]
    read_shift_enter()
    for signum in (signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(signum, front.quit)
    # Before the screen takes the terminal: a prompt typed (and sent) while it started.
    take_typeahead(app, sys.stdin.fileno(), front.screen.width)
    running = loop.create_task(app.run_async())
    # Whatever ends the screen also answers a question still open on it (as declined).
    running.add_done_callback(lambda _: _decline(front))
    work = await asyncio.to_thread(_load, argv, scrollback)
    # All that starting made (the screen's modules, the session's machinery) stays for the
    # whole session: the entry paused the collector (`tether.cli.main`), whose passes over it
    # freed nothing and were about a tenth of a start's CPU. It is set aside (frozen) now, and
    # the session's own objects are collected as usual.
    gc_started()
    if isinstance(work, tuple):
        return await _fail(front, running, scrollback, work[1], work[0])
    if running.done():  # left before the session was loaded
        scrollback.finish()
        return _status(running)
    from tether.cli.interactive.conversation import Conversation
    from tether.cli.interactive.lines import Lines
    from tether.cli.interactive.opening import open_first
    from tether.cli.model_args import missing_key

    _log_to(work.console, verbose=work.args.verbose)
    conversation = Conversation(front, work)
    conversation.files.refresh()
    if missing_key(work.model) is not None:
        from tether.cli.interactive.login import onboard

        await onboard(conversation)
    if await work.settle_trust(conversation.asker):
        conversation.set_mode(work.mode)
        conversation.show_facts()
    status = await open_first(conversation)
    if status is not None:
        return await _fail(front, running, scrollback, status[1], status[0])
    front.attach(Lines(conversation))
    try:
        result = await running
    finally:
        await conversation.close()
        scrollback.finish()
    session_id = conversation.last_session
    if session_id is not None:
        print(
            f"Resume: tether --continue  ·  tether --resume {session_id}",
            flush=True,
        )
    return result if isinstance(result, int) else 0


async def _fail(
    front: Front, running: asyncio.Task[int], scrollback: Scrollback, message: str, status: int
) -> int:
    front.leaving = True
    front.screen.close(status)
    with contextlib.suppress(Exception):
        await running
    scrollback.finish()
    print(message, file=sys.stderr, flush=True)
    return status


def _decline(front: Front) -> None:
    if front.screen.picker is not None:
        front.screen.picker.dismiss_now()


def _load(argv: Sequence[str], scrollback: Scrollback) -> Workbench | tuple[int, str]:
    """In a thread, once the screen shows: the arguments and the session's machinery.

    What cannot start gives the exit status and the message to print instead.
    """
    from rich.console import Console

    from tether.cli.interactive.workbench import load
    from tether.errors import BadArguments, StartupError

    # Here rather than on the event loop's thread, where importing would freeze the screen.
    for module in _LOADED:
        importlib.import_module(module)
    try:
        return load(argv, Console(file=scrollback.stream, highlight=False), keyless=True)
    except BadArguments as exc:
        return 2, f"{exc.usage}tether: error: {exc.message}"
    except StartupError as exc:
        return 1, f"tether: error: {exc}"


def _status(running: asyncio.Task[int]) -> int:
    if running.cancelled() or running.exception() is not None:
        return 1
    result = running.result()
    return result if isinstance(result, int) else 0


def _log_to(console: Console, *, verbose: bool) -> None:
    """Log records go into the scrollback (stderr is the screen)."""
    from rich.text import Text

    class _Scrollback(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            style = "yellow" if record.levelno >= logging.WARNING else "dim"
            line = f"tether: {record.levelname.lower()}: {record.getMessage()}"
            console.print(Text(line, style=style))

    root = logging.getLogger()
    root.handlers[:] = [_Scrollback()]
    root.setLevel(logging.DEBUG if verbose else logging.WARNING)


def _peek(argv: Sequence[str], flag: str) -> str | None:
    """The value of `flag` in `argv`, for the first frame only (the parser decides later)."""
    for index, arg in enumerate(argv):
        if arg == "--":
            return None
        if arg == flag and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith(flag + "="):
            return arg.split("=", 1)[1]
    return None


def _peek_cwd(argv: Sequence[str]) -> Path:
    given = _peek(argv, "--cwd")
    try:
        return Path(given).resolve() if given else Path.cwd()
    except OSError:
        return Path(given or ".")


def _dumb() -> bool:
    return os.environ.get("TERM", "").lower() in ("dumb", "unknown", "")


@contextlib.contextmanager
def _terminal_restored(fd: int) -> Iterator[None]:
    """Put the terminal's settings back on the way out, whatever happened meanwhile."""
    try:
        saved = termios.tcgetattr(fd)
    except termios.error:
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(termios.error, OSError):
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        with contextlib.suppress(OSError, ValueError):
            # The cursor shown again, bracketed paste off: what a crash could leave behind.
            sys.stdout.write("\x1b[?25h\x1b[?2004l")
            sys.stdout.flush()
