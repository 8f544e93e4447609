"""The OpenAI-compatible model through the real `openai` SDK against a loopback SSE server."""

from __future__ import annotations

import asyncio
import socket
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
from tether.models.factory import make_model
from tether.models.openai_compat import OpenAICompatModel


@pytest.fixture
async def model(server: SSEServer) -> AsyncIterator[OpenAICompatModel]:
    """A model pointed at the loopback server with a key and fast retries."""
    made = OpenAICompatModel(
        model="deepseek-chat", base_url=f"{server.url}/v1", api_key="sk-test", retry=FAST
    )
    yield made
    await made.aclose()


def hello() -> ModelRequest:
    """A minimal request."""
    return ModelRequest(system="sys", messages=(UserMessage((TextContent(text="hi"),)),), tools=())


async def test_full_turn_with_text_and_two_parallel_tool_calls(
    server: SSEServer, model: OpenAICompatModel
) -> None:
    server.queue(sse_reply("openai_text_and_tools.sse"))
    history = (
        UserMessage(
            (TextContent(text="Look at these"), ImageContent(data=PIXEL, mime_type="image/png"))
        ),
        AssistantMessage(
            text="",
            tool_calls=(ToolCall(id="call_x", name="read", arguments='{"path": "c.png"}'),),
            stop_reason="tool_use",
        ),
        ToolResultMessage(
            tool_call_id="call_x",
            name="read",
            content=(
                TextContent(text="c.png, 1x1"),
                ImageContent(data=PIXEL, mime_type="image/png"),
            ),
        ),
        UserMessage((TextContent(text="now read a.py and b.py"),)),
    )
    events = await collect(model, ModelRequest(system="Be brief.", messages=history, tools=(READ,)))

    assert events[:-1] == [TextDelta("I'll read"), TextDelta(" both files.")]
    assert events[-1] == Completed(
        AssistantMessage(
            text="I'll read both files.",
            tool_calls=(
                ToolCall(id="call_0_a1f2", name="read", arguments='{"path": "a.py"}'),
                ToolCall(id="call_1_b3c4", name="read", arguments='{"path": "b.py", "offset": 10}'),
            ),
            stop_reason="tool_use",
        ),
        usage=Usage(input_tokens=412, output_tokens=58),
    )
    [request] = server.requests
    assert (request.method, request.path) == ("POST", "/v1/chat/completions")
    assert request.headers["authorization"] == "Bearer sk-test"
    data_url = f"data:image/png;base64,{PIXEL}"
    assert request.json() == {
        "model": "deepseek-chat",
        "stream": True,
        "stream_options": {"include_usage": True},
        "messages": [
            {"role": "system", "content": "Be brief."},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Look at these"},
                    {"type": "image_url", "image_url": {"url": data_url}},
                ],
            },
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_x",
                        "type": "function",
                        "function": {"name": "read", "arguments": '{"path": "c.png"}'},
                    }
                ],
            },
            {
                "role": "tool",
                "tool_call_id": "call_x",
                "content": "c.png, 1x1\n[image (image/png) attached in the next user message]",
            },
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Images from the read result:"},
                    {"type": "image_url", "image_url": {"url": data_url}},
                ],
            },
            {"role": "user", "content": "now read a.py and b.py"},
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "read",
                    "description": "Read a file.",
                    "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
                },
            }
        ],
    }


async def test_events_split_across_tiny_chunks_assemble_the_same(
    server: SSEServer, model: OpenAICompatModel
) -> None:
    server.queue(sse_reply("openai_text_and_tools.sse", chunk_size=7))
    events = await collect(model, hello())
    final = events[-1]
    assert isinstance(final, Completed)
    assert final.message.text == "I'll read both files."
    assert [call.arguments for call in final.message.tool_calls] == [
        '{"path": "a.py"}',
        '{"path": "b.py", "offset": 10}',
    ]
    assert "tools" not in server.requests[0].json()


async def test_retries_after_503_then_succeeds(server: SSEServer, model: OpenAICompatModel) -> None:
    server.queue(
        json_reply(503, {"error": {"message": "overloaded", "type": "server_error"}}),
        sse_reply("openai_text.sse"),
    )
    events = await collect(model, hello())
    assert events[-1] == Completed(AssistantMessage(text="Done: both files are fine."))
    assert len(server.requests) == 2
    assert server.requests[0].body == server.requests[1].body


async def test_429_waits_for_retry_after(server: SSEServer, model: OpenAICompatModel) -> None:
    server.queue(
        json_reply(429, {"error": {"message": "slow down"}}, {"retry-after": "0.3"}),
        sse_reply("openai_text.sse"),
    )
    events = await collect(model, hello())
    assert isinstance(events[-1], Completed)
    first, second = server.requests
    # The policy's own backoff is at most 0.02 s, so the gap is the server's retry-after.
    assert second.at - first.at >= 0.29


