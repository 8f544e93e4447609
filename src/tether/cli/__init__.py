"""The `tether` command line: one small module per subcommand, listed in `COMMANDS`.

With no subcommand, `tether` is the interactive session (`INTERACTIVE`): `tether`,
`tether "PROMPT"`, `tether -c`, `tether -r [ID]`. The first argument decides: a subcommand's
exact name (`tether run ...`) is that subcommand, anything else belongs to the interactive
session, so `tether "run tests"` is a prompt; `tether -- run` makes a lone word a prompt too.
"""

from __future__ import annotations

import gc
import sys

# Not `typing.TYPE_CHECKING`: `tether --version` imports no more than this module and
# `tether.version`, and `typing` alone would cost it a tenth of its time.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from types import ModuleType
    from typing import Protocol

    class Command(Protocol):
        """What a subcommand module provides."""

        def configure(self, parser: argparse.ArgumentParser) -> None:
            """Add the subcommand's arguments."""
            ...

        def run(self, args: argparse.Namespace) -> int:
            """Do the work; return the exit status."""
            ...


__all__ = [
    "COMMANDS",
    "INTERACTIVE",
    "Command",
    "Entry",
    "build_parser",
    "interactive_parser",
    "main",
]


class Entry:
    """A subcommand: the module that runs it, and what `tether --help` says of it."""

    __slots__ = ("help", "module")

    def __init__(self, module: str, help: str) -> None:
        self.module = module
        self.help = help


COMMANDS: dict[str, Entry] = {
    "run": Entry("tether.cli.run", "run one prompt headless and print every card"),
    "batch": Entry(
        "tether.cli.batch",
        "run a file of prompts headless, each in its own workspace, on local processes or Ray",
    ),
    "sessions": Entry("tether.cli.sessions", "list stored sessions, newest first"),
    "show": Entry("tether.cli.show", "render a stored session from its log"),
    "demo": Entry("tether.cli.demo", "run a scripted session on a sample workspace (offline)"),
    "acp": Entry(
        "tether.cli.acp",
        "speak the Agent Client Protocol on stdin/stdout (for Zed and other editors)",
    ),
    "web": Entry(
        "tether.cli.web",
        "serve the web client on loopback: sessions, prompts, permissions and cards",
    ),
    "models": Entry(
        "tether.cli.models",
        "list the known models: context window, output, prices, whether they think",
    ),
    "permissions": Entry(
        "tether.cli.permissions",
        "list the permission rules of a workspace, check what one use would do, or trust it",
    ),
}
"""Subcommand name → its module (one that satisfies `Command`) and its help.

The help is here, not in the module, so `tether --help` and `tether --version` import no
subcommand: each command imports what it uses, when it runs.
"""

INTERACTIVE = "tether.cli.interactive"
"""The module `tether` runs when no subcommand is named: the interactive session."""

_HELP = ("-h", "--help")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand in `COMMANDS`, with the arguments of `only`.

    Without `only` no subcommand module is imported.
    """
    import argparse
    import importlib

    # The width argparse would work out, but without `shutil` (and its compressors), and
    # once: a formatter is made for every argument added, to check it (twenty for `show`).
    width = _columns() - 2

    def formatter(prog: str) -> argparse.HelpFormatter:
        return argparse.HelpFormatter(prog, width=width)

    parser = argparse.ArgumentParser(
        prog="tether",
        description="A coding-agent harness whose every tool call is a card.",
        formatter_class=formatter,
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug details")
    _add_version(parser)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, entry in COMMANDS.items():
        sub = commands.add_parser(
            name, help=entry.help, description=entry.help, formatter_class=formatter
        )
        if name == only:
            command: Command = importlib.import_module(entry.module)
            command.configure(sub)
            sub.set_defaults(command_run=command.run)
    return parser


def interactive_parser() -> argparse.ArgumentParser:
    """The parser of `tether` without a subcommand; its help lists the subcommands too."""
    import argparse
    import importlib

    interactive = importlib.import_module(INTERACTIVE)
    # One column for the names, as wide as the longest: every description starts aligned.
    width = max(len(name) for name in COMMANDS)
    lines = [f"  {name:<{width}}  {entry.help}" for name, entry in COMMANDS.items()]
    parser = argparse.ArgumentParser(
        prog="tether",
        usage="tether [options] [PROMPT]\n       tether COMMAND [options] ...",
        description=interactive.HELP,
        epilog="commands (tether COMMAND --help):\n" + "\n".join(lines),
        # The width argparse would work out, but without `shutil` (and its compressors).
        formatter_class=lambda prog: argparse.RawDescriptionHelpFormatter(
            prog, width=_columns() - 2
        ),
    )
    _add_version(parser)
    interactive.configure(parser)
    return parser


def _chosen(argv: Sequence[str]) -> str | None:
    """The subcommand `argv` names: its first argument after `-v`, when that is one."""
    for arg in argv:
        if arg in ("-v", "--verbose"):
            continue
        return arg if arg in COMMANDS else None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run `tether` with `argv` (default: the process arguments); return the exit status."""
    if argv is not None:
        return _main(list(argv))
    if not _answered_at_once(sys.argv[1:]):  # printed, then the end: nothing to tune
        from tether.module_code import reuse_module_code

        # Before the command imports anything: each module's code from one table, not from a
        # file of its own (a twentieth of `tether run`'s time to its first request).
        reuse_module_code()
        from tether.session._gc import gc_for_sessions

        # Starting makes tens of thousands of objects that all stay (modules, classes,
        # schemas); collected every 700 allocations, as by default, the young generation's
        # passes over them free nothing and cost a tenth of the CPU up to a run's first request.
        gc_for_sessions()
        if _chosen(sys.argv[1:]) in ("run", "show", None):
            from tether.session._gc import gc_paused_to_start

            # Until `run`'s session is made (cli/run.py), or the interactive one is loaded
            # (cli/interactive/start.py: at once when it reads lines from a pipe).
            gc_paused_to_start()
    status = _main(sys.argv[1:], process=True)
    # The process is about to end. Without this, finalization walks every object the
    # libraries made (a quarter of a second after the last output of a run); frozen, they
    # are left for the process's exit to free. Files and streams still close as before.
    gc.freeze()
    return status


