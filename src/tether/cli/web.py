"""`tether web`: serve the web client on loopback (see `tether.web`); its flags and options."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tether.cli.fetch_args import add_fetch_arguments
from tether.cli.home_args import add_home_argument, use_home
from tether.cli.model_args import add_context_arguments, add_model_arguments
from tether.cli.sandbox_args import add_sandbox_arguments, sandbox_flags
from tether.cli.settings_args import add_settings_arguments
from tether.policy import MODES
from tether.web.app import DEFAULT_MAX_AGENTS
from tether.web.follow import FollowedBudget
from tether.web.server import WebOptions, default_agent_command, parse_agent_command, serve

__all__ = ["configure", "options_from_args", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    """The flags of `tether web`."""
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="port (default: a random free one)")
    parser.add_argument(
        "--agent",
        metavar="CMD",
        help="ACP agent command to run for each page (default: tether acp with the flags below)",
    )
    add_model_arguments(parser, api_key=False)
    add_context_arguments(parser)
    parser.add_argument(
        "--mode",
        choices=MODES,
        default=None,
        help="the mode new sessions start in (default: the settings' defaultMode, else ask)",
    )
    add_settings_arguments(parser)
    add_sandbox_arguments(parser)
    parser.add_argument(
        "--cwd", type=Path, default=Path(), help="workspace for new sessions (default: .)"
    )
    parser.add_argument(
        "--max-agents",
        type=int,
        default=DEFAULT_MAX_AGENTS,
        metavar="N",
        help=f"agents run at once, one per open page (default {DEFAULT_MAX_AGENTS})",
    )
    parser.add_argument("--no-open", action="store_true", help="do not open a browser")
    parser.add_argument(
        "--new-token",
        action="store_true",
        help="replace the token kept in $TETHER_HOME/web-token (open pages lose access)",
    )
    add_fetch_arguments(parser)
    add_home_argument(parser)


def options_from_args(args: argparse.Namespace) -> WebOptions:
    """Checked options; bad values raise `ValueError` with a message for the user."""
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be 0..65535, not {args.port}")
    if args.max_agents < 1:
        raise ValueError(f"--max-agents must be at least 1, not {args.max_agents}")
    cwd: Path = args.cwd
    if not cwd.is_dir():
        raise ValueError(f"--cwd {cwd} is not a directory")
    return WebOptions(
        host=args.host,
        port=args.port,
        agent=tuple(
            parse_agent_command(args.agent)
            if args.agent is not None
            else [
                *default_agent_command(
                    model=args.model,
                    base_url=args.base_url,
                    mode=args.mode,
                    thinking=args.thinking,
                    context_window=args.context_window,
                    compact_at=args.compact_at,
                    allow_private_fetch=args.allow_private_fetch,
                ),
                # Only what was given: the agent's settings decide the rest.
                *sandbox_flags(args),
                *(arg for rule in args.allow for arg in ("--allow", rule)),
                *(arg for rule in args.deny for arg in ("--deny", rule)),
            ]
        ),
        cwd=cwd,
        open_browser=not args.no_open,
        max_agents=args.max_agents,
        new_token=args.new_token,
        budget=FollowedBudget(window=args.context_window, compact_at=args.compact_at),
    )


def run(args: argparse.Namespace) -> int:
    """Run the server from parsed flags; returns the process exit code."""
    try:
        use_home(args)
        options = options_from_args(args)
    except ValueError as exc:
        print(f"tether web: {exc}", file=sys.stderr)
        return 2
    try:
        serve(options)
    except OSError as exc:
        print(f"tether web: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0
