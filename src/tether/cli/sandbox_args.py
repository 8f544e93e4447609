"""The sandbox flags shared by `run`, `acp` and `web`: `--sandbox MODE` and `--allow-network`."""

from __future__ import annotations

import argparse

from tether.sandbox.modes import SANDBOX_ENV, SANDBOX_MODES

__all__ = ["add_sandbox_arguments", "sandbox_flags"]


def add_sandbox_arguments(parser: argparse.ArgumentParser) -> None:
    """`--sandbox workspace-write|read-only|off` and `--allow-network`."""
    parser.add_argument(
        "--sandbox",
        choices=SANDBOX_MODES,
        default=None,
        help=f"how bash commands are confined (default: ${SANDBOX_ENV} or workspace-write)",
    )
    parser.add_argument(
        "--allow-network", action="store_true", help="keep the network in the sandbox"
    )


def sandbox_flags(args: argparse.Namespace) -> list[str]:
    """The sandbox flags given, again, for an agent this process starts: only what was given,
    so that the agent's own settings decide the rest (`settings.effective.sandbox_policy`)."""
    flags = ["--sandbox", args.sandbox] if args.sandbox else []
    if args.allow_network:
        flags.append("--allow-network")
    return flags
