"""Claude on Vertex AI through `anthropic`'s `AsyncAnthropicVertex`, against a loopback server
that speaks Vertex's side of the wire (see `vertex_wire`): the model in the path, Vertex's
version in the body, a bearer access token, Google's errors; and application default
credentials whose token comes from a loopback token endpoint, so nothing leaves this machine."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.models.sse_server import Reply, SSEServer, sse_reply
from tests.models.support import ASK, FAST, READ, SIGNATURE, THOUGHT, collect, pinned
from tests.models.vertex_wire import (
    ACCESS_TOKEN,
    PROJECT,
    REGION,
    TOKEN_PATH,
    VERSION,
    adc_file,
    google_error,
    model_path,
    vertex_only,
)
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
from tether.models.cloud import VERTEX_DEFAULT, VertexModel, vertex_provider
from tether.models.factory import make_model


@pytest.fixture
def gcloud(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test project and region, no other Vertex endpoint, and no proxy for loopback."""
    monkeypatch.setenv("CLOUD_ML_REGION", REGION)
    monkeypatch.setenv("ANTHROPIC_VERTEX_PROJECT_ID", PROJECT)
    monkeypatch.delenv("ANTHROPIC_VERTEX_BASE_URL", raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")


@pytest.fixture
async def claude(server: SSEServer, gcloud: None) -> AsyncIterator[VertexModel]:
    """Vertex's default Claude on the loopback server, with an access token given."""
    made = VertexModel(vertex_provider(f"{server.url}/v1", ACCESS_TOKEN), retry=FAST)
    yield made
    await made.aclose()


def serve(server: SSEServer, *replies: Reply) -> None:
    """Answer Vertex-shaped requests with the test token with `replies` in order."""
    server.answer = vertex_only(list(replies))


async def test_the_default_claude_streams_thinking_and_a_tool_call(
    server: SSEServer, claude: VertexModel
) -> None:
    serve(server, sse_reply("anthropic_thinking_tools.sse"))
    events = await collect(claude, ModelRequest("Be brief.", (ASK,), (READ,), thinking="low"))

    assert events[:-1] == [
        ThinkingDelta("The bug is in a.py; "),
        ThinkingDelta("read it first."),
        TextDelta("Reading a.py."),
    ]
    done = events[-1]
    assert isinstance(done, Completed)
    assert done.message.thinking[0] == Thinking(
        THOUGHT, SIGNATURE, source="vertex:claude-sonnet-4-6"
    )
    assert done.message.tool_calls == (ToolCall("toolu_01Think", "read", '{"path": "a.py"}'),)

    sent = server.requests[0]
    assert sent.path == model_path("claude-sonnet-4-6")
    assert sent.headers["authorization"] == f"Bearer {ACCESS_TOKEN}"
    body = sent.json()
    assert "model" not in body  # it is in the path
    assert body["anthropic_version"] == VERSION  # Vertex's, not the SDK's newest
    assert body["thinking"] == {"type": "adaptive", "display": "summarized"}
    assert body["system"][-1]["cache_control"] == {"type": "ephemeral"}


async def test_the_signed_thinking_goes_back_within_the_turn(
    server: SSEServer, claude: VertexModel
) -> None:
    serve(server, sse_reply("anthropic_thinking_tools.sse"), sse_reply("anthropic_text.sse"))
    first = await collect(claude, ModelRequest("", (ASK,), (READ,), thinking="low"))
    reply = first[-1]
    assert isinstance(reply, Completed)
    result = ToolResultMessage("toolu_01Think", "read", (TextContent(text="1: bug()"),))
    await collect(claude, ModelRequest("", (ASK, reply.message, result), (READ,), thinking="low"))

    body = server.requests[1].json()
    assert [block["type"] for block in body["messages"][1]["content"]] == [
        "thinking",
        "redacted_thinking",
        "text",
        "tool_use",
    ]
    pinned("vertex_thinking_step.json", body)


async def test_usage_with_the_cache_counts(server: SSEServer, claude: VertexModel) -> None:
    serve(server, sse_reply("anthropic_cached.sse"))
    done = (await collect(claude, ModelRequest("", (ASK,), ())))[-1]
    assert isinstance(done, Completed) and done.usage is not None
    assert (done.usage.cached_read_tokens, done.usage.cached_write_tokens) == (2048, 300)


async def test_an_exhausted_quota_is_retried_then_streams(
    server: SSEServer, claude: VertexModel
) -> None:
    quota = google_error(
        429,
        "RESOURCE_EXHAUSTED",
        "Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model",
    )
    serve(server, quota, sse_reply("anthropic_text.sse"))
    events = await collect(claude, ModelRequest("", (ASK,), ()))
    assert isinstance(events[0], TextDelta) and isinstance(events[-1], Completed)
    assert len(server.requests) == 2


async def test_retries_exhausted_name_googles_reason(
    server: SSEServer, claude: VertexModel
) -> None:
    quota = google_error(429, "RESOURCE_EXHAUSTED", "Quota exceeded for online predictions.")
    serve(server, *[quota] * 4)
    with pytest.raises(ModelError) as caught:
        await collect(claude, ModelRequest("", (ASK,), ()))
    message = str(caught.value)
    assert message.startswith("Vertex AI: ") and "Quota exceeded for online predictions." in message
    assert len(server.requests) == 4


async def test_a_malformed_chunk_is_named_and_not_retried(
    server: SSEServer, claude: VertexModel
) -> None:
    serve(server, sse_reply("anthropic_malformed.sse"))
    with pytest.raises(ModelError) as caught:
        await collect(claude, ModelRequest("", (ASK,), ()))
    message = str(caught.value)
    assert message.startswith(f"Vertex AI: {server.url}/v1 sent a malformed stream chunk")
    assert '"text":"oops"' in message
    assert len(server.requests) == 1


async def test_application_default_credentials_mint_the_token_on_loopback(
    server: SSEServer, gcloud: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(adc_file(tmp_path, server.url)))
    serve(server, sse_reply("anthropic_text.sse"), sse_reply("anthropic_text.sse"))
    model = VertexModel(
        vertex_provider(f"{server.url}/v1", None), model="claude-opus-4-6", retry=FAST
    )
    try:
        for _ in range(2):
            events = await collect(model, ModelRequest("", (ASK,), ()))
            assert isinstance(events[-1], Completed)
    finally:
        await model.aclose()
    token, first, second = server.requests
    assert token.path == TOKEN_PATH and token.method == "POST"
    assert b"grant_type=refresh_token" in token.body
    # The token is minted once and carried by every request while it is valid.
    assert [first.path, second.path] == [model_path("claude-opus-4-6")] * 2
    assert (
        first.headers["authorization"]
        == second.headers["authorization"]
        == (f"Bearer {ACCESS_TOKEN}")
    )


async def test_a_refused_token_is_named(server: SSEServer, gcloud: None) -> None:
    serve(server)
    model = VertexModel(vertex_provider(f"{server.url}/v1", "ya29.expired"), retry=FAST)
    try:
        with pytest.raises(ModelError) as caught:
            await collect(model, ModelRequest("", (ASK,), ()))
    finally:
        await model.aclose()
    message = str(caught.value)
    assert message.startswith("Vertex AI: ") and "Request had invalid credentials." in message
    assert len(server.requests) == 1


def test_the_default_and_another_model(gcloud: None) -> None:
    assert make_model("vertex").name == f"vertex:{VERTEX_DEFAULT}" == "vertex:claude-sonnet-4-6"
    assert make_model("vertex:claude-opus-4-5@20251101").name == "vertex:claude-opus-4-5@20251101"
    assert isinstance(default := make_model("vertex"), VertexModel)
    assert default.base_url == f"https://{REGION}-aiplatform.googleapis.com/v1"


def test_each_kind_of_region_has_its_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_VERTEX_BASE_URL", raising=False)
    monkeypatch.setenv("ANTHROPIC_VERTEX_PROJECT_ID", PROJECT)
    endpoints = {
        "global": "https://aiplatform.googleapis.com/v1",
        "us": "https://aiplatform.us.rep.googleapis.com/v1",
        "eu": "https://aiplatform.eu.rep.googleapis.com/v1",
        "europe-west1": "https://europe-west1-aiplatform.googleapis.com/v1",
    }
    for region, url in endpoints.items():
        monkeypatch.setenv("CLOUD_ML_REGION", region)
        assert isinstance(model := make_model("vertex"), VertexModel)
        assert model.base_url == url, region
