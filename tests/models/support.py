"""What the provider tests share: fast retries, a tool, an image, and draining a stream."""

from __future__ import annotations

from tether.models import Model, ModelEvent, ModelRequest, ToolSpec
from tether.models.retry import RetryPolicy

FAST = RetryPolicy(attempts=4, base_delay=0.01, max_delay=0.02)
READ = ToolSpec(
    name="read",
    description="Read a file.",
    parameters={"type": "object", "properties": {"path": {"type": "string"}}},
)
PIXEL = "iVBORw0KGgo="


async def collect(model: Model, request: ModelRequest) -> list[ModelEvent]:
    """Every event of one stream."""
    return [event async for event in model.stream(request)]
