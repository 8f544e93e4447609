"""Claude 4.7 and later on Amazon Bedrock's Messages-API endpoint (`bedrock-mantle`) through
`anthropic`'s `AsyncAnthropicBedrockMantle`, against a loopback server that answers only
requests signed with SigV4 for `bedrock-mantle` with the fixed test credentials, shaped as that
endpoint takes them (see `bedrock_wire.messages_signed_only`)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.models.bedrock_wire import (
    ACCESS_KEY,
    MESSAGES_PATH,
    REGION,
    messages_error,
    messages_signed_only,
)
from tests.models.sse_server import Reply, SSEServer, sse_reply
from tests.models.support import ASK, FAST, READ, SIGNATURE, THOUGHT, collect, pinned
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
from tether.models.cloud import BedrockMessagesModel, BedrockModel, bedrock_model
from tether.models.factory import make_model
from tether.sandbox.environment import is_secret_name

MODEL = "us.anthropic.claude-opus-4-7"


@pytest.fixture
async def claude(server: SSEServer, aws: None) -> AsyncIterator[BedrockModel]:
    """Claude Opus 4.7 on the loopback Messages-API endpoint, signing with the test keys."""
    made = bedrock_model(f"{server.url}/anthropic", None, model=MODEL, retry=FAST)
    yield made
    await made.aclose()


def serve(server: SSEServer, *replies: Reply) -> None:
    """Answer well-signed, well-shaped requests with `replies` in order (an error otherwise)."""
    server.answer = messages_signed_only(REGION, list(replies))


async def test_claude_4_7_streams_thinking_and_a_tool_call_from_the_messages_api(
    server: SSEServer, claude: BedrockModel
) -> None:
    assert isinstance(claude, BedrockMessagesModel)
    serve(server, sse_reply("anthropic_thinking_tools.sse"))
    events = await collect(claude, ModelRequest("Be brief.", (ASK,), (READ,), thinking="low"))

    assert events[:-1] == [
        ThinkingDelta("The bug is in a.py; "),
        ThinkingDelta("read it first."),
        TextDelta("Reading a.py."),
    ]
    done = events[-1]
    assert isinstance(done, Completed)
    assert done.message.thinking[0] == Thinking(THOUGHT, SIGNATURE, source=f"bedrock:{MODEL}")
    assert done.message.tool_calls == (ToolCall("toolu_01Think", "read", '{"path": "a.py"}'),)

    sent = server.requests[0]
    assert sent.path == MESSAGES_PATH
    assert sent.headers["authorization"].startswith(f"AWS4-HMAC-SHA256 Credential={ACCESS_KEY}/")
    assert "/bedrock-mantle/aws4_request" in sent.headers["authorization"]
    body = sent.json()
    assert body["model"] == MODEL  # in the body, as on Anthropic's API
    assert "anthropic_version" not in body  # the version is the header
    # Claude 4.7 thinks adaptively: an effort, no budget, no beta.
    assert body["thinking"] == {"type": "adaptive", "display": "summarized"}
    assert body["output_config"] == {"effort": "low"}
    assert "anthropic_beta" not in body and "anthropic-beta" not in sent.headers


async def test_the_signed_thinking_goes_back_within_the_turn(
    server: SSEServer, claude: BedrockModel
) -> None:
    serve(server, sse_reply("anthropic_thinking_tools.sse"), sse_reply("anthropic_text.sse"))
    first = await collect(claude, ModelRequest("", (ASK,), (READ,), thinking="low"))
    reply = first[-1]
    assert isinstance(reply, Completed)
    result = ToolResultMessage("toolu_01Think", "read", (TextContent(text="1: bug()"),))
    await collect(claude, ModelRequest("", (ASK, reply.message, result), (READ,), thinking="low"))

    body = server.requests[1].json()
    thought = body["messages"][1]["content"][0]
    assert (thought["type"], thought["signature"]) == ("thinking", SIGNATURE)
    pinned("bedrock_messages_thinking_step.json", body)


async def test_usage_with_the_cache_counts(server: SSEServer, claude: BedrockModel) -> None:
    serve(server, sse_reply("anthropic_cached.sse"))
    done = (await collect(claude, ModelRequest("", (ASK,), ())))[-1]
    assert isinstance(done, Completed) and done.usage is not None
    assert (done.usage.cached_read_tokens, done.usage.cached_write_tokens) == (2048, 300)


async def test_a_429_is_retried_then_streams(server: SSEServer, claude: BedrockModel) -> None:
    busy = messages_error(429, "rate_limit_error", "Too many requests.", **{"retry-after": "0"})
    serve(server, busy, sse_reply("anthropic_text.sse"))
    events = await collect(claude, ModelRequest("", (ASK,), ()))
    assert isinstance(events[0], TextDelta) and isinstance(events[-1], Completed)
    assert len(server.requests) == 2


async def test_a_malformed_chunk_is_named_and_not_retried(
    server: SSEServer, claude: BedrockModel
) -> None:
    serve(server, sse_reply("anthropic_malformed.sse"))
    with pytest.raises(ModelError) as caught:
        await collect(claude, ModelRequest("", (ASK,), ()))
    message = str(caught.value)
    assert message.startswith(f"Amazon Bedrock: {server.url}/anthropic sent a malformed stream")
    assert '"text":"oops"' in message
    assert len(server.requests) == 1


async def test_a_signature_for_another_service_is_refused_by_name(
    server: SSEServer, claude: BedrockModel
) -> None:
    # The server knows another secret for this key, as AWS does for a rotated one.
    server.answer = messages_signed_only(REGION, [], secret="the-rotated-secret")
    with pytest.raises(ModelError) as caught:
        await collect(claude, ModelRequest("", (ASK,), ()))
    assert "the signature does not match" in str(caught.value)
    assert len(server.requests) == 1


async def test_a_bedrock_api_key_is_sent_as_a_bearer_token(server: SSEServer, aws: None) -> None:
    server.queue(sse_reply("anthropic_text.sse"))
    model = bedrock_model(f"{server.url}/anthropic", "bedrock-api-key", model=MODEL, retry=FAST)
    try:
        events = await collect(model, ModelRequest("", (ASK,), ()))
    finally:
        await model.aclose()
    assert isinstance(events[-1], Completed)
    sent = server.requests[0]
    assert sent.headers["authorization"] == "Bearer bedrock-api-key"
    assert sent.path == MESSAGES_PATH and "anthropic-version" in sent.headers


def test_the_model_chooses_the_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ANTHROPIC_BEDROCK_BASE_URL", "ANTHROPIC_BEDROCK_MANTLE_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_REGION", "us-west-2")
    messages = "https://bedrock-mantle.us-west-2.api.aws/anthropic"
    invoke = "https://bedrock-runtime.us-west-2.amazonaws.com"
    cases = {
        "bedrock:us.anthropic.claude-opus-4-7": messages,
        "bedrock:anthropic.claude-opus-4-8": messages,
        "bedrock:global.anthropic.claude-sonnet-5-5": messages,
        "bedrock:anthropic.claude-mythos-preview": messages,
        "bedrock:anthropic.claude-opus-4-6-v1": invoke,
        "bedrock:eu.anthropic.claude-sonnet-4-5-20250929-v1:0": invoke,
        "bedrock": invoke,  # the default, Sonnet 4.6
        "bedrock:meta.llama3-70b-instruct-v1:0": invoke,  # not Claude: InvokeModel's
    }
    for spec, url in cases.items():
        model = make_model(spec)
        assert isinstance(model, BedrockModel)
        assert (model.base_url, isinstance(model, BedrockMessagesModel)) == (
            url,
            url == messages,
        ), spec
    assert make_model("bedrock").name == "bedrock:global.anthropic.claude-sonnet-4-6"
    # Bedrock's own endpoint named with --base-url says which, whatever the model.
    for url in (invoke, messages):
        chosen = make_model(f"bedrock:{MODEL}", base_url=url)
        assert isinstance(chosen, BedrockModel), url
        assert (chosen.base_url, isinstance(chosen, BedrockMessagesModel)) == (url, url == messages)
    # Each endpoint has its own address variable, as in the SDK; an address may hold a
    # password, so neither reaches a sandboxed command.
    assert is_secret_name("ANTHROPIC_BEDROCK_MANTLE_BASE_URL")
    monkeypatch.setenv("ANTHROPIC_BEDROCK_MANTLE_BASE_URL", "https://proxy.example/anthropic")
    urls = [make_model(spec) for spec in (f"bedrock:{MODEL}", "bedrock")]
    assert [model.base_url for model in urls if isinstance(model, BedrockModel)] == [
        "https://proxy.example/anthropic",
        invoke,
    ]


async def test_no_credentials_names_every_way_to_give_them(
    server: SSEServer, aws: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("AWS_ACCESS_KEY_ID")
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY")
    # A region no other test signs for: the SDK keeps one AWS session per region.
    monkeypatch.setenv("AWS_REGION", "ap-southeast-5")
    model = bedrock_model(f"{server.url}/anthropic", None, model=MODEL, retry=FAST)
    try:
        with pytest.raises(ModelError) as caught:
            await collect(model, ModelRequest("", (ASK,), ()))
    finally:
        await model.aclose()
    assert str(caught.value).startswith(
        "Amazon Bedrock: no AWS credentials found: set AWS_BEARER_TOKEN_BEDROCK"
    )
    assert server.requests == []
