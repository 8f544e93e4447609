"""The cyclic garbage collector, tuned for a session: paused while a log is loaded, and its
youngest generation collected less often while a session runs."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["YOUNG_THRESHOLD", "gc_for_sessions", "gc_paused"]

YOUNG_THRESHOLD = 10_000
"""Allocations between two collections of the youngest generation (CPython's default: 700)."""


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
