"""`tether acp`: serve the Agent Client Protocol on stdio, for editors and the web client."""

from __future__ import annotations

import argparse
import asyncio
import sys

from tether.acp import TetherAgent, serve_stdio
from tether.cli.fetch_args import add_fetch_arguments
from tether.cli.model_args import (
    add_context_arguments,
    add_model_arguments,
    default_model,
    login_default,
)
from tether.cli.sandbox_args import add_sandbox_arguments
from tether.cli.settings_args import add_settings_arguments, settings_flags
from tether.policy import MODES
from tether.sandbox.policy import SandboxPolicy
from tether.session import SessionStore
from tether.surface.launch import Launch

__all__ = ["agent_for", "configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of `tether acp`."""
    add_model_arguments(parser)
    add_context_arguments(parser)
    parser.add_argument(
        "--mode",
        choices=MODES,
        default=None,
        help="the mode sessions start in (default: the settings' defaultMode, else ask)",
    )
    add_settings_arguments(parser)
    add_sandbox_arguments(parser)
    add_fetch_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Serve until the client closes stdin."""
    agent = agent_for(args)
    if agent is None:
        return 1  # as `tether run` says it
    asyncio.run(serve_stdio(agent))
    return 0


def agent_for(args: argparse.Namespace) -> TetherAgent | None:
    """The agent `tether acp ARGS` serves; `None` when its sandbox is refused (said on stderr)."""
    launch = Launch(
        default_model=login_default,
        base_url=args.base_url,
        api_key=args.api_key,
        allow_private_fetch=args.allow_private_fetch,
        context_window=args.context_window,
        compact_at=args.compact_at,
    )
    # A bad --model fails now, with a clear message, not at the first session.
    launch.model(args.model or default_model())
    try:
        SandboxPolicy.from_env(args.sandbox)  # and so does a bad $TETHER_SANDBOX
    except ValueError as exc:
        print(f"tether: error: {exc}", file=sys.stderr)
        return None
    return TetherAgent(
        store=SessionStore.default(),
        launch=launch,
        mode=args.mode,
        flags=settings_flags(args),
    )
