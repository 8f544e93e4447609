"""`aclose` closes a model's connection pool: the loopback server sees every connection go,
closing twice is closing once, and a later request opens a new pool (a surface that carries
its model to its next session, or to its next event loop, goes on with it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.models.sse_server import SSEServer, sse_reply
from tests.models.support import FAST, collect
from tests.models.wires import WIRES, Wire
from tests.polling import eventually
from tether.content import TextContent
from tether.models import ModelRequest, UserMessage
from tether.models.base import Completed
from tether.models.gemini_model import GeminiModel
from tether.models.responses_model import ResponsesModel
from tether.models.script import ScriptModel
from tether.models.streaming import StreamingModel
from tether.providers import GEMINI, OPENAI_RESPONSES

HELLO = ModelRequest(system="", messages=(UserMessage((TextContent(text="hi"),)),), tools=())


@pytest.mark.parametrize("wire", WIRES, ids=str)
async def test_aclose_closes_the_pool_once_and_a_request_opens_another(
    server: SSEServer, wire: Wire
) -> None:
    model = wire.make(wire.url(server), model="test-model", api_key="sk-test")
    server.answer = lambda _received: wire.sse("text")
    assert isinstance((await collect(model, HELLO))[-1], Completed)
    await eventually(lambda: server.open_connections == 1, "the connection kept alive")

    await model.aclose()
    await eventually(lambda: server.open_connections == 0, "the pool closed")
    await model.aclose()  # twice is once

    assert isinstance((await collect(model, HELLO))[-1], Completed)
    assert len(server.requests) == 2
    await eventually(lambda: server.open_connections == 1, "a new pool's connection")
    await model.aclose()
    await eventually(lambda: server.open_connections == 0, "the new pool closed")


@pytest.mark.parametrize("wire", WIRES, ids=str)
async def test_one_kept_alive_connection_serves_request_after_request(
    server: SSEServer, wire: Wire
) -> None:
    # Chat completions end their stream with `[DONE]` before the body ends: the body is
    # read to its end, so the connection is kept, not hung up and opened again.
    model = wire.make(wire.url(server), model="test-model", api_key="sk-test")
    server.answer = lambda _received: wire.sse("text")
    for _ in range(3):
        assert isinstance((await collect(model, HELLO))[-1], Completed)
    assert len(server.requests) == 3
    assert server.accepted == 1
    await model.aclose()


async def test_a_script_has_nothing_to_close() -> None:
    model = ScriptModel.from_json('{"turns": [{"text": "hi"}]}')
    await model.aclose()
    await model.aclose()
    assert isinstance((await collect(model, HELLO))[-1], Completed)


def _gemini(server: SSEServer) -> StreamingModel[Any, Any]:
    return GeminiModel(GEMINI.resolve(server.url, "g-key", environ={}), retry=FAST)


def _responses(server: SSEServer) -> StreamingModel[Any, Any]:
    provider = OPENAI_RESPONSES.resolve(server.url + "/v1", "sk-test", environ={})
    return ResponsesModel(provider, model="gpt-5.5", retry=FAST)


@pytest.mark.parametrize(
    ("make", "transcript"),
    [(_gemini, "gemini_text.sse"), (_responses, "openai-responses_text.sse")],
    ids=["gemini", "openai-responses"],
)
async def test_the_sdks_pools_close_too(
    server: SSEServer, make: Callable[[SSEServer], StreamingModel[Any, Any]], transcript: str
) -> None:
    model = make(server)
    server.answer = lambda _received: sse_reply(transcript)
    assert isinstance((await collect(model, HELLO))[-1], Completed)
    await eventually(lambda: server.open_connections == 1, "the connection kept alive")
    await model.aclose()
    await eventually(lambda: server.open_connections == 0, "the pool closed")
    await model.aclose()
