"""The cyclic garbage collector, tuned for a session: paused while a log is loaded and while
`tether run` starts, and its youngest generation collected less often while a session runs."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = [
    "YOUNG_THRESHOLD",
    "gc_for_sessions",
    "gc_paused",
    "gc_paused_to_start",
    "gc_started",
]

YOUNG_THRESHOLD = 10_000
"""Allocations between two collections of the youngest generation (CPython's default: 700)."""


_starting: list[bool] = [False]
"""Whether `gc_paused_to_start` paused the collector and `gc_started` has not resumed it."""


def gc_paused_to_start() -> None:
    """Pause the collector while the process starts (imports, settings, the session).

    What starting makes stays for the whole run (modules, classes, schemas, the session): the
    collections of it before the first request (about a hundred young ones and ten of the
    middle generation) freed a few hundred objects and cost a tenth of the CPU to that request.
    """
    if gc.isenabled():
        gc.disable()
        _starting[0] = True


def gc_started() -> None:
    """End `gc_paused_to_start`'s pause: what starting made is set aside (frozen: no later
    collection walks it; the few hundred objects of cycles among it stay until the process
    ends), and the collector runs again for what the session makes from here."""
    if _starting[0]:
        _starting[0] = False
        gc.freeze()
        gc.enable()


@contextmanager
def gc_paused() -> Iterator[None]:
    """Loading a log makes hundreds of thousands of objects that all stay alive; the collector's
    passes over them find nothing to free and, on a large log, cost more than the loading."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def gc_for_sessions() -> None:
    """Collect the youngest generation every `YOUNG_THRESHOLD` allocations (never less often
    than that if it was set so already).

    Every step of a session sends the whole conversation, so it holds a few lists as long as the
    conversation while it runs; each young collection that meets them walks all their items.
    At CPython's default (about one young collection per step) that walk made a step cost more
    the longer the session ran; collected every 10,000 allocations, a step costs the same at
    step 4,000 as at step 100, for a few percent more memory between collections.
    """
    young, middle, old = gc.get_threshold()
    if young < YOUNG_THRESHOLD:
        gc.set_threshold(YOUNG_THRESHOLD, middle, old)
