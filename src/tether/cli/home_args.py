"""`--home DIR`: a command working on another tether folder than `$TETHER_HOME` (a batch's
output folder, whose sessions are in `DIR/sessions`)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from tether.home import HOME_ENV

__all__ = ["add_home_argument", "use_home"]


def add_home_argument(parser: argparse.ArgumentParser) -> None:
    """`--home DIR`."""
    parser.add_argument(
        "--home",
        type=Path,
        metavar="DIR",
        help="the tether folder to use instead of $TETHER_HOME (a `tether batch --out` folder)",
    )


def use_home(args: argparse.Namespace) -> None:
    """Make `--home` this process's (and its children's) `$TETHER_HOME`.

    Raises `ValueError` when it names no folder."""
    home: Path | None = getattr(args, "home", None)
    if home is None:
        return
    if not home.is_dir():
        raise ValueError(f"--home {home} is not a directory")
    os.environ[HOME_ENV] = str(home.resolve())
