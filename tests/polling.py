"""Waiting for something to happen: poll a condition up to a deadline, never a bare sleep.

A fixed sleep is either too short on a loaded machine or wasted time on an idle one; a
poll returns as soon as the condition holds and fails, naming what never happened, only
when the generous deadline passes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

__all__ = ["eventually", "until_file"]

INTERVAL = 0.02
"""Seconds between two looks."""


async def eventually(condition: Callable[[], object], what: str, within: float = 10.0) -> None:
    """Return once `condition()` is true; fail saying `what` did not happen after `within` s."""
    __tracebackhide__ = True  # the failure is the test's, not this function's
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"{what}: not within {within:g} s")
        await asyncio.sleep(INTERVAL)


def until_file(name: str, within: float = 60.0) -> str:
    """A shell line that returns once the file `name` exists (or after `within` s): a command
    that waits for the test to let it go on, rather than sleeping for a guessed time."""
    looks = round(within / INTERVAL)
    return f"for _ in $(seq {looks}); do [ -e {name} ] && break; sleep {INTERVAL}; done"
