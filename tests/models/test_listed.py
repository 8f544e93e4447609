"""`/model`'s choices: the catalog's for the host, then what the endpoint lists itself."""

from __future__ import annotations

import logging

import pytest

from tests.models.sse_server import Reply, SSEServer, json_reply
from tests.models.support import FAST
from tether.models import listing
from tether.models.anthropic_model import AnthropicModel
from tether.models.catalog import offered_models
from tether.models.listing import LIST_LIMIT
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


async def test_a_long_list_is_cut_and_a_slow_one_is_not_waited_for(
    server: SSEServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    many = [
        {"id": f"model-{n:03}", "object": "model", "created": 0, "owned_by": "me"}
        for n in range(LIST_LIMIT + 50)
    ]
    server.queue(json_reply(200, {"object": "list", "data": many}))
    provider = OPENAI.resolve(server.url + "/v1", "sk-long", environ={})
    model = OpenAICompatModel(provider, model="model-000", retry=FAST)
    try:
        offered = await offered_models(model)
    finally:
        await model.aclose()
    assert len(offered) == LIST_LIMIT and offered[-1] == f"openai:model-{LIST_LIMIT - 1:03}"

    monkeypatch.setattr(listing, "LIST_TIMEOUT", 0.2)
    server.queue(Reply(headers={"content-type": "application/json"}, hold=True))
    slow = OpenAICompatModel(
        OPENAI.resolve(server.url + "/v1", "sk-slow", environ={}), model="mine", retry=FAST
    )
    try:
        with caplog.at_level(logging.WARNING, logger="tether.models.listing"):
            assert await offered_models(slow) == ("openai:mine",)
            assert await offered_models(slow) == ("openai:mine",)  # not waited for twice
    finally:
        await slow.aclose()
    assert caplog.messages == [
        f"OpenAI-compatible API: {server.url}/v1 did not list its models within 0.2 s; "
        "offering the known models only"
    ]
    assert len(server.requests) == 2


async def test_anthropics_list_is_read_page_after_page(server: SSEServer) -> None:
    def page(ids: list[str], more: bool) -> Reply:
        data = [{"id": i, "type": "model", "display_name": i} for i in ids]
        body = {"data": data, "has_more": more, "first_id": ids[0], "last_id": ids[-1]}
        return json_reply(200, body)

    server.queue(page(["claude-a", "claude-b"], True), page(["claude-c"], False))
    model = AnthropicModel(ANTHROPIC.resolve(server.url, "sk-ant", environ={}), retry=FAST)
    try:
        assert await model.listed() == ("claude-a", "claude-b", "claude-c")
    finally:
        await model.aclose()
    assert [r.path for r in server.requests] == [
        "/v1/models?limit=1000",
        "/v1/models?limit=1000&after_id=claude-b",
    ]
    assert all(r.headers["authorization"] == "Bearer sk-ant" for r in server.requests)
