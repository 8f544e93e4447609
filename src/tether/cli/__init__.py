"""The `tether` command line: one small module per subcommand, listed in `COMMANDS`.

With no subcommand, `tether` is the interactive session (`INTERACTIVE`): `tether`,
`tether "PROMPT"`, `tether -c`, `tether -r [ID]`. The first argument decides: a subcommand's
exact name (`tether run ...`) is that subcommand, anything else belongs to the interactive
session, so `tether "run tests"` is a prompt; `tether -- run` makes a lone word a prompt too.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence
from typing import Protocol, cast

__all__ = ["COMMANDS", "INTERACTIVE", "Command", "build_parser", "interactive_parser", "main"]

COMMANDS: dict[str, str] = {
    "run": "tether.cli.run",
    "sessions": "tether.cli.sessions",
    "show": "tether.cli.show",
    "demo": "tether.cli.demo",
    "acp": "tether.cli.acp",
    "web": "tether.cli.web",
    "permissions": "tether.cli.permissions",
}
"""Subcommand name → module. A subcommand is one module that satisfies `Command`."""

INTERACTIVE = "tether.cli.interactive"
"""The module `tether` runs when no subcommand is named: the interactive session."""

_HELP = ("-h", "--help")


class Command(Protocol):
    """What a subcommand module provides."""

    HELP: str

    def configure(self, parser: argparse.ArgumentParser) -> None:
        """Add the subcommand's arguments."""
        ...

    def run(self, args: argparse.Namespace) -> int:
        """Do the work; return the exit status."""
        ...


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser with every subcommand in `COMMANDS`, or with `only` that one (faster)."""
    parser = argparse.ArgumentParser(
        prog="tether", description="A coding-agent harness whose every tool call is a card."
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug details")
    parser.add_argument("--version", action="version", version=f"tether {_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        if only is not None and name != only:
            continue
        command = cast(Command, importlib.import_module(module_name))
        sub = commands.add_parser(name, help=command.HELP, description=command.HELP)
        command.configure(sub)
        sub.set_defaults(command_run=command.run)
    return parser


def interactive_parser() -> argparse.ArgumentParser:
    """The parser of `tether` without a subcommand; its help lists the subcommands too."""
    interactive = cast(Command, importlib.import_module(INTERACTIVE))
    lines = []
    for name, module_name in COMMANDS.items():
        command = cast(Command, importlib.import_module(module_name))
        lines.append(f"  {name:<10} {command.HELP}")
    parser = argparse.ArgumentParser(
        prog="tether",
        usage="tether [options] [PROMPT]\n       tether COMMAND [options] ...",
        description=interactive.HELP,
        epilog="commands (tether COMMAND --help):\n" + "\n".join(lines),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"tether {_version()}")
    interactive.configure(parser)
    parser.set_defaults(command_run=interactive.run)
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tether")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"


def _chosen(argv: Sequence[str]) -> str | None:
    """The subcommand `argv` names: its first argument after `-v`, when that is one."""
    for arg in argv:
        if arg in ("-v", "--verbose"):
            continue
        return arg if arg in COMMANDS else None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run `tether` with `argv` (default: the process arguments); return the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    chosen = _chosen(argv)
    if chosen is None and not any(arg in (*_HELP, "--version") for arg in _options(argv)):
        # The interactive session parses its own arguments once its input box is drawn.
        launch = importlib.import_module(INTERACTIVE).launch
        return cast(int, launch(argv))
    # Import only the chosen subcommand's module: some pull in heavy dependencies.
    parser = build_parser(chosen) if chosen is not None else interactive_parser()
    args = parser.parse_args(argv)
    _configure_logging(verbose=args.verbose)
    from tether.models.base import ModelError
    from tether.session.errors import SessionError

    try:
        status: int = args.command_run(args)
    except (SessionError, ModelError) as exc:
        print(f"tether: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _pipe_closed()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        return _pipe_closed()
    return status


def _options(argv: Sequence[str]) -> Sequence[str]:
    """The arguments before `--` (after it, `-h` would be a prompt)."""
    return argv[: argv.index("--")] if "--" in argv else argv


def _configure_logging(*, verbose: bool) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.WARNING,
        format="tether: %(levelname)s: %(message)s",
        stream=sys.stderr,
    )


def _pipe_closed() -> int:
    """The reader went away (`tether sessions --json | head`): stop quietly, as `cat` does."""
    # Point stdout at /dev/null so the interpreter's own flush at exit cannot fail again.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 141  # 128 + SIGPIPE, the status a shell reports for a program the pipe ended
