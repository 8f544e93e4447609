"""Claude on Amazon Bedrock through `anthropic`'s Bedrock client and botocore, against a
loopback server that speaks Bedrock's binary event stream and checks every request's SigV4
signature against fixed test credentials (see `bedrock_wire`)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from tests.models.bedrock_wire import (
    ACCESS_KEY,
    REGION,
    bedrock_error,
    chunk,
    exception,
    signed_only,
    stream_reply,
    transcript_reply,
)
from tests.models.sse_server import Reply, SSEServer
from tests.models.support import ASK, FAST, READ, SIGNATURE, collect, pinned
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
)
from tether.models.anthropic_thinking import INTERLEAVED_BETA
from tether.models.cloud import BedrockMessagesModel, BedrockModel, bedrock_model, bedrock_provider

MODEL = "eu.anthropic.claude-opus-4-5-20251101-v1:0"


@pytest.fixture
async def bedrock(server: SSEServer, aws: None) -> AsyncIterator[BedrockModel]:
    """Claude on the loopback Bedrock, signing with the test credentials."""
    made = BedrockModel(bedrock_provider(server.url, None), model=MODEL, retry=FAST)
    yield made
    await made.aclose()


def serve(server: SSEServer, *replies: Reply) -> None:
    """Answer well-signed requests with `replies` in order (a 403 to any other)."""
    server.answer = signed_only(REGION, list(replies))


async def test_a_signed_request_streams_thinking_and_a_tool_call(
    server: SSEServer, bedrock: BedrockModel
) -> None:
    serve(server, transcript_reply("anthropic_thinking_tools.sse"))
    request = ModelRequest("Be brief.", (ASK,), (READ,), thinking="low")
    events = await collect(bedrock, request)

    assert events[:-1] == [
        ThinkingDelta("The bug is in a.py; "),
        ThinkingDelta("read it first."),
        TextDelta("Reading a.py."),
    ]
    done = events[-1]
    assert isinstance(done, Completed)
    assert done.message.thinking[0] == Thinking(
        "The bug is in a.py; read it first.",
        signature=SIGNATURE,
        source=f"bedrock:{MODEL}",
    )
    assert done.message.tool_calls == (ToolCall("toolu_01Think", "read", '{"path": "a.py"}'),)

    sent = server.requests[0]
    assert sent.path == f"/model/{MODEL}/invoke-with-response-stream"
    assert sent.headers["authorization"].startswith(f"AWS4-HMAC-SHA256 Credential={ACCESS_KEY}/")
    body = sent.json()
    assert "model" not in body  # it is in the path
    assert body["anthropic_version"] == "bedrock-2023-05-31"  # InvokeModel's, not the SDK's
    # The interleaved-thinking beta travels in the body on Bedrock.
    assert body["anthropic_beta"] == [INTERLEAVED_BETA]
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 4_000}
    assert body["system"][-1]["cache_control"] == {"type": "ephemeral"}


async def test_the_signed_thinking_goes_back_within_the_turn(
    server: SSEServer, bedrock: BedrockModel
) -> None:
    serve(
        server,
        transcript_reply("anthropic_thinking_tools.sse"),
        transcript_reply("anthropic_text.sse"),
    )
    first = await collect(bedrock, ModelRequest("", (ASK,), (READ,), thinking="low"))
    reply = first[-1]
    assert isinstance(reply, Completed)
    result = ToolResultMessage("toolu_01Think", "read", (TextContent(text="1: bug()"),))
    step = ModelRequest("", (ASK, reply.message, result), (READ,), thinking="low")
    await collect(bedrock, step)

    sent = server.requests[1]
    assert sent.path == f"/model/{MODEL}/invoke-with-response-stream"
    body = sent.json()
    assert [block["type"] for block in body["messages"][1]["content"]] == [
        "thinking",
        "redacted_thinking",
        "text",
        "tool_use",
    ]
    pinned("bedrock_thinking_step.json", body)


async def test_usage_with_the_cache_counts(server: SSEServer, bedrock: BedrockModel) -> None:
    serve(server, transcript_reply("anthropic_cached.sse"))
    events = await collect(bedrock, ModelRequest("", (ASK,), ()))
    done = events[-1]
    assert isinstance(done, Completed)
    assert done.usage is not None
    assert (done.usage.cached_read_tokens, done.usage.cached_write_tokens) == (2048, 300)


async def test_throttling_is_retried_then_streams(server: SSEServer, bedrock: BedrockModel) -> None:
    throttled = bedrock_error(
        429, "ThrottlingException", "Too many requests, please wait before trying again."
    )
    serve(server, throttled, transcript_reply("anthropic_text.sse"))
    events = await collect(bedrock, ModelRequest("", (ASK,), ()))
    assert isinstance(events[0], TextDelta) and isinstance(events[-1], Completed)
    assert len(server.requests) == 2


async def test_a_throttled_stream_before_any_word_is_retried(
    server: SSEServer, bedrock: BedrockModel
) -> None:
    busy = stream_reply(exception("throttlingException", "Too many tokens, please wait."))
    serve(server, busy, transcript_reply("anthropic_text.sse"))
    events = await collect(bedrock, ModelRequest("", (ASK,), ()))
    assert isinstance(events[-1], Completed) and len(server.requests) == 2


async def test_an_error_inside_the_stream_is_named_and_the_words_before_it_kept(
    server: SSEServer, bedrock: BedrockModel
) -> None:
    started = transcript_reply("anthropic_text.sse", cut_after=3)
    failing = exception("modelStreamErrorException", "The model stream failed.")
    serve(server, stream_reply(*started.chunks, failing))
    seen: list[object] = []
    with pytest.raises(ModelError) as caught:
        async for event in bedrock.stream(ModelRequest("", (ASK,), ())):
            seen.append(event)
    assert seen and all(isinstance(event, TextDelta) for event in seen)
    assert str(caught.value) == (
        f"Amazon Bedrock: the stream from {server.url} failed: The model stream failed."
    )
    assert len(server.requests) == 1  # words were streamed: never asked again


async def test_a_malformed_chunk_is_named(server: SSEServer, bedrock: BedrockModel) -> None:
    started = transcript_reply("anthropic_text.sse", cut_after=2)
    broken = chunk(b'{"type":"content_block_delta","index":0,"delta":{"text":"oops"')
    serve(server, stream_reply(*started.chunks, broken))
    with pytest.raises(ModelError) as caught:
        await collect(bedrock, ModelRequest("", (ASK,), ()))
    message = str(caught.value)
    assert message.startswith(f"Amazon Bedrock: {server.url} sent a malformed stream chunk")
    assert '"text":"oops"' in message
    assert len(server.requests) == 1


async def test_a_corrupt_frame_is_named(server: SSEServer, bedrock: BedrockModel) -> None:
    good = transcript_reply("anthropic_text.sse", cut_after=1).chunks[0]
    corrupt = good[:-1] + bytes([good[-1] ^ 0xFF])  # the message's CRC no longer matches
    serve(server, stream_reply(corrupt))
    with pytest.raises(ModelError) as caught:
        await collect(bedrock, ModelRequest("", (ASK,), ()))
    assert str(caught.value).startswith(f"Amazon Bedrock: {server.url} sent a corrupt event stream")


async def test_a_signature_the_server_refuses_is_named(
    server: SSEServer, bedrock: BedrockModel
) -> None:
    # The server knows another secret for this key, as AWS does for a rotated one.
    server.answer = signed_only(REGION, [], secret="the-rotated-secret")
    with pytest.raises(ModelError) as caught:
        await collect(bedrock, ModelRequest("", (ASK,), ()))
    assert str(caught.value) == (
        f"Amazon Bedrock: Access denied at {server.url} (HTTP 403: the signature does not match)"
    )
    assert len(server.requests) == 1


async def test_no_credentials_names_every_way_to_give_them(
    server: SSEServer, aws: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("AWS_ACCESS_KEY_ID")
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY")
    # A region no other test signs for: the SDK keeps one AWS session per region.
    monkeypatch.setenv("AWS_REGION", "ap-south-2")
    model = BedrockModel(bedrock_provider(server.url, None), model=MODEL, retry=FAST)
    try:
        with pytest.raises(ModelError) as caught:
            await collect(model, ModelRequest("", (ASK,), ()))
    finally:
        await model.aclose()
    assert str(caught.value) == (
        "Amazon Bedrock: no AWS credentials found: set AWS_BEARER_TOKEN_BEDROCK (a Bedrock API "
        "key), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE "
        "(`aws configure`, `aws sso login`)"
    )
    assert server.requests == []


async def test_a_bedrock_api_key_is_sent_as_a_bearer_token(server: SSEServer, aws: None) -> None:
    server.queue(transcript_reply("anthropic_text.sse"))
    model = BedrockModel(bedrock_provider(server.url, "bedrock-api-key"), model=MODEL, retry=FAST)
    try:
        events = await collect(model, ModelRequest("", (ASK,), ()))
    finally:
        await model.aclose()
    assert isinstance(events[-1], Completed)
    assert server.requests[0].headers["authorization"] == "Bearer bedrock-api-key"
    assert json.loads(server.requests[0].body)["anthropic_version"] == "bedrock-2023-05-31"


async def test_the_default_is_sonnet_4_6_on_invoke_model_thinking_adaptively(
    server: SSEServer, aws: None
) -> None:
    serve(server, transcript_reply("anthropic_thinking_tools.sse"))
    model = bedrock_model(server.url, None, retry=FAST)
    try:
        events = await collect(model, ModelRequest("", (ASK,), (READ,), thinking="medium"))
    finally:
        await model.aclose()
    assert isinstance(model, BedrockModel) and not isinstance(model, BedrockMessagesModel)
    assert isinstance(events[-1], Completed)
    sent = server.requests[0]
    assert sent.path == "/model/global.anthropic.claude-sonnet-4-6/invoke-with-response-stream"
    body = sent.json()
    assert body["anthropic_version"] == "bedrock-2023-05-31"
    # Sonnet 4.6 thinks adaptively: an effort, no budget, no interleaved-thinking beta.
    assert (body["thinking"], body["output_config"]) == (
        {"type": "adaptive", "display": "summarized"},
        {"effort": "medium"},
    )
    assert "anthropic_beta" not in body
