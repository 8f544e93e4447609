"""`tether` where there is no terminal to draw on (a pipe, `TERM=dumb`): not yet."""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["run_plain"]


def run_plain(argv: Sequence[str]) -> int:
    """Refuse for now."""
    print("tether: the interactive session needs a terminal; use tether run", file=sys.stderr)
    return 2
