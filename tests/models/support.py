"""What the provider tests share: fast retries, a tool, an image, the first prompt of a turn,
draining a stream, a model on the loopback server as a fixture, and golden request files."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tests.golden import check_golden
from tests.models.sse_server import SSEServer
from tether.content import TextContent
from tether.models import Model, ModelEvent, ModelRequest, ToolSpec, UserMessage
from tether.models.retry import RetryPolicy
from tether.models.streaming import StreamingModel

__all__ = [
    "ASK",
    "FAST",
    "PIXEL",
    "READ",
    "REQUESTS",
    "SIGNATURE",
    "THOUGHT",
    "collect",
    "hello",
    "loopback_model",
    "pinned",
]

FAST = RetryPolicy(attempts=4, base_delay=0.01, max_delay=0.02)
READ = ToolSpec(
    name="read",
    description="Read a file.",
    parameters={"type": "object", "properties": {"path": {"type": "string"}}},
)
PIXEL = "iVBORw0KGgo="
ASK = UserMessage((TextContent(text="fix the bug"),))
"""The turn's first prompt in the thinking and tool-call cases."""
THOUGHT = "The bug is in a.py; read it first."
"""What the thinking transcripts think."""
SIGNATURE = "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds=="
"""The signature of the thought in `anthropic_thinking_tools.sse`."""
REQUESTS = Path(__file__).parent / "requests"
"""Golden request files: what tether sends, pinned."""

M = TypeVar("M", bound=StreamingModel[Any, Any])


def hello() -> ModelRequest:
    """A minimal request: one user message, no system prompt, no tools."""
    return ModelRequest(system="", messages=(UserMessage((TextContent(text="hi"),)),), tools=())


async def collect(model: Model, request: ModelRequest) -> list[ModelEvent]:
    """Every event of one stream."""
    return [event async for event in model.stream(request)]


def pinned(name: str, body: object) -> None:
    """A request body against its golden file (`TETHER_SNAPSHOT=refresh` rewrites it)."""
    check_golden(REQUESTS / name, json.dumps(body, indent=2, sort_keys=True) + "\n")


def loopback_model(make: Callable[[SSEServer], M]) -> Any:
    """A fixture giving the model `make` builds on the test's loopback server (the `server`
    fixture), closed after the test."""

    @pytest.fixture
    async def model(server: SSEServer) -> AsyncIterator[M]:
        made = make(server)
        try:
            yield made
        finally:
            await made.aclose()

    return model
