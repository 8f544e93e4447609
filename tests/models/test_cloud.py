"""Azure OpenAI and Claude on Vertex through their SDK clients and a loopback server (Bedrock's
own wire is in `test_bedrock`); a cloud without its region or endpoint is an error saying which."""

from __future__ import annotations

import pytest

from tests.models.sse_server import SSEServer, sse_reply
from tests.models.support import FAST, collect
from tether.content import TextContent
from tether.errors import ModelError
from tether.models import Completed, ModelRequest, TextDelta, UserMessage
from tether.models.cloud import (
    AZURE_API_VERSION,
    AzureModel,
    VertexModel,
    azure_provider,
    vertex_provider,
)
from tether.models.factory import make_model

HI = ModelRequest("", (UserMessage((TextContent(text="hi"),)),), ())


async def test_azure_asks_the_deployment_with_its_key_and_version(server: SSEServer) -> None:
    server.queue(sse_reply("openai_text.sse"))
    model = AzureModel(azure_provider(server.url, "az-key", {}), model="prod-gpt", retry=FAST)
    try:
        events = await collect(model, HI)
    finally:
        await model.aclose()
    assert isinstance(events[-1], Completed)
    sent = server.requests[0]
    assert (
        sent.path
        == f"/openai/deployments/prod-gpt/chat/completions?api-version={AZURE_API_VERSION}"
    )
    assert sent.headers["api-key"] == "az-key"
    assert model.name == "azure:prod-gpt"


async def test_vertex_streams_claude_with_an_access_token(
    server: SSEServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLOUD_ML_REGION", "us-east5")
    monkeypatch.setenv("ANTHROPIC_VERTEX_PROJECT_ID", "my-project")
    server.queue(sse_reply("anthropic_text.sse"))
    provider = vertex_provider(server.url + "/v1", "ya29.token")
    model = VertexModel(provider, model="claude-sonnet-4-5@20250929", retry=FAST)
    try:
        events = await collect(model, HI)
    finally:
        await model.aclose()
    assert isinstance(events[0], TextDelta) and isinstance(events[-1], Completed)
    sent = server.requests[0]
    assert sent.path == (
        "/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/"
        "claude-sonnet-4-5@20250929:streamRawPredict"
    )
    assert sent.headers["authorization"] == "Bearer ya29.token"
    body = sent.json()
    assert "anthropic_version" in body and "model" not in body  # the model is in the path
    # Prompt caching as on Anthropic's own API.
    assert body["messages"][0]["content"][-1]["cache_control"] == {"type": "ephemeral"}


def test_a_cloud_without_its_place_says_what_to_set(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("AZURE_OPENAI_ENDPOINT", "AWS_REGION", "AWS_DEFAULT_REGION", "CLOUD_ML_REGION"):
        monkeypatch.delenv(name, raising=False)
    cases = {
        "azure:prod": "azure: no endpoint: set AZURE_OPENAI_ENDPOINT "
        "(https://RESOURCE.openai.azure.com) or pass --base-url",
        "bedrock": "bedrock: no AWS region: set AWS_REGION (e.g. us-east-1)",
        "vertex": "vertex: no region: set CLOUD_ML_REGION (e.g. us-east5 or global)",
    }
    for spec, message in cases.items():
        with pytest.raises(ModelError) as caught:
            make_model(spec)
        assert str(caught.value) == message
    with pytest.raises(ModelError, match="name the deployment: --model azure:DEPLOYMENT"):
        make_model("azure", base_url="https://r.openai.azure.com")