async def test_retries_exhausted_is_a_clear_error(
    server: SSEServer, model: OpenAICompatModel
) -> None:
    server.queue(*[json_reply(502, {"error": {"message": "bad gateway"}})] * 4)
    with pytest.raises(
        ModelError, match=r"failed \(HTTP 502: bad gateway\).*gave up after 4 attempts"
    ):
        await collect(model, hello())
    assert len(server.requests) == 4


async def test_retry_after_beyond_the_limit_fails_at_once(
    server: SSEServer, model: OpenAICompatModel
) -> None:
    server.queue(json_reply(429, {"error": {"message": "quota"}}, {"retry-after": "3600"}))
    with pytest.raises(ModelError, match=r"Rate limited .* retry after 3600 s"):
        await collect(model, hello())
    assert len(server.requests) == 1


async def test_malformed_chunk_names_the_provider(
    server: SSEServer, model: OpenAICompatModel
) -> None:
    server.queue(sse_reply("openai_malformed.sse"))
    with pytest.raises(ModelError) as caught:
        await collect(model, hello())
    message = str(caught.value)
    assert message.startswith("OpenAI-compatible API: ")
    assert "malformed stream chunk (invalid JSON)" in message
    assert '"content":"oops"' in message
    assert len(server.requests) == 1


async def test_chunk_nested_too_deeply_is_a_clear_error(
    server: SSEServer, model: OpenAICompatModel
) -> None:
    deep = b"data: " + b"[" * 100_000 + b"\n\n"
    server.queue(Reply(headers={"content-type": "text/event-stream"}, chunks=(deep,)))
    with pytest.raises(ModelError) as caught:
        await collect(model, hello())
    message = str(caught.value)
    assert message.startswith("OpenAI-compatible API: ")
    assert "nested too deeply to decode" in message
    assert len(server.requests) == 1


async def test_stream_cut_short_is_an_error(server: SSEServer, model: OpenAICompatModel) -> None:
    server.queue(sse_reply("openai_truncated.sse"))
    with pytest.raises(ModelError, match="ended before the message was complete"):
        await collect(model, hello())


async def test_unknown_model(server: SSEServer) -> None:
    server.queue(
        json_reply(
            404,
            {
                "error": {
                    "message": "The model `nope` does not exist",
                    "type": "invalid_request_error",
                    "code": "model_not_found",
                }
            },
        )
    )
    model = OpenAICompatModel(model="nope", base_url=server.url, api_key="k", retry=FAST)
    try:
        with pytest.raises(ModelError, match=rf"Unknown model 'nope' at {server.url} \(HTTP 404"):
            await collect(model, hello())
    finally:
        await model.aclose()
    assert len(server.requests) == 1


async def test_auth_failure_names_the_key(server: SSEServer) -> None:
    server.queue(json_reply(401, {"error": {"message": "Incorrect API key provided"}}))
    model = OpenAICompatModel(base_url=server.url, environ={"OPENAI_API_KEY": "sk-bad"}, retry=FAST)
    try:
        with pytest.raises(
            ModelError, match=r"Authentication failed .*Incorrect API key provided.*OPENAI_API_KEY"
        ):
            await collect(model, hello())
    finally:
        await model.aclose()


async def test_missing_key_for_deepseek() -> None:
    model = OpenAICompatModel(environ={})
    assert (model.base_url, model.model, model.name) == (
        "https://api.deepseek.com",
        "deepseek-chat",
        "openai:deepseek-chat",
    )
    with pytest.raises(ModelError) as caught:
        await collect(model, hello())
    assert str(caught.value) == (
        "No API key for https://api.deepseek.com: set DEEPSEEK_API_KEY or TETHER_API_KEY "
        "or pass --api-key"
    )


async def test_missing_key_for_another_remote_url() -> None:
    model = OpenAICompatModel(base_url="https://openrouter.ai/api/v1/", environ={})
    with pytest.raises(
        ModelError, match=r"No API key for https://openrouter\.ai/api/v1: set OPENROUTER"
    ):
        await collect(model, hello())


async def test_environment_supplies_url_and_key(server: SSEServer) -> None:
    server.queue(sse_reply("openai_text.sse"))
    env = {"TETHER_BASE_URL": server.url, "TETHER_API_KEY": "tk"}
    model = OpenAICompatModel(model="qwen3:8b", environ=env, retry=FAST)
    try:
        await collect(model, hello())
    finally:
        await model.aclose()
    [request] = server.requests
    assert request.json()["model"] == "qwen3:8b"
    assert request.headers["authorization"] == "Bearer tk"


