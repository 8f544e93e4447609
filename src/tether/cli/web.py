"""`tether web`: serve the web client on loopback (see `tether.web`)."""

from __future__ import annotations

import argparse

from tether.web.command import DESCRIPTION, add_arguments
from tether.web.command import run as run_web

__all__ = ["HELP", "configure", "run"]

HELP = DESCRIPTION


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the flags of `tether web`."""
    add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    return run_web(args)
