"""The arguments of `tether` with no subcommand, and parsing them where no exit may happen."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from tether.cli.fetch_args import add_fetch_arguments
from tether.cli.model_args import add_context_arguments, add_model_arguments
from tether.cli.sandbox_args import add_sandbox_arguments
from tether.cli.settings_args import add_settings_arguments
from tether.session.limits import DEFAULT_MAX_STEPS
from tether.settings.modes import MODES

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["add_arguments", "parse"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The prompt, which session to open, and the flags `run` has for the model and tools."""
    parser.add_argument("prompt", nargs="?", help="a first prompt to send (quote it)")
    opened = parser.add_mutually_exclusive_group()
    opened.add_argument(
        "-c",
        "--continue",
        dest="continue_last",
        action="store_true",
        help="open the newest session of this workspace",
    )
    opened.add_argument(
        "-r",
        "--resume",
        nargs="?",
        const="",
        metavar="ID",
        help="open a session by id (a unique prefix is enough); without ID, pick one",
    )
    add_model_arguments(parser)
    add_context_arguments(parser)
    parser.add_argument(
        "--mode",
        choices=MODES,
        default=None,
        help="permission mode (default: the settings' permissions.defaultMode, else ask)",
    )
    add_settings_arguments(parser)
    add_sandbox_arguments(parser)
    parser.add_argument("--cwd", type=_path, default=None, help="the workspace root")
    parser.add_argument(
        "--max-steps",
        type=int,
        default=DEFAULT_MAX_STEPS,
        metavar="N",
        help=f"model requests before a prompt stops (default {DEFAULT_MAX_STEPS})",
    )
    add_fetch_arguments(parser)
    parser.add_argument("-v", dest="verbose", action="store_true", help="log debug details")
    parser.add_argument(
        "--verbose", dest="full", action="store_true", help="print long cards in full"
    )


def _path(text: str) -> Path:
    """`--cwd` as a `Path`: pathlib loads when a value is parsed, not for `tether --help`."""
    from pathlib import Path

    return Path(text)


class _Parser(argparse.ArgumentParser):
    """Raises `BadArguments` instead of printing and exiting: a screen is drawn meanwhile."""

    def error(self, message: str) -> NoReturn:
        from tether.errors import BadArguments  # here: `tether --help` needs none of it

        raise BadArguments(self.format_usage(), message)


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The parsed arguments of `tether ARGV`; `BadArguments` when they do not parse."""
    parser = _Parser(prog="tether", add_help=False)
    add_arguments(parser)
    args = parser.parse_args(argv)
    if args.max_steps < 1:
        from tether.errors import BadArguments

        raise BadArguments(parser.format_usage(), "--max-steps must be at least 1")
    return args