def _main(argv: list[str], *, process: bool = False) -> int:
    chosen = _chosen(argv)
    if _asks_version(argv):
        return _print_version()  # the one answer that needs no parser
    from tether.lazy import defer_imports

    # Before anything imports an HTTP client, which imports HTTP/2; and before argparse, whose
    # words need no gettext where no catalogue can be found (`--help` too).
    defer_imports()
    if chosen is None and _asks_help(argv):
        interactive_parser().print_help()
        return 0
    if process:
        # Before the classes are made: compiling their methods was a fifth of a start's CPU.
        from tether.dataclass_code import reuse_dataclass_code

        reuse_dataclass_code(chosen or "interactive")
        from tether.dataclass_code import COMPILED_CHECKS, reuse_code_in
        from tether.lazy import before_run, when_loaded

        before_run(COMPILED_CHECKS, reuse_code_in)  # its checks' code from the table too
        from tether.pydantic_docstrings import FIELDS, read_docstrings_once
        from tether.pydantic_fields import DATACLASSES, defer_field_collection
        from tether.schema_table import GENERATOR, reuse_schemas

        when_loaded(GENERATOR, reuse_schemas)  # the schemas `scripts/setup` generated
        when_loaded(DATACLASSES, defer_field_collection)  # a class's fields when used
        when_loaded(FIELDS, read_docstrings_once)  # a module's docstrings from one parse
    if chosen is None:
        # The interactive session parses its own arguments once its input box is drawn.
        from tether.cli.interactive import launch

        return launch(argv)
    # Import only the chosen subcommand's module: some pull in heavy dependencies.
    parser = build_parser(chosen)
    args = parser.parse_args(argv)
    _configure_logging(verbose=args.verbose)
    if chosen == "show":
        from tether.session._gc import gc_started

        gc_started()  # its modules are loaded; reading the log pauses the collector itself
    try:
        status: int = args.command_run(args)
    except BrokenPipeError:  # before `Exception`, which it is one of
        return _pipe_closed()
    except Exception as exc:
        if not _said_plainly(exc):
            raise
        print(f"tether: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        return _pipe_closed()
    return status


def _answered_at_once(argv: Sequence[str]) -> bool:
    """Whether `argv` asks `tether` (no subcommand) only for its help or its version."""
    return _chosen(argv) is None and (_asks_help(argv) or "--version" in _options(argv))


def _asks_help(argv: Sequence[str]) -> bool:
    return any(arg in _HELP for arg in _options(argv))


def _asks_version(argv: Sequence[str]) -> bool:
    """Whether `argv` asks `tether` (no subcommand) for its version and not for its help."""
    return _chosen(argv) is None and "--version" in _options(argv) and not _asks_help(argv)


def _print_version() -> int:
    from tether.version import version_line

    print(version_line())
    return 0


def _add_version(parser: argparse.ArgumentParser) -> None:
    """`--version`: the line is worked out only when asked for (it may read git's files)."""
    import argparse

    class Version(argparse.Action):
        def __call__(self, parser: argparse.ArgumentParser, *_args: object, **_kw: object) -> None:
            _print_version()
            parser.exit()

    parser.add_argument(
        "--version",
        action=Version,
        nargs=0,
        default=argparse.SUPPRESS,
        help="print the version and exit",
    )


def _columns() -> int:
    """The terminal's width as `shutil.get_terminal_size` gives it: `COLUMNS`, else the
    terminal of standard output, else 80."""
    import os

    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0 and sys.__stdout__ is not None:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (ValueError, OSError):
            columns = 0
    return columns or 80


def _options(argv: Sequence[str]) -> Sequence[str]:
    """The arguments before `--` (after it, `-h` would be a prompt)."""
    return argv[: argv.index("--")] if "--" in argv else argv


def _said_plainly(exc: Exception) -> bool:
    """Whether `exc`'s message is all a person needs: said in one line, without a traceback.

    `tether.errors` imports nothing, so asking costs no start-up time.
    """
    from tether.errors import ModelError, SessionError

    return isinstance(exc, SessionError | ModelError)


def _configure_logging(*, verbose: bool) -> None:
    from tether.lazy import when_loaded

    def log_to_stderr(logging: ModuleType) -> None:
        """Log records to standard error as `tether: LEVEL: message` (debug ones with `-v`)."""
        logging.basicConfig(
            level=logging.DEBUG if verbose else logging.WARNING,
            format="tether: %(levelname)s: %(message)s",
            stream=sys.stderr,
        )

    # Set up once `logging` runs: a command that logs nothing (`sessions`) never loads it,
    # nor its `traceback`, `string` and `textwrap` (a twentieth of listing's start).
    when_loaded("logging", log_to_stderr)


def _pipe_closed() -> int:
    """The reader went away (`tether sessions --json | head`): stop quietly, as `cat` does."""
    # Point stdout at /dev/null so the interpreter's own flush at exit cannot fail again.
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 141  # 128 + SIGPIPE, the status a shell reports for a program the pipe ended
