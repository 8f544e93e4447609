"""`tether run PROMPT`: one headless prompt, cards printed as calls complete."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

from tether.cli.asker import TerminalAsker
from tether.cli.fetch_args import add_fetch_arguments
from tether.cli.mcp import CliMcp
from tether.cli.model_args import (
    add_context_arguments,
    add_model_arguments,
    add_verbose_argument,
    login_default,
    require_key,
)
from tether.cli.printer import Printer
from tether.cli.run_output import OUTPUT_FORMATS, JsonLines
from tether.cli.run_surface import run_command_or_prompt
from tether.cli.safe_output import consoles
from tether.cli.sandbox_args import add_sandbox_arguments
from tether.cli.settings_args import add_settings_arguments, settings_flags
from tether.cli.settings_run import run_settings, say_search
from tether.cli.status import StatusLine
from tether.commands import CheckpointCommand, load_commands, resolve
from tether.errors import CommandError, SettingsError
from tether.policy import MODES
from tether.sandbox.policy import SandboxPolicy
from tether.session import DEFAULT_MAX_STEPS, Session, SessionConfig, SessionStore
from tether.session._gc import gc_started
from tether.session.headless import RunInit, RunSandbox, prompt_result
from tether.settings.effective import sandbox_policy, search_setup
from tether.surface import Launch, first_model, session_config

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of `tether run`."""
    parser.add_argument("prompt", help="what to ask (`-`: read it from stdin)")
    add_model_arguments(parser)
    add_context_arguments(parser)
    parser.add_argument(
        "--max-steps",
        type=int,
        default=DEFAULT_MAX_STEPS,
        metavar="N",
        help=f"model requests before the prompt stops (default {DEFAULT_MAX_STEPS})",
    )
    parser.add_argument(
        "--mode",
        choices=MODES,
        default=None,
        help="permission mode (default: the settings' permissions.defaultMode, else ask)",
    )
    add_settings_arguments(parser)
    add_sandbox_arguments(parser)
    parser.add_argument("--cwd", type=Path, default=Path.cwd(), help="the workspace root")
    parser.add_argument("--continue", dest="continue_id", metavar="ID", help="continue a session")
    parser.add_argument(
        "--fork",
        metavar="ID[@N]",
        help="continue in a new session made of session ID before its prompt N (all of it "
        "without @N); ID stays as it is",
    )
    parser.add_argument(
        "--approve-mcp",
        action="append",
        default=[],
        metavar="NAME",
        help="start the project's (.mcp.json) server NAME without asking (repeatable)",
    )
    add_fetch_arguments(parser)
    add_verbose_argument(parser)
    parser.add_argument(
        "--output-format",
        choices=OUTPUT_FORMATS,
        default="text",
        help="text: cards for people; json: the result object alone; stream-json: JSON lines "
        "(init, every update, result). In json modes nothing is asked: calls the mode does "
        "not allow are refused",
    )


def run(args: argparse.Namespace) -> int:
    """Prompt a new or continued session; non-zero when the prompt failed or stopped early."""
    out, err = consoles()
    prompt: str = args.prompt
    from_stdin = prompt == "-"
    if from_stdin:
        prompt = sys.stdin.read()
        if not prompt.strip():
            err.print("tether: error: the prompt read from stdin is empty", markup=False)
            return 1
    if args.max_steps < 1:
        err.print("tether: error: --max-steps must be at least 1", markup=False)
        return 2
    store = SessionStore.default()
    try:
        fork = _fork_point(args, store)
    except ValueError as exc:
        err.print(f"tether: error: {exc}", markup=False)
        return 2
    session_id = store.resolve(args.continue_id) if args.continue_id else None
    known = session_id or (fork[0] if fork else None)
    cwd = Path(store.header(known).cwd) if known else args.cwd
    if not cwd.is_dir():
        err.print(f"tether: error: --cwd {cwd} is not a directory", markup=False)
        return 1
    printer = Printer(out, err, full=args.full, status=StatusLine(err))
    # Someone at a terminal can answer; a headless run has no one, so the policy refuses.
    # With the prompt on stdin, the terminal is no longer there to answer either. Auto mode
    # keeps the asker too: a command that asks to leave the sandbox asks in every mode.
    # A program reading JSON is no one to ask either, even when started at a terminal.
    machine = args.output_format != "text"
    can_ask = not from_stdin and sys.stdin.isatty() and not machine
    asker = TerminalAsker(err, before=printer.propose) if can_ask else None
    try:
        settings = run_settings(cwd, store.root, settings_flags(args), asker, err)
        sandbox = sandbox_policy(settings)
    except (SettingsError, ValueError) as exc:
        err.print(f"tether: error: {exc}", markup=False, soft_wrap=True)
        return 1
    launch = Launch(
        base_url=args.base_url,
        api_key=args.api_key,
        default_model=login_default,
        allow_private_fetch=args.allow_private_fetch,
        max_steps=args.max_steps,
        context_window=args.context_window,
        compact_at=args.compact_at,
    )
    model = first_model(settings, launch)
    checkpoint = _checkpoint_command(prompt, cwd, store)
    if checkpoint is None:
        # Before a session exists: a missing key must not leave an empty session behind.
        require_key(model)
    elif not (session_id or fork):
        err.print(
            f"tether: error: /{checkpoint.action} works on a session: "
            "pass --continue ID (or --fork ID)",
            markup=False,
        )
        return 2
    say_search(search_setup(settings), err, verbose=args.full or getattr(args, "verbose", False))
    config = session_config(settings, launch, asker=asker, model=model)
    session = _open(store, config, cwd, session_id, fork)
    try:
        mcp = CliMcp(home=store.root, asker=asker, err=err, named=tuple(args.approve_mcp))
        if machine:
            sink = JsonLines(err, stream=args.output_format == "stream-json")
            status = _run_for_programs(session, store, prompt, sink, mcp=mcp, sandbox=sandbox)
        else:
            status = run_command_or_prompt(session, store, prompt, printer, err, mcp=mcp)
    finally:
        # The session's end runs its `SessionEnd` hooks, whatever stopped the run (for a
        # program, after its result line: their notices are not part of the stream).
        asyncio.run(session.aclose(on_update=_ignore if machine else printer))
    err.print(
        f"session {session.id} · tether show {session.id} · "
        f"tether run --continue {session.id} PROMPT",
        style="dim",
        markup=False,
    )
    return status


