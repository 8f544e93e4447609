"""What only OpenAI-compatible endpoints do, over `httpx` (no SDK) against a loopback server.

The cases both providers share are in `test_streaming.py`.
"""

from __future__ import annotations

import pytest

from tests.models.sse_server import Reply, SSEServer, json_reply, sse_reply
from tests.models.support import FAST, PIXEL, READ, collect, loopback_model
from tether.content import ImageContent, TextContent
from tether.errors import ModelError
from tether.models import (
    AssistantMessage,
    Completed,
    ModelRequest,
    TextDelta,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from tether.models.openai_compat import OpenAICompatModel
from tether.providers import OPENAI

model = loopback_model(
    lambda server: OpenAICompatModel(
        OPENAI.resolve(f"{server.url}/v1", "sk-test", environ={}), model="deepseek-chat", retry=FAST
    )
)
"""A model pointed at the loopback server with a key and fast retries."""


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


async def test_missing_key_for_another_remote_url() -> None:
    model = OpenAICompatModel(OPENAI.resolve("https://openrouter.ai/api/v1/", environ={}))
    with pytest.raises(
        ModelError, match=r"No API key for https://openrouter\.ai/api/v1: set OPENROUTER"
    ):
        await collect(model, hello())


async def test_environment_supplies_url_and_key(server: SSEServer) -> None:
    server.queue(sse_reply("openai_text.sse"))
    env = {"TETHER_BASE_URL": server.url, "TETHER_API_KEY": "tk"}
    model = OpenAICompatModel(OPENAI.resolve(environ=env), model="qwen3:8b", retry=FAST)
    try:
        await collect(model, hello())
    finally:
        await model.aclose()
    [request] = server.requests
    assert request.json()["model"] == "qwen3:8b"
    assert request.headers["authorization"] == "Bearer tk"


async def test_local_server_needs_no_key(server: SSEServer) -> None:
    server.queue(sse_reply("openai_text.sse"))
    model = OpenAICompatModel(OPENAI.resolve(server.url, environ={}), model="llama3.2", retry=FAST)
    try:
        events = await collect(model, hello())
    finally:
        await model.aclose()
    assert isinstance(events[-1], Completed)
    assert server.requests[0].headers["authorization"].startswith("Bearer ")


async def test_error_inside_the_stream_is_reported(
    server: SSEServer, model: OpenAICompatModel
) -> None:
    server.queue(sse_reply("openai_error_event.sse"))
    with pytest.raises(ModelError, match="reported an error: Upstream provider returned an error"):
        await collect(model, hello())
    assert len(server.requests) == 1


async def test_bare_404_also_suspects_the_base_url(server: SSEServer) -> None:
    server.queue(Reply(status=404, chunks=(b"404 page not found",), streamed=False))
    model = OpenAICompatModel(OPENAI.resolve(server.url, environ={}), model="qwen3:8b", retry=FAST)
    try:
        with pytest.raises(ModelError) as caught:
            await collect(model, hello())
    finally:
        await model.aclose()
    assert str(caught.value) == (
        f"OpenAI-compatible API: Unknown model 'qwen3:8b' at {server.url} "
        f"(HTTP 404: 404 page not found), or {server.url} is not the API's base URL"
    )


async def test_the_request_carries_the_sdks_headers_without_importing_it(
    server: SSEServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The SDK sent OPENAI_ORG_ID and OPENAI_PROJECT_ID as headers: so does the httpx path.
    monkeypatch.setenv("OPENAI_ORG_ID", "org-test")
    monkeypatch.setenv("OPENAI_PROJECT_ID", "proj-test")
    server.queue(sse_reply("openai_text.sse"))
    provider = OPENAI.resolve(f"{server.url}/v1", "sk-test", environ={})
    model = OpenAICompatModel(provider, model="deepseek-chat", retry=FAST)
    try:
        events = await collect(model, hello())
    finally:
        await model.aclose()
    assert isinstance(events[-1], Completed)
    [request] = server.requests
    assert (request.method, request.path) == ("POST", "/v1/chat/completions")
    assert request.headers["authorization"] == "Bearer sk-test"
    assert request.headers["openai-organization"] == "org-test"
    assert request.headers["openai-project"] == "proj-test"
    assert request.headers["accept"] == "text/event-stream"
    assert request.headers["user-agent"].startswith("tether/")
    assert request.json()["messages"][0] == {"role": "system", "content": "sys"}
    assert model.sdk_loaded()  # its request path loaded: listing the models costs no import


async def test_an_answer_that_is_not_a_stream_is_named_not_retried(
    server: SSEServer, model: OpenAICompatModel
) -> None:
    # A server that ignores `stream` answers plain JSON: said as such, not as a lost connection.
    server.queue(json_reply(200, {"choices": [{"message": {"content": "hi"}}]}))
    with pytest.raises(ModelError) as caught:
        await collect(model, hello())
    assert str(caught.value) == (
        f"OpenAI-compatible API: {server.url}/v1 answered with application/json, "
        "not an event stream"
    )
    assert len(server.requests) == 1


async def test_an_error_status_without_a_body_is_worded_and_retried(
    server: SSEServer, model: OpenAICompatModel
) -> None:
    server.queue(
        Reply(status=503, headers={"retry-after": "0"}, streamed=False),
        sse_reply("openai_text.sse"),
    )
    events = await collect(model, hello())
    assert isinstance(events[-1], Completed)
    assert len(server.requests) == 2
    server.queue(*[Reply(status=503, streamed=False)] * 4)
    with pytest.raises(ModelError) as caught:
        await collect(model, hello())
    assert str(caught.value) == (
        f"OpenAI-compatible API: {server.url}/v1 failed (HTTP 503: Error code: 503) "
        "(gave up after 4 attempts)"
    )


async def test_a_redirect_is_followed_as_the_sdk_followed_it(
    server: SSEServer, model: OpenAICompatModel
) -> None:
    moved = Reply(status=307, headers={"location": "/v2/chat/completions"}, streamed=False)
    server.queue(moved, sse_reply("openai_text.sse"))
    events = await collect(model, hello())
    assert isinstance(events[-1], Completed)
    first, second = server.requests
    assert (first.path, second.path) == ("/v1/chat/completions", "/v2/chat/completions")
    assert second.method == "POST" and second.json() == first.json()
    assert second.headers["authorization"] == "Bearer sk-test"  # the same host keeps the key
