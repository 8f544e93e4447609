"""`tether acp`: serve the Agent Client Protocol on stdio, for editors and the web client."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING

from tether.acp import TetherAgent, serve_stdio
from tether.cli.fetch_args import add_fetch_arguments
from tether.cli.model_args import add_context_arguments, add_model_arguments, default_model
from tether.cli.sandbox_args import add_sandbox_arguments
from tether.cli.settings_args import add_settings_arguments, model_spec, settings_flags
from tether.models.factory import make_model
from tether.policy import MODES
from tether.sandbox.policy import SandboxPolicy
from tether.session import SessionStore

if TYPE_CHECKING:
    from tether.models.base import Model
    from tether.settings import Settings
    from tether.tools.registry import ToolRegistry

__all__ = ["configure", "run"]


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

    def model(settings: Settings) -> Model:
        return make_model(model_spec(settings), base_url=args.base_url, api_key=args.api_key)

    # A bad --model fails now, with a clear message, not at the first session.
    make_model(args.model or default_model(), base_url=args.base_url, api_key=args.api_key)
    try:
        SandboxPolicy.from_env(args.sandbox)  # and so does a bad $TETHER_SANDBOX
    except ValueError as exc:
        print(f"tether: error: {exc}", file=sys.stderr)
        return 1  # as `tether run` says it

    def tools(settings: Settings) -> ToolRegistry:
        # The tools load with the first session, after `initialize` was answered.
        from tether.settings.effective import sandbox_policy, search_setup, tool_env
        from tether.tools.defaults import default_tools

        return default_tools(
            sandbox_policy(settings),
            allow_private_fetch=args.allow_private_fetch,
            env=tool_env(settings),
            web_search=search_setup(settings),
        )

    def switch(spec: str) -> Model:
        return make_model(spec, base_url=args.base_url, api_key=args.api_key)

    agent = TetherAgent(
        store=SessionStore.default(),
        model=model,
        tools=tools,
        mode=args.mode,
        switch_model=switch,
        context_window=args.context_window,
        compact_at=args.compact_at,
        flags=settings_flags(args),
    )
    asyncio.run(serve_stdio(agent))
    return 0
