"""One prompt's run: its task and its own cancellation state."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["Turn"]

T = TypeVar("T")


class Turn:
    """Runs one prompt as a task that `cancel()` stops, and tells its tools it was cancelled."""

    def __init__(self) -> None:
        self.cancelled = asyncio.Event()
        """Set by `cancel()`; running tools watch it to stop their work."""
        self._task: asyncio.Task[Any] | None = None
        self._started = False

    @property
    def cancel_requested(self) -> bool:
        """Whether the person asked to stop this turn (rather than its caller being cancelled)."""
        return self.cancelled.is_set()

    async def run(self, body: Callable[[Turn], Coroutine[Any, Any, T]]) -> T:
        """Run `body(self)` as this turn's task and wait for it."""
        task: asyncio.Task[T] = asyncio.create_task(self._start(body))
        self._task = task
        return await task

    def cancel(self) -> None:
        """Stop the turn's model stream and tools now; the turn ends `cancelled`."""
        if self._task is None or self._task.done():
            return
        self.cancelled.set()
        if self._started:
            self._task.cancel()
        # Otherwise the task has not run yet: cancelling it now would skip the turn's own
        # handling, so it starts, records the prompt, and ends `cancelled` by itself.

    def check(self) -> None:
        """Raise `CancelledError` when a cancel came before the turn reached its first wait."""
        if self.cancel_requested:
            raise asyncio.CancelledError

    async def _start(self, body: Callable[[Turn], Coroutine[Any, Any, T]]) -> T:
        self._started = True
        return await body(self)
