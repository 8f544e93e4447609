"""`--max-concurrency`: at most N model requests at once across every worker of a batch.

The gate itself lives where the workers can all reach it (a semaphore shared by the pool's
processes, an actor of the Ray cluster); `GatedModel` holds it for each request.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Protocol

from tether.models.base import Model, ModelEvent, ModelRequest

__all__ = ["GatedModel", "ModelGate", "gated"]


class ModelGate(Protocol):
    """A counting gate shared by every worker."""

    async def acquire(self) -> None:
        """Wait for a free place."""
        ...

    async def release(self) -> None:
        """Give the place back."""
        ...


class GatedModel:
    """A model whose every request waits for a place at the gate first."""

    def __init__(self, inner: Model, gate: ModelGate) -> None:
        self.inner = inner
        self.gate = gate
        self.name = inner.name

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        """The inner model's stream, inside one place of the gate."""
        await self.gate.acquire()
        try:
            async for event in self.inner.stream(request):
                yield event
        finally:
            await self.gate.release()

    async def aclose(self) -> None:
        """Close the inner model's connections."""
        await self.inner.aclose()


def gated(make: Callable[[str], Model], gate: ModelGate | None) -> Callable[[str], Model]:
    """`make` whose models go through `gate` (as it is without one)."""
    if gate is None:
        return make
    return lambda spec: GatedModel(make(spec), gate)
