"""Pausing the cyclic garbage collector while building many long-lived objects at once."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["gc_paused"]


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
