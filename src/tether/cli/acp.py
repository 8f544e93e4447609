"""`tether acp`: serve the Agent Client Protocol on stdio, for editors and the web client."""

from __future__ import annotations

import argparse
import asyncio

from tether.acp import TetherAgent, serve_stdio
from tether.cli.fetch_args import add_fetch_arguments
from tether.cli.model_args import add_context_arguments, add_model_arguments, default_model
from tether.cli.sandbox_args import add_sandbox_arguments, sandbox_policy
from tether.models.base import Model
from tether.models.factory import make_model
from tether.policy import DEFAULT_MODE, MODES
from tether.session import SessionStore
from tether.tools.defaults import default_tools
from tether.tools.registry import ToolRegistry

HELP = "speak the Agent Client Protocol on stdin/stdout (for Zed and other editors)"


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
    add_sandbox_arguments(parser)
    add_fetch_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Serve until the client closes stdin."""

    def model() -> Model:
        return make_model(
            args.model or default_model(), base_url=args.base_url, api_key=args.api_key
        )

    model()  # a bad --model fails now, with a clear message, not at the first session
    sandbox = sandbox_policy(args)  # and so does a bad $TETHER_SANDBOX

    def tools() -> ToolRegistry:
        return default_tools(sandbox, allow_private_fetch=args.allow_private_fetch)

    def switch(spec: str) -> Model:
        return make_model(spec, base_url=args.base_url, api_key=args.api_key)

    agent = TetherAgent(
        store=SessionStore.default(),
        model=model,
        tools=tools,
        mode=args.mode or DEFAULT_MODE,
        switch_model=switch,
        context_window=args.context_window,
        compact_at=args.compact_at,
    )
    asyncio.run(serve_stdio(agent))
    return 0
