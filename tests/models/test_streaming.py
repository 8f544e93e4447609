"""What both SDK-backed providers must do alike, each through its real SDK against a loopback
server speaking its wire format: retries, errors, usage, cancellation."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator
from contextlib import aclosing
from typing import Any

import pytest

from tests.models.sse_server import SSEServer, json_reply
from tests.models.support import collect, hello
from tests.models.wires import WIRES, Wire
from tether.errors import ContextOverflow, ModelError
from tether.models import (
    AssistantMessage,
    Completed,
    ModelEvent,
    TextDelta,
)
from tether.models.factory import make_model
from tether.models.streaming import StreamingModel

DONE = AssistantMessage(text="Done: both files are fine.")
"""The message of every `KIND_text.sse`."""


@pytest.fixture(params=WIRES, ids=str)
def wire(request: pytest.FixtureRequest) -> Wire:
    """Each provider in turn."""
    wire: Wire = request.param
    return wire


@pytest.fixture
async def model(server: SSEServer, wire: Wire) -> AsyncIterator[StreamingModel[Any, Any]]:
    """A model pointed at the loopback server with a key and fast retries."""
    made = wire.make(wire.url(server), model="test-model", api_key="sk-test")
    yield made
    await made.aclose()


async def failure(model: StreamingModel[Any, Any]) -> str:
    """The error one request ends with; the model is closed after."""
    try:
        with pytest.raises(ModelError) as caught:
            await collect(model, hello())
    finally:
        await model.aclose()
    return str(caught.value)


async def test_events_split_across_tiny_chunks_assemble_the_same(
    server: SSEServer, wire: Wire, model: StreamingModel[Any, Any]
) -> None:
    server.queue(wire.sse("text_and_tools", chunk_size=5))
    events = await collect(model, hello())
    final = events[-1]
    assert isinstance(final, Completed)
    assert final.message.text == "I'll read both files."
    assert [call.arguments for call in final.message.tool_calls] == [
        '{"path": "a.py"}',
        '{"path": "b.py", "offset": 10}',
    ]
    body = server.requests[0].json()
    # No tools and no system prompt: some servers reject empty ones, so none are sent.
    assert "tools" not in body
    assert "system" not in body
    assert body.items() >= wire.requested.items()


async def test_retries_after_503_then_succeeds(
    server: SSEServer, wire: Wire, model: StreamingModel[Any, Any]
) -> None:
    server.queue(json_reply(503, wire.error("api_error", "busy")), wire.sse("text"))
    events = await collect(model, hello())
    assert events[-1] == Completed(DONE, usage=wire.text_usage)
    assert len(server.requests) == 2
    assert server.requests[0].body == server.requests[1].body


async def test_429_waits_for_retry_after(
    server: SSEServer, wire: Wire, model: StreamingModel[Any, Any]
) -> None:
    limited = wire.error("rate_limit_error", "slow down")
    server.queue(json_reply(429, limited, {"retry-after": "0.3"}), wire.sse("text"))
    events = await collect(model, hello())
    assert isinstance(events[-1], Completed)
    first, second = server.requests
    # The policy's own backoff is at most 0.02 s, so the gap is the server's retry-after.
    assert second.at - first.at >= 0.29


@pytest.mark.parametrize(("status", "reason"), [(502, "bad gateway"), (529, "Overloaded")])
async def test_retries_exhausted_is_a_clear_error(
    server: SSEServer, wire: Wire, model: StreamingModel[Any, Any], status: int, reason: str
) -> None:
    server.queue(*[json_reply(status, wire.error("overloaded_error", reason))] * 4)
    with pytest.raises(
        ModelError,
        match=rf"^{wire.label}: .* failed \(HTTP {status}: {reason}\).*gave up after 4 attempts",
    ):
        await collect(model, hello())
    assert len(server.requests) == 4


async def test_retry_after_beyond_the_limit_fails_at_once(
    server: SSEServer, wire: Wire, model: StreamingModel[Any, Any]
) -> None:
    quota = wire.error("rate_limit_error", "quota")
    server.queue(json_reply(429, quota, {"retry-after": "3600"}))
    with pytest.raises(ModelError, match=r"Rate limited .* retry after 3600 s"):
        await collect(model, hello())
    assert len(server.requests) == 1


@pytest.mark.parametrize("case", ["malformed", "nested"])
async def test_an_undecodable_chunk_is_a_clear_error_not_retried(
    server: SSEServer, wire: Wire, model: StreamingModel[Any, Any], case: str
) -> None:
    reply, words = wire.undecodable(case)
    server.queue(reply)
    message = await failure(model)
    assert message.startswith(f"{wire.label}: ")
    for word in words:
        assert word in message
    assert len(server.requests) == 1


async def test_stream_cut_short_is_an_error(
    server: SSEServer, wire: Wire, model: StreamingModel[Any, Any]
) -> None:
    server.queue(wire.sse("truncated"))
    message = await failure(model)
    assert message == f"{wire.label}: the stream from {wire.url(server)} {model.unfinished}"
    assert len(server.requests) == 1


async def test_unknown_model(server: SSEServer, wire: Wire) -> None:
    server.queue(json_reply(404, wire.unknown_model))
    url = wire.url(server)
    model = wire.make(url, model="nope", api_key="k")
    message = await failure(model)
    assert message.startswith(f"{wire.label}: Unknown model 'nope' at {url} (HTTP 404")
    assert len(server.requests) == 1


async def test_auth_failure_names_the_key(server: SSEServer, wire: Wire) -> None:
    words, body = wire.rejected_key
    server.queue(json_reply(401, body))
    model = wire.make(wire.url(server), environ={wire.key_variable: "sk-bad"})
    message = await failure(model)
    assert message.startswith(f"{wire.label}: Authentication failed at {wire.url(server)} ")
    assert words in message
    assert message.endswith(f"; check {wire.key_variable}")
    assert len(server.requests) == 1


async def test_missing_key(wire: Wire) -> None:
    model = wire.make()
    default = wire.model_class.default_model
    assert (model.base_url, model.model, model.name) == (
        wire.discovery.default_url,
        default,
        f"{wire.kind}:{default}",
    )
    assert await failure(model) == wire.missing_key


async def test_cancelling_the_consumer_closes_the_connection(
    server: SSEServer, wire: Wire, model: StreamingModel[Any, Any]
) -> None:
    server.queue(wire.sse("long_text", hold_after=wire.held))
    first = asyncio.Event()
    seen: list[ModelEvent] = []

    async def consume() -> None:
        async for event in model.stream(hello()):
            seen.append(event)
            first.set()

    task = asyncio.create_task(consume())
    await asyncio.wait_for(first.wait(), 5)
    cancelled_at = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.wait_for(server.client_closed.wait(), 1.0)
    assert server.closed_at[0] - cancelled_at < 1.0
    assert seen == [TextDelta("word0 "), TextDelta("word1 ")]


async def test_breaking_out_early_closes_the_connection(
    server: SSEServer, wire: Wire, model: StreamingModel[Any, Any]
) -> None:
    server.queue(wire.sse("long_text", hold_after=wire.held))
    async with aclosing(model.stream(hello())) as events:
        async for event in events:
            assert event == TextDelta("word0 ")
            break
    await asyncio.wait_for(server.client_closed.wait(), 1.0)


async def test_connection_lost_after_text_is_not_retried(
    server: SSEServer, wire: Wire, model: StreamingModel[Any, Any]
) -> None:
    server.queue(wire.sse("long_text", cut_after=wire.held), wire.sse("text"))
    seen: list[ModelEvent] = []
    with pytest.raises(ModelError, match=rf"^{wire.label}: Connection to .* failed"):
        async for event in model.stream(hello()):
            seen.append(event)
    assert seen == [TextDelta("word0 "), TextDelta("word1 ")]
    assert len(server.requests) == 1


async def test_connection_lost_before_any_text_is_retried(
    server: SSEServer, wire: Wire, model: StreamingModel[Any, Any]
) -> None:
    server.queue(wire.sse("long_text", cut_after=1), wire.sse("text"))
    events = await collect(model, hello())
    assert events[-1] == Completed(DONE, usage=wire.text_usage)
    assert len(server.requests) == 2


async def test_nothing_listening_gives_up_after_the_attempts(wire: Wire) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}{wire.path}"
    message = await failure(wire.make(url, api_key="k"))
    assert message.startswith(f"{wire.label}: Connection to {url} failed: ")
    assert message.endswith("(gave up after 4 attempts)")


def test_factory_builds_the_model(wire: Wire) -> None:
    spec, base_url = wire.factory
    made = make_model(spec, base_url=base_url, api_key="sk")
    assert isinstance(made, wire.model_class)
    assert (made.name, made.model) == (spec, spec.partition(":")[2])
    assert made.base_url == (base_url or wire.discovery.default_url)


async def test_usage_with_cached_tokens(
    server: SSEServer, wire: Wire, model: StreamingModel[Any, Any]
) -> None:
    transcript, usage = wire.cached
    server.queue(wire.sse(transcript))
    events = await collect(model, hello())
    assert events[-1] == Completed(AssistantMessage(text="Cached."), usage=usage)
    assert server.requests[0].json().items() >= wire.requested.items()


@pytest.mark.parametrize(
    ("wire", "body"),
    [(wire, body) for wire in WIRES for body in wire.overflows],
    ids=[f"{wire}-{n}" for wire in WIRES for n, _ in enumerate(wire.overflows)],
)
async def test_prompt_too_long_is_a_context_overflow_not_retried(
    server: SSEServer, model: StreamingModel[Any, Any], body: dict[str, object]
) -> None:
    server.queue(json_reply(400, body))
    with pytest.raises(ContextOverflow, match="prompt is too long for 'test-model'"):
        await collect(model, hello())
    assert len(server.requests) == 1
