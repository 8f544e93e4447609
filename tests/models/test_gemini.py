"""Gemini through the real `google-genai` SDK and a loopback server speaking its SSE:
thoughts streamed apart, a thought signature kept and sent back on its call's part."""

from __future__ import annotations

import pytest

from tests.models.sse_server import SSEServer, json_reply, sse_reply
from tests.models.support import ASK, FAST, READ, collect, loopback_model, pinned
from tether.content import TextContent
from tether.errors import ModelError
from tether.models import (
    Completed,
    ModelRequest,
    TextDelta,
    Thinking,
    ThinkingDelta,
    ToolCall,
    ToolResultMessage,
    Usage,
)
from tether.models.gemini_model import GeminiModel
from tether.providers import GEMINI

SIGNATURE = "CiRnZW1pbmktdGhvdWdodC1zaWduYXR1cmUBAg=="
PATH = "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"


model = loopback_model(
    lambda server: GeminiModel(GEMINI.resolve(server.url, "g-key", environ={}), retry=FAST)
)
"""A Gemini model on the loopback server."""


async def test_thoughts_stream_apart_and_the_signature_is_kept(
    server: SSEServer, model: GeminiModel
) -> None:
    server.queue(sse_reply("gemini_thinking_tools.sse"))
    events = await collect(model, ModelRequest("Be brief.", (ASK,), (READ,), thinking="low"))

    assert events[:-1] == [
        ThinkingDelta("The bug is in a.py; "),
        ThinkingDelta("read it first."),
        TextDelta("Reading a.py."),
    ]
    done = events[-1]
    assert isinstance(done, Completed)
    source = "gemini:gemini-2.5-pro"
    assert done.message.thinking == (
        Thinking("The bug is in a.py; read it first.", source=source),
        Thinking("", signature=SIGNATURE, source=source, item_id="call:fc-1"),
    )
    assert done.message.tool_calls == (ToolCall("fc-1", "read", '{"path": "a.py"}'),)
    assert done.message.stop_reason == "tool_use"
    assert done.usage == Usage(700, 160, cached_read_tokens=512, reasoning_tokens=120)

    sent = server.requests[0]
    assert sent.path == PATH and sent.headers["x-goog-api-key"] == "g-key"
    body = sent.json()
    # As the SDK writes it (the API's JSON takes a field's proto name too).
    assert body["generationConfig"]["thinkingConfig"] == {
        "thinking_budget": 4000,
        "include_thoughts": True,
    }
    assert body["systemInstruction"]["parts"] == [{"text": "Be brief."}]
    assert body["tools"][0]["functionDeclarations"][0]["name"] == "read"


async def test_the_signature_goes_back_on_its_call(server: SSEServer, model: GeminiModel) -> None:
    server.queue(sse_reply("gemini_thinking_tools.sse"), sse_reply("gemini_text.sse"))
    first = await collect(model, ModelRequest("", (ASK,), (READ,)))
    reply = first[-1]
    assert isinstance(reply, Completed)
    result = ToolResultMessage("fc-1", "read", (TextContent(text="1: bug()"),))
    second = await collect(model, ModelRequest("", (ASK, reply.message, result), (READ,)))
    assert second[0] == TextDelta("Fixed.")

    body = server.requests[1].json()
    turn = body["contents"][1]
    assert turn["role"] == "model"
    assert turn["parts"][1] == {
        "functionCall": {"id": "fc-1", "name": "read", "args": {"path": "a.py"}},
        "thoughtSignature": SIGNATURE,
    }
    assert body["contents"][2]["parts"][0]["functionResponse"] == {
        "id": "fc-1",
        "name": "read",
        "response": {"output": "1: bug()"},
    }
    assert "thinkingConfig" not in body.get("generationConfig", {})
    pinned("gemini_step.json", body)


async def test_a_rate_limit_is_retried_and_a_bad_key_is_named(
    server: SSEServer, model: GeminiModel
) -> None:
    limited = {
        "error": {"code": 429, "message": "Resource exhausted", "status": "RESOURCE_EXHAUSTED"}
    }
    server.queue(json_reply(429, limited, {"retry-after": "0"}), sse_reply("gemini_text.sse"))
    events = await collect(model, ModelRequest("", (ASK,), ()))
    assert events[0] == TextDelta("Fixed.") and len(server.requests) == 2

    rejected = {"error": {"code": 401, "message": "API key not valid", "status": "UNAUTHENTICATED"}}
    server.queue(json_reply(401, rejected))
    with pytest.raises(ModelError) as caught:
        await collect(model, ModelRequest("", (ASK,), ()))
    assert str(caught.value).startswith("Gemini API: Authentication failed at ")
    assert "API key not valid" in str(caught.value) and "check --api-key" in str(caught.value)


async def test_a_malformed_chunk_is_named_and_what_streamed_before_it_is_kept(
    server: SSEServer, model: GeminiModel
) -> None:
    server.queue(sse_reply("gemini_malformed.sse"))
    seen: list[object] = []
    with pytest.raises(ModelError) as caught:
        async for event in model.stream(ModelRequest("", (ASK,), ())):
            seen.append(event)
    # The words before the broken chunk reached the caller, which keeps them (see history).
    assert seen == [TextDelta("Reading ")]
    message = str(caught.value)
    assert message.startswith(f"Gemini API: {server.url} sent a malformed stream chunk ")
    assert "(invalid JSON)" in message and '"text":"oops"' in message
    assert len(server.requests) == 1  # a broken stream is not asked again
