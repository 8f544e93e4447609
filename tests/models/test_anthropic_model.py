"""The Anthropic model through the real `anthropic` SDK against a loopback SSE server."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import aclosing

import pytest

from tests.models.sse_server import Reply, SSEServer, json_reply, sse_reply
from tests.models.support import FAST, PIXEL, READ, collect
from tether.content import ImageContent, TextContent
from tether.models import (
    AssistantMessage,
    Completed,
    ContextOverflow,
    ModelError,
    ModelEvent,
    ModelRequest,
    TextDelta,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from tether.models.anthropic_model import DEFAULT_MODEL, AnthropicModel
from tether.models.factory import make_model


@pytest.fixture
async def model(server: SSEServer) -> AsyncIterator[AnthropicModel]:
    """A model pointed at the loopback server with a key and fast retries."""
    made = AnthropicModel(base_url=server.url, api_key="sk-ant-test", retry=FAST, environ={})
    yield made
    await made.aclose()


def hello() -> ModelRequest:
    """A minimal request."""
    return ModelRequest(system="", messages=(UserMessage((TextContent(text="hi"),)),), tools=())


async def test_full_turn_with_text_and_two_parallel_tool_calls(
    server: SSEServer, model: AnthropicModel
) -> None:
    server.queue(sse_reply("anthropic_text_and_tools.sse"))
    history = (
        UserMessage(
            (TextContent(text="Look at these"), ImageContent(data=PIXEL, mime_type="image/png"))
        ),
        AssistantMessage(
            text="Reading.",
            tool_calls=(
                ToolCall(id="toolu_x", name="read", arguments='{"path": "c.png"}'),
                ToolCall(id="toolu_y", name="read", arguments='{"path": '),
            ),
            stop_reason="tool_use",
        ),
        ToolResultMessage(
            tool_call_id="toolu_x",
            name="read",
            content=(
                TextContent(text="c.png, 1x1"),
                ImageContent(data=PIXEL, mime_type="image/png"),
            ),
        ),
        ToolResultMessage(
            tool_call_id="toolu_y",
            name="read",
            content=(TextContent(text="arguments are not JSON"),),
            is_error=True,
        ),
        UserMessage((TextContent(text="now read a.py and b.py"),)),
    )
    request = ModelRequest(system="Be brief.", messages=history, tools=(READ,))
    events = await collect(model, request)

    assert events[:-1] == [TextDelta("I'll read"), TextDelta(" both files.")]
    assert events[-1] == Completed(
        AssistantMessage(
            text="I'll read both files.",
            tool_calls=(
                ToolCall(
                    id="toolu_01A09q90qw90lq917835lq9", name="read", arguments='{"path": "a.py"}'
                ),
                ToolCall(
                    id="toolu_01B7ydRBAW3Vx7b5Ga8pkS5J",
                    name="read",
                    arguments='{"path": "b.py", "offset": 10}',
                ),
            ),
            stop_reason="tool_use",
        ),
        usage=Usage(input_tokens=472, output_tokens=89),
    )
    [sent] = server.requests
    assert (sent.method, sent.path) == ("POST", "/v1/messages")
    # This SDK release sends the key as a bearer token.
    assert sent.headers["authorization"] == "Bearer sk-ant-test"
    assert "anthropic-version" in sent.headers
    image = {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": PIXEL},
    }
    assert sent.json() == {
        "model": DEFAULT_MODEL,
        "max_tokens": 8192,
        "stream": True,
        "system": "Be brief.",
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Look at these"}, image]},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Reading."},
                    {
                        "type": "tool_use",
                        "id": "toolu_x",
                        "name": "read",
                        "input": {"path": "c.png"},
                    },
                    {"type": "tool_use", "id": "toolu_y", "name": "read", "input": {}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_x",
                        "content": [{"type": "text", "text": "c.png, 1x1"}, image],
                    },
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_y",
                        "content": [{"type": "text", "text": "arguments are not JSON"}],
                        "is_error": True,
                    },
                    {"type": "text", "text": "now read a.py and b.py"},
                ],
            },
        ],
        "tools": [
            {
                "name": "read",
                "description": "Read a file.",
                "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}},
            }
        ],
    }


async def test_events_split_across_tiny_chunks_assemble_the_same(
    server: SSEServer, model: AnthropicModel
) -> None:
    server.queue(sse_reply("anthropic_text_and_tools.sse", chunk_size=5))
    events = await collect(model, hello())
    final = events[-1]
    assert isinstance(final, Completed)
    assert final.message.text == "I'll read both files."
    assert [call.arguments for call in final.message.tool_calls] == [
        '{"path": "a.py"}',
        '{"path": "b.py", "offset": 10}',
    ]
    body = server.requests[0].json()
    assert "tools" not in body
    assert "system" not in body


async def test_tool_call_without_input_gets_empty_object(
    server: SSEServer, model: AnthropicModel
) -> None:
    server.queue(sse_reply("anthropic_tool_without_input.sse"))
    events = await collect(model, hello())
    assert events == [
        Completed(
            AssistantMessage(
                tool_calls=(ToolCall(id="toolu_01C", name="list", arguments="{}"),),
                stop_reason="tool_use",
            ),
            usage=Usage(input_tokens=472, output_tokens=5),
        )
    ]


async def test_refusal_stop_reason(server: SSEServer, model: AnthropicModel) -> None:
    server.queue(sse_reply("anthropic_refusal.sse"))
    events = await collect(model, hello())
    assert events[-1] == Completed(
        AssistantMessage(text="I can't help with that.", stop_reason="refusal"),
        usage=Usage(input_tokens=472, output_tokens=7),
    )


async def test_retries_after_503_then_succeeds(server: SSEServer, model: AnthropicModel) -> None:
    server.queue(
        json_reply(503, {"type": "error", "error": {"type": "api_error", "message": "busy"}}),
        sse_reply("anthropic_text.sse"),
    )
    events = await collect(model, hello())
    assert events[-1] == Completed(
        AssistantMessage(text="Done: both files are fine."),
        usage=Usage(input_tokens=472, output_tokens=9),
    )
    assert len(server.requests) == 2
    assert server.requests[0].body == server.requests[1].body


async def test_overloaded_error_event_before_any_text_is_retried(
    server: SSEServer, model: AnthropicModel
) -> None:
    server.queue(sse_reply("anthropic_overloaded.sse"), sse_reply("anthropic_text.sse"))
    events = await collect(model, hello())
    assert isinstance(events[-1], Completed)
    assert len(server.requests) == 2


async def test_429_waits_for_retry_after(server: SSEServer, model: AnthropicModel) -> None:
    limited = {"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}
    server.queue(json_reply(429, limited, {"retry-after": "0.3"}), sse_reply("anthropic_text.sse"))
    events = await collect(model, hello())
    assert isinstance(events[-1], Completed)
    first, second = server.requests
    assert second.at - first.at >= 0.29


async def test_retries_exhausted_is_a_clear_error(server: SSEServer, model: AnthropicModel) -> None:
    body = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    server.queue(*[json_reply(529, body)] * 4)
    with pytest.raises(
        ModelError, match=r"^Anthropic API: .*HTTP 529: Overloaded.*gave up after 4 attempts"
    ):
        await collect(model, hello())
    assert len(server.requests) == 4


async def test_malformed_chunk_names_the_provider(server: SSEServer, model: AnthropicModel) -> None:
    server.queue(sse_reply("anthropic_malformed.sse"))
    with pytest.raises(ModelError) as caught:
        await collect(model, hello())
    message = str(caught.value)
    assert message.startswith("Anthropic API: ")
    assert "malformed stream chunk (invalid JSON)" in message
    assert len(server.requests) == 1


async def test_chunk_nested_too_deeply_is_a_clear_error(
    server: SSEServer, model: AnthropicModel
) -> None:
    deep = b"event: message_start\ndata: " + b"[" * 100_000 + b"\n\n"
    server.queue(Reply(headers={"content-type": "text/event-stream"}, chunks=(deep,)))
    with pytest.raises(ModelError) as caught:
        await collect(model, hello())
    message = str(caught.value)
    assert message.startswith("Anthropic API: ")
    assert "nested too deeply to decode" in message
    assert len(server.requests) == 1


async def test_unknown_model(server: SSEServer) -> None:
    missing = {"type": "error", "error": {"type": "not_found_error", "message": "model: claude-x"}}
    server.queue(json_reply(404, missing))
    model = AnthropicModel(model="claude-x", base_url=server.url, api_key="k", retry=FAST)
    try:
        with pytest.raises(
            ModelError, match=rf"Unknown model 'claude-x' at {server.url} \(HTTP 404"
        ):
            await collect(model, hello())
    finally:
        await model.aclose()


async def test_auth_failure(server: SSEServer) -> None:
    denied = {
        "type": "error",
        "error": {"type": "authentication_error", "message": "invalid x-api-key"},
    }
    server.queue(json_reply(401, denied))
    model = AnthropicModel(base_url=server.url, environ={"ANTHROPIC_API_KEY": "bad"}, retry=FAST)
    try:
        with pytest.raises(
            ModelError, match=r"Authentication failed .*invalid x-api-key.*ANTHROPIC_API_KEY"
        ):
            await collect(model, hello())
    finally:
        await model.aclose()
    assert len(server.requests) == 1


async def test_missing_key() -> None:
    model = AnthropicModel(environ={})
    assert model.name == f"anthropic:{DEFAULT_MODEL}"
    with pytest.raises(ModelError) as caught:
        await collect(model, hello())
    assert str(caught.value) == (
        "No API key for https://api.anthropic.com: set ANTHROPIC_API_KEY or pass --api-key"
    )


async def test_cancelling_the_consumer_closes_the_connection(
    server: SSEServer, model: AnthropicModel
) -> None:
    server.queue(sse_reply("anthropic_long_text.sse", hold_after=4))
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


async def test_connection_lost_after_text_is_not_retried(
    server: SSEServer, model: AnthropicModel
) -> None:
    server.queue(sse_reply("anthropic_long_text.sse", cut_after=4), sse_reply("anthropic_text.sse"))
    seen: list[ModelEvent] = []
    with pytest.raises(ModelError, match=r"^Anthropic API: Connection to .* failed"):
        async for event in model.stream(hello()):
            seen.append(event)
    assert seen == [TextDelta("word0 "), TextDelta("word1 ")]
    assert len(server.requests) == 1


def test_factory_builds_the_model() -> None:
    made = make_model("anthropic:claude-opus-5-5", api_key="sk-ant")
    assert isinstance(made, AnthropicModel)
    assert (made.name, made.model) == ("anthropic:claude-opus-5-5", "claude-opus-5-5")


async def test_breaking_out_early_closes_the_connection(
    server: SSEServer, model: AnthropicModel
) -> None:
    server.queue(sse_reply("anthropic_long_text.sse", hold_after=4))
    async with aclosing(model.stream(hello())) as events:
        async for event in events:
            assert event == TextDelta("word0 ")
            break
    await asyncio.wait_for(server.client_closed.wait(), 1.0)


async def test_usage_counts_cache_reads_and_writes(
    server: SSEServer, model: AnthropicModel
) -> None:
    server.queue(sse_reply("anthropic_cached.sse"))
    events = await collect(model, hello())
    assert events[-1] == Completed(
        AssistantMessage(text="Cached."),
        usage=Usage(
            input_tokens=12, output_tokens=4, cached_read_tokens=2048, cached_write_tokens=300
        ),
    )


async def test_prompt_too_long_is_a_context_overflow_not_retried(
    server: SSEServer, model: AnthropicModel
) -> None:
    body = {
        "type": "error",
        "error": {
            "type": "invalid_request_error",
            "message": "prompt is too long: 210000 tokens > 200000 maximum",
        },
    }
    server.queue(json_reply(400, body))
    with pytest.raises(ContextOverflow, match="prompt is too long"):
        await collect(model, hello())
    assert len(server.requests) == 1
