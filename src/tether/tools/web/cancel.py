"""Network work that stops the moment the session is cancelled."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

from tether.errors import ToolError

__all__ = ["unless_cancelled"]

T = TypeVar("T")


async def unless_cancelled(work: Awaitable[T], cancelled: asyncio.Event, message: str) -> T:
    """`work`'s result, unless the session is cancelled first: then the work is stopped and
    `ToolError(message)` raised."""
    task = asyncio.ensure_future(work)
    stop = asyncio.ensure_future(cancelled.wait())
    try:
        await asyncio.wait({task, stop}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop.cancel()
        if not task.done():
            task.cancel()
            await asyncio.wait({task})
    if task.cancelled():
        raise ToolError(message)
    return task.result()