async def test_local_server_needs_no_key(server: SSEServer) -> None:
    server.queue(sse_reply("openai_text.sse"))
    model = OpenAICompatModel(model="llama3.2", base_url=server.url, environ={}, retry=FAST)
    try:
        events = await collect(model, hello())
    finally:
        await model.aclose()
    assert isinstance(events[-1], Completed)
    assert server.requests[0].headers["authorization"].startswith("Bearer ")


async def test_cancelling_the_consumer_closes_the_connection(
    server: SSEServer, model: OpenAICompatModel
) -> None:
    server.queue(sse_reply("openai_long_text.sse", hold_after=3))
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
    server: SSEServer, model: OpenAICompatModel
) -> None:
    server.queue(sse_reply("openai_long_text.sse", cut_after=3), sse_reply("openai_text.sse"))
    seen: list[ModelEvent] = []
    with pytest.raises(ModelError, match=r"^OpenAI-compatible API: Connection to .* failed"):
        async for event in model.stream(hello()):
            seen.append(event)
    assert seen == [TextDelta("word0 "), TextDelta("word1 ")]
    assert len(server.requests) == 1


async def test_connection_lost_before_any_text_is_retried(
    server: SSEServer, model: OpenAICompatModel
) -> None:
    server.queue(sse_reply("openai_long_text.sse", cut_after=1), sse_reply("openai_text.sse"))
    events = await collect(model, hello())
    assert events[-1] == Completed(AssistantMessage(text="Done: both files are fine."))
    assert len(server.requests) == 2


async def test_nothing_listening_gives_up_after_the_attempts() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    model = OpenAICompatModel(base_url=f"http://127.0.0.1:{port}/v1", api_key="k", retry=FAST)
    try:
        with pytest.raises(ModelError, match=r"Connection to .* failed.*gave up after 4 attempts"):
            await collect(model, hello())
    finally:
        await model.aclose()


def test_factory_builds_the_model() -> None:
    made = make_model("openai:gpt-5.5", base_url="https://api.openai.com/v1", api_key="sk")
    assert isinstance(made, OpenAICompatModel)
    assert (made.name, made.base_url) == ("openai:gpt-5.5", "https://api.openai.com/v1")


async def test_breaking_out_early_closes_the_connection(
    server: SSEServer, model: OpenAICompatModel
) -> None:
    server.queue(sse_reply("openai_long_text.sse", hold_after=3))
    async with aclosing(model.stream(hello())) as events:
        async for event in events:
            assert event == TextDelta("word0 ")
            break
    await asyncio.wait_for(server.client_closed.wait(), 1.0)


async def test_error_inside_the_stream_is_reported(
    server: SSEServer, model: OpenAICompatModel
) -> None:
    server.queue(sse_reply("openai_error_event.sse"))
    with pytest.raises(ModelError, match="reported an error: Upstream provider returned an error"):
        await collect(model, hello())
    assert len(server.requests) == 1


async def test_bare_404_also_suspects_the_base_url(server: SSEServer) -> None:
    server.queue(Reply(status=404, chunks=(b"404 page not found",), streamed=False))
    model = OpenAICompatModel(model="qwen3:8b", base_url=server.url, retry=FAST, environ={})
    try:
        with pytest.raises(ModelError) as caught:
            await collect(model, hello())
    finally:
        await model.aclose()
    assert str(caught.value) == (
        f"OpenAI-compatible API: Unknown model 'qwen3:8b' at {server.url} "
        f"(HTTP 404: 404 page not found), or {server.url} is not the API's base URL"
    )


async def test_usage_from_the_last_chunk_with_cached_tokens(
    server: SSEServer, model: OpenAICompatModel
) -> None:
    server.queue(sse_reply("openai_cached_usage.sse"))
    events = await collect(model, hello())
    assert events[-1] == Completed(
        AssistantMessage(text="Cached."),
        usage=Usage(input_tokens=2100, output_tokens=3, cached_read_tokens=2048),
    )
    assert server.requests[0].json()["stream_options"] == {"include_usage": True}


@pytest.mark.parametrize(
    "error",
    [
        {"message": "too long", "type": "invalid_request_error", "code": "context_length_exceeded"},
        {
            "message": "This model's maximum context length is 65536 tokens. However, you "
            "requested 70000 tokens. Please reduce the length of the messages.",
            "type": "invalid_request_error",
            "code": None,
        },
    ],
)
async def test_prompt_too_long_is_a_context_overflow_not_retried(
    server: SSEServer, model: OpenAICompatModel, error: dict[str, object]
) -> None:
    server.queue(json_reply(400, {"error": error}))
    with pytest.raises(ContextOverflow, match="prompt is too long for 'deepseek-chat'"):
        await collect(model, hello())
    assert len(server.requests) == 1
