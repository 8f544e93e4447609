"""`/model`'s choices: the catalog's for the host, then what the endpoint lists itself."""

from __future__ import annotations

from tests.models.sse_server import SSEServer, json_reply
from tests.models.support import FAST
from tether.models.anthropic_model import AnthropicModel
from tether.models.catalog import offered_models
from tether.models.openai_compat import OpenAICompatModel
from tether.providers import ANTHROPIC, OPENAI


async def test_the_endpoints_own_models_follow_the_known_ones(server: SSEServer) -> None:
    listing = {
        "object": "list",
        "data": [
            {"id": "qwen3-coder", "object": "model", "created": 0, "owned_by": "me"},
            {"id": "llama-4", "object": "model", "created": 0, "owned_by": "me"},
        ],
    }
    server.queue(json_reply(200, listing))
    provider = OPENAI.resolve(server.url + "/v1", "sk-test", environ={})
    model = OpenAICompatModel(provider, model="llama-4", retry=FAST)
    try:
        offered = await offered_models(model)
        again = await offered_models(model)
    finally:
        await model.aclose()
    assert offered == ("openai:llama-4", "openai:qwen3-coder")
    assert again == offered and len(server.requests) == 1  # asked once
    assert (server.requests[0].method, server.requests[0].path) == ("GET", "/v1/models")


async def test_an_endpoint_without_a_list_leaves_the_known_ones(server: SSEServer) -> None:
    server.queue(json_reply(404, {"error": {"type": "not_found_error", "message": "no"}}))
    model = AnthropicModel(ANTHROPIC.resolve(server.url, "sk-ant", environ={}), retry=FAST)
    try:
        assert await offered_models(model) == ("anthropic:claude-sonnet-5-5",)
    finally:
        await model.aclose()
