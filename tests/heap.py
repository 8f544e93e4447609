"""The cyclic garbage collector around collection: paused while the test modules load, then
what they made is set aside, so that no later full collection walks it again.

Loading every test module (tether, the SDKs, the test tools: about 290,000 objects, all kept
to the end) cost each worker about half a second of collections that freed nothing, and every
later full collection (the automatic ones while tests run, pytest's own at exit to report
unraisable exceptions) walked all of it again. Frozen, it is left alone: what collection left
unreachable is collected once here (its finalizers and warnings happen here, in no test), and
what the tests make is collected as before. A test that runs `tether show` in the worker's
process unfreezes everything when its replay ends (`cli/show.py`); later tests then walk the
heap as before.
"""

from __future__ import annotations

import gc
from collections.abc import Generator

import pytest


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Generator[None, object, object]:
    """Collect with the collector paused, then collect once and freeze what is left."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return (yield)
    finally:
        if enabled:
            gc.enable()
        gc.collect()
        gc.freeze()
