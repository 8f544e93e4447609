"""The `web_fetch` flag shared by `run`, `acp` and `web`."""

from __future__ import annotations

import argparse

from tether.tools.web import ALLOW_PRIVATE_FLAG

__all__ = ["add_fetch_arguments"]


def add_fetch_arguments(parser: argparse.ArgumentParser) -> None:
    """`--allow-private-fetch`: let `web_fetch` reach loopback and private addresses."""
    parser.add_argument(
        ALLOW_PRIVATE_FLAG,
        dest="allow_private_fetch",
        action="store_true",
        help="let web_fetch reach loopback, private and link-local addresses (off by default)",
    )
