"""What each Claude generation is asked for thinking, read off the loopback server: a budget
with the interleaved-thinking beta for Claude 4 up to 4.5, adaptive thinking with an effort for
4.6 and later, a plain budget for Claude 3.7 and for names that are not Claude's."""

from __future__ import annotations

import pytest

from tests.models.sse_server import SSEServer, sse_reply
from tests.models.support import ASK, FAST, READ, collect
from tether.content import TextContent
from tether.models import (
    AssistantMessage,
    ModelRequest,
    Thinking,
    ToolCall,
    ToolResultMessage,
)
from tether.models.anthropic_model import DEFAULT_MAX_TOKENS, AnthropicModel
from tether.models.anthropic_thinking import INTERLEAVED_BETA, anthropic_thinking
from tether.models.cloud import VertexModel, vertex_provider
from tether.providers import ANTHROPIC

BUDGET = {"type": "enabled", "budget_tokens": 10_000}
ADAPTIVE = {"type": "adaptive", "display": "summarized"}


@pytest.mark.parametrize(
    ("model", "thinking", "effort", "beta"),
    [
        ("claude-opus-4-5-20251101", BUDGET, None, INTERLEAVED_BETA),
        ("claude-opus-4-1", BUDGET, None, INTERLEAVED_BETA),
        ("claude-haiku-4-5", BUDGET, None, INTERLEAVED_BETA),
        ("claude-3-7-sonnet", BUDGET, None, None),
        ("claude-opus-4-6", ADAPTIVE, "medium", None),
        ("claude-sonnet-5-5", ADAPTIVE, "medium", None),
        ("claude-mythos-5", ADAPTIVE, "medium", None),
        ("glm-4.6", BUDGET, None, None),
    ],
)
async def test_each_generation_is_asked_its_own_way(
    server: SSEServer, model: str, thinking: object, effort: str | None, beta: str | None
) -> None:
    server.queue(sse_reply("anthropic_text.sse"))
    claude = AnthropicModel(ANTHROPIC.resolve(server.url, "k", environ={}), model=model, retry=FAST)
    try:
        await collect(claude, ModelRequest("", (ASK,), (READ,), thinking="medium"))
    finally:
        await claude.aclose()
    sent = server.requests[0]
    body = sent.json()
    assert body["thinking"] == thinking
    assert body.get("output_config") == ({"effort": effort} if effort else None)
    assert sent.headers.get("anthropic-beta") == beta
    # Thinking counts toward max_tokens in every shape: the answer keeps its room beside it.
    assert body["max_tokens"] == DEFAULT_MAX_TOKENS + 10_000


async def test_no_tools_no_beta_and_off_asks_nothing(server: SSEServer) -> None:
    server.queue(sse_reply("anthropic_text.sse"), sse_reply("anthropic_text.sse"))
    provider = ANTHROPIC.resolve(server.url, "k", environ={})
    claude = AnthropicModel(provider, model="claude-opus-4-5", retry=FAST)
    try:
        await collect(claude, ModelRequest("", (ASK,), (), thinking="high"))
        await collect(claude, ModelRequest("", (ASK,), (READ,), thinking="off"))
    finally:
        await claude.aclose()
    alone, off = server.requests
    # Interleaving is thinking between tool calls: without tools there is nothing to ask.
    assert "anthropic-beta" not in alone.headers
    assert alone.json()["thinking"] == {"type": "enabled", "budget_tokens": 31_999}
    assert "anthropic-beta" not in off.headers
    assert "thinking" not in off.json() and "output_config" not in off.json()


async def test_vertex_carries_the_beta_header_too(
    server: SSEServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLOUD_ML_REGION", "us-east5")
    monkeypatch.setenv("ANTHROPIC_VERTEX_PROJECT_ID", "my-project")
    server.queue(sse_reply("anthropic_text.sse"))
    provider = vertex_provider(server.url + "/v1", "ya29.token")
    claude = VertexModel(provider, model="claude-haiku-4-5@20251001", retry=FAST)
    try:
        await collect(claude, ModelRequest("", (ASK,), (READ,), thinking="low"))
    finally:
        await claude.aclose()
    sent = server.requests[0]
    assert sent.headers["anthropic-beta"] == INTERLEAVED_BETA
    assert sent.json()["thinking"] == {"type": "enabled", "budget_tokens": 4_000}


def test_the_names_of_each_cloud_and_of_unnumbered_families() -> None:
    ids = {
        "us.anthropic.claude-opus-4-1-20250805-v1:0": INTERLEAVED_BETA,  # Bedrock's profile
        "claude-opus-4-5@20251101": INTERLEAVED_BETA,  # Vertex's
        "anthropic.claude-opus-4-6-v1": None,
    }
    for name, beta in ids.items():
        assert anthropic_thinking(name, "low", tools=True).betas == ((beta,) if beta else ())
    # A family Anthropic names without a number is of the adaptive generation.
    unnumbered = anthropic_thinking("claude-mythos-preview", "high", tools=True)
    assert unnumbered.thinking == ADAPTIVE and unnumbered.output_config == {"effort": "high"}
    assert anthropic_thinking("claude-opus-4-5", "off", tools=True).thinking is None


async def test_the_adaptive_generation_gets_its_thinking_back_even_when_off(
    server: SSEServer,
) -> None:
    server.queue(sse_reply("anthropic_text.sse"))
    provider = ANTHROPIC.resolve(server.url, "k", environ={})
    claude = AnthropicModel(provider, model="claude-opus-5", retry=FAST)
    # Opus 5 thinks unasked; a tool-use turn must then carry its signed blocks back.
    reply = AssistantMessage(
        text="Reading.",
        tool_calls=(ToolCall("toolu_1", "read", "{}"),),
        stop_reason="tool_use",
        thinking=(Thinking("mine", signature="sig", source=claude.name),),
    )
    result = ToolResultMessage("toolu_1", "read", (TextContent(text="1: bug()"),))
    try:
        await collect(claude, ModelRequest("", (ASK, reply, result), (READ,), thinking="off"))
    finally:
        await claude.aclose()
    body = server.requests[0].json()
    assert "thinking" not in body and "output_config" not in body
    assert body["messages"][1]["content"][0] == {
        "type": "thinking",
        "thinking": "mine",
        "signature": "sig",
    }