def _run_for_programs(
    session: Session,
    store: SessionStore,
    prompt: str,
    sink: JsonLines,
    *,
    mcp: CliMcp,
    sandbox: SandboxPolicy,
) -> int:
    """The prompt with JSON on stdout: `init` once the tools are known, `result` at the end."""
    started = time.monotonic()
    first = len(session.events)

    def ready() -> None:
        sink.init(
            RunInit(
                session_id=session.id,
                cwd=str(session.cwd),
                model=session.model.name,
                mode=session.gate.mode,
                sandbox=RunSandbox(mode=sandbox.mode, allow_network=sandbox.allow_network),
                tools=[tool.name for tool in session.tools.offered(session.gate.mode)],
            )
        )

    status = 1  # what an error escaping the run means
    try:
        status = run_command_or_prompt(
            session, store, prompt, sink, sink.console, mcp=mcp, ready=ready
        )
    except KeyboardInterrupt:
        status = 130  # interrupted before the prompt could take the signal itself
    finally:
        # Cancelled, failed or not, a program gets its result line, and nothing after it.
        session.job_cards.listener = None
        duration_ms = round((time.monotonic() - started) * 1000)
        result = prompt_result(
            session.id, session.events[first:], duration_ms=duration_ms, is_error=status != 0
        )
        sink.result(result)
    return status


def _ignore(_update: object) -> None:
    return None


def _open(
    store: SessionStore,
    config: SessionConfig,
    cwd: Path,
    session_id: str | None,
    fork: tuple[str, int | None] | None,
) -> Session:
    """The session to prompt: continued, forked from another, or new; with it made, the
    start is over (`gc_started`: the collector runs again, for the session's own objects)."""
    if session_id:
        session = Session.load(store, session_id, config)
    elif fork:
        session = Session.fork(store, fork[0], fork[1], config)
    else:
        session = Session.create(store, cwd, config)
    gc_started()
    return session


def _checkpoint_command(prompt: str, cwd: Path, store: SessionStore) -> CheckpointCommand | None:
    """The prompt as `/rewind`, `/undo`, `/redo` or `/fork` (they need no model)."""
    try:
        meant = resolve(prompt, load_commands(cwd, store.root))
    except CommandError:
        return None  # reported where it is resolved again
    return meant if isinstance(meant, CheckpointCommand) else None


def _fork_point(args: argparse.Namespace, store: SessionStore) -> tuple[str, int | None] | None:
    """`--fork ID` or `ID@N` as a session id (a prefix is enough) and a prompt number."""
    raw: str | None = args.fork
    if raw is None:
        return None
    if args.continue_id:
        raise ValueError("--continue and --fork exclude each other")
    name, at, number = raw.partition("@")
    if at and not (number.isascii() and number.isdigit() and int(number) >= 1):
        raise ValueError(f"--fork takes ID or ID@N with N a prompt number (got {raw!r})")
    return store.resolve(name), int(number) if at else None
