"""The `tether` command line: one small module per subcommand, listed in `COMMANDS`."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence
from typing import Protocol, cast

__all__ = ["COMMANDS", "Command", "build_parser", "main"]

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


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tether")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"


def _chosen(argv: Sequence[str]) -> str | None:
    """The subcommand named in `argv`, if it comes before any other positional argument."""
    for arg in argv:
        if arg in COMMANDS:
            return arg
        if not arg.startswith("-"):
            return None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run `tether` with `argv` (default: the process arguments); return the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # Import only the chosen subcommand's module: some pull in heavy dependencies.
    args = build_parser(_chosen(argv)).parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="tether: %(levelname)s: %(message)s",
        stream=sys.stderr,
    )
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


def _pipe_closed() -> int:
    """The reader went away (`tether sessions --json | head`): stop quietly, as `cat` does."""
    # Point stdout at /dev/null so the interpreter's own flush at exit cannot fail again.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 141  # 128 + SIGPIPE, the status a shell reports for a program the pipe ended
