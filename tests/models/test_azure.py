"""Azure OpenAI through `openai`'s `AsyncAzureOpenAI`, against a loopback server that speaks an
Azure resource's side of the wire (see `azure_wire`): the deployment in the path, the API
version in the query, the key in `api-key`, content filtering in the stream, Azure's errors."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.models.azure_wire import DEPLOYMENT, KEY, azure_error, azure_only, azure_reply
from tests.models.sse_server import Reply, SSEServer
from tests.models.support import ASK, FAST, READ, THOUGHT, collect, pinned
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
from tether.models.cloud import AZURE_API_VERSION, AzureModel, azure_provider


@pytest.fixture
async def azure(server: SSEServer, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[AzureModel]:
    """A deployment on the loopback resource, with its key and the default API version."""
    monkeypatch.delenv("OPENAI_API_VERSION", raising=False)
    made = AzureModel(azure_provider(server.url, KEY, {}), model=DEPLOYMENT, retry=FAST)
    yield made
    await made.aclose()


def serve(server: SSEServer, *replies: Reply, version: str = AZURE_API_VERSION) -> None:
    """Answer requests for the test deployment with its key and `version` with `replies`."""
    server.answer = azure_only(list(replies), version=version)


async def test_the_deployment_streams_text_past_the_content_filter_chunks(
    server: SSEServer, azure: AzureModel
) -> None:
    serve(server, azure_reply("openai_text.sse"))
    events = await collect(azure, ModelRequest("", (ASK,), ()))
    assert isinstance(events[0], TextDelta) and isinstance(events[-1], Completed)
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == events[-1].message.text
    sent = server.requests[0]
    assert sent.path == (
        f"/openai/deployments/{DEPLOYMENT}/chat/completions?api-version={AZURE_API_VERSION}"
    )
    assert sent.headers["api-key"] == KEY and "authorization" not in sent.headers
    assert azure.name == f"azure:{DEPLOYMENT}"


async def test_reasoning_and_a_tool_call_stream_and_the_reasoning_goes_back(
    server: SSEServer, azure: AzureModel
) -> None:
    serve(server, azure_reply("openai_reasoning_tools.sse"), azure_reply("openai_text.sse"))
    first = await collect(azure, ModelRequest("", (ASK,), (READ,), thinking="medium"))

    assert first[:-1] == [
        ThinkingDelta("The bug is in a.py; "),
        ThinkingDelta("read it first."),
        TextDelta("Reading a.py."),
    ]
    reply = first[-1]
    assert isinstance(reply, Completed)
    # Chat completions sign nothing: the thought is kept as text, its source the deployment.
    assert reply.message.thinking == (Thinking(THOUGHT, source=f"azure:{DEPLOYMENT}"),)
    assert reply.message.tool_calls == (ToolCall("call_0_think", "read", '{"path": "a.py"}'),)
    assert reply.usage == Usage(600, 180, cached_read_tokens=512, reasoning_tokens=150)
    assert server.requests[0].json()["reasoning_effort"] == "medium"

    result = ToolResultMessage("call_0_think", "read", (TextContent(text="1: bug()"),))
    await collect(azure, ModelRequest("", (ASK, reply.message, result), (READ,), thinking="medium"))
    body = server.requests[1].json()
    assert body["messages"][1]["reasoning_content"] == THOUGHT
    pinned("azure_reasoning_step.json", body)


async def test_usage_with_the_cache_counts(server: SSEServer, azure: AzureModel) -> None:
    serve(server, azure_reply("openai_cached_usage.sse"))
    done = (await collect(azure, ModelRequest("", (ASK,), ())))[-1]
    assert isinstance(done, Completed)
    assert done.usage == Usage(input_tokens=2100, output_tokens=3, cached_read_tokens=2048)


async def test_a_rate_limit_is_retried_then_streams(server: SSEServer, azure: AzureModel) -> None:
    limited = azure_error(
        429,
        "429",
        "Requests to the ChatCompletions_Create Operation have exceeded the token rate limit "
        "of your current pricing tier.",
        **{"retry-after": "0"},
    )
    serve(server, limited, azure_reply("openai_text.sse"))
    events = await collect(azure, ModelRequest("", (ASK,), ()))
    assert isinstance(events[-1], Completed) and len(server.requests) == 2


async def test_a_malformed_chunk_is_named_and_not_retried(
    server: SSEServer, azure: AzureModel
) -> None:
    serve(server, azure_reply("openai_malformed.sse"))
    with pytest.raises(ModelError) as caught:
        await collect(azure, ModelRequest("", (ASK,), ()))
    message = str(caught.value)
    assert message.startswith(f"Azure OpenAI: {server.url} sent a malformed stream chunk")
    assert '"content":"oops"' in message
    assert len(server.requests) == 1


async def test_a_missing_deployment_is_named(server: SSEServer) -> None:
    serve(server)
    model = AzureModel(azure_provider(server.url, KEY, {}), model="no-such", retry=FAST)
    try:
        with pytest.raises(ModelError) as caught:
            await collect(model, ModelRequest("", (ASK,), ()))
    finally:
        await model.aclose()
    message = str(caught.value)
    assert message.startswith("Azure OpenAI: ")
    assert "The API deployment for this resource does not exist." in message
    assert len(server.requests) == 1


async def test_the_api_version_comes_from_the_environment(
    server: SSEServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_VERSION", "2024-10-21")
    serve(server, azure_reply("openai_text.sse"), version="2024-10-21")
    model = AzureModel(azure_provider(server.url, KEY, {}), model=DEPLOYMENT, retry=FAST)
    try:
        events = await collect(model, ModelRequest("", (ASK,), ()))
    finally:
        await model.aclose()
    assert isinstance(events[-1], Completed)
    assert server.requests[0].path.endswith("?api-version=2024-10-21")
