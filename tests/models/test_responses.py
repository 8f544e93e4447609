"""OpenAI's Responses API through the real `openai` SDK and a loopback server speaking it:
reasoning summaries streamed apart, reasoning items sent back verbatim within the turn."""

from __future__ import annotations

import pytest

from tests.models.sse_server import Reply, SSEServer, json_reply, sse_reply
from tests.models.support import ASK, FAST, READ, THOUGHT, collect, loopback_model, pinned
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
from tether.models.factory import make_model
from tether.models.responses_model import ResponsesModel
from tether.providers import OPENAI_RESPONSES

ENCRYPTED = "gAAAAABpENCRYPTEDreasoning=="


model = loopback_model(
    lambda server: ResponsesModel(
        OPENAI_RESPONSES.resolve(server.url + "/v1", "sk-test", environ={}),
        model="gpt-5.5",
        retry=FAST,
    )
)
"""A Responses model on the loopback server."""


async def test_reasoning_streams_apart_and_its_item_is_kept(
    server: SSEServer, model: ResponsesModel
) -> None:
    server.queue(sse_reply("openai-responses_thinking_tools.sse"))
    request = ModelRequest("Be brief.", (ASK,), (READ,), thinking="medium")
    events = await collect(model, request)

    assert events[:-1] == [
        ThinkingDelta("The bug is in a.py; "),
        ThinkingDelta("read it first."),
        TextDelta("Reading a.py."),
    ]
    done = events[-1]
    assert isinstance(done, Completed)
    assert done.message.thinking == (
        Thinking(THOUGHT, signature=ENCRYPTED, source="openai-responses:gpt-5.5", item_id="rs_01"),
    )
    assert done.message.tool_calls == (ToolCall("call_think", "read", '{"path": "a.py"}'),)
    assert done.message.stop_reason == "tool_use"
    assert done.usage == Usage(900, 210, cached_read_tokens=768, reasoning_tokens=160)

    sent = server.requests[0]
    assert sent.path == "/v1/responses"
    body = sent.json()
    assert (body["store"], body["include"], body["instructions"]) == (
        False,
        ["reasoning.encrypted_content"],
        "Be brief.",
    )
    assert body["reasoning"] == {"effort": "medium", "summary": "auto"}
    assert body["tools"][0]["type"] == "function" and body["tools"][0]["name"] == "read"


async def test_the_reasoning_item_goes_back_before_its_call(
    server: SSEServer, model: ResponsesModel
) -> None:
    server.queue(
        sse_reply("openai-responses_thinking_tools.sse"), sse_reply("openai-responses_text.sse")
    )
    first = await collect(model, ModelRequest("", (ASK,), (READ,)))
    reply = first[-1]
    assert isinstance(reply, Completed)
    result = ToolResultMessage("call_think", "read", (TextContent(text="1: bug()"),))
    second = await collect(model, ModelRequest("", (ASK, reply.message, result), (READ,)))
    assert second[0] == TextDelta("Fixed.")

    body = server.requests[1].json()
    items = body["input"]
    assert [item.get("type", item.get("role")) for item in items] == [
        "user",
        "reasoning",
        "assistant",
        "function_call",
        "function_call_output",
    ]
    assert items[1] == {
        "type": "reasoning",
        "id": "rs_01",
        "summary": [{"type": "summary_text", "text": THOUGHT}],
        "encrypted_content": ENCRYPTED,
    }
    assert "reasoning" not in body  # `off`: no effort asked
    pinned("openai_responses_step.json", body)


async def test_a_rate_limit_is_retried_and_a_malformed_event_is_named(
    server: SSEServer, model: ResponsesModel
) -> None:
    limited = json_reply(429, {"error": {"message": "slow down"}}, {"retry-after-ms": "1"})
    server.queue(limited, sse_reply("openai-responses_text.sse"))
    events = await collect(model, ModelRequest("", (ASK,), ()))
    assert events[0] == TextDelta("Fixed.") and len(server.requests) == 2

    broken = Reply(
        headers={"content-type": "text/event-stream"},
        chunks=(b"event: response.created\ndata: {not json\n\n",),
    )
    server.queue(broken)
    with pytest.raises(ModelError) as caught:
        await collect(model, ModelRequest("", (ASK,), ()))
    assert str(caught.value).startswith("OpenAI Responses API: ")
    assert "malformed stream chunk (invalid JSON)" in str(caught.value)


def test_the_spec_names_the_api_and_openais_endpoint() -> None:
    made = make_model("openai-responses:gpt-5.5-mini", api_key="sk-x")
    assert isinstance(made, ResponsesModel)
    assert (made.name, made.base_url) == (
        "openai-responses:gpt-5.5-mini",
        "https://api.openai.com/v1",
    )
