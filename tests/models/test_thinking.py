"""Thinking through both SDKs and a loopback server: what streams, what is kept, what goes back.

Each provider's case streams a reply that thinks and calls a tool, then sends the next step
of the same turn; the second request is pinned in `requests/` (golden files), so what tether
sends back (Anthropic's signed blocks, DeepSeek's `reasoning_content`) is there to read.
"""

from __future__ import annotations

from tests.models.sse_server import SSEServer, sse_reply
from tests.models.support import (
    ASK,
    FAST,
    READ,
    SIGNATURE,
    collect,
    loopback_model,
    pinned,
)
from tether.content import TextContent
from tether.models import (
    AssistantMessage,
    Completed,
    ModelRequest,
    TextDelta,
    Thinking,
    ThinkingDelta,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from tether.models.anthropic_model import DEFAULT_MAX_TOKENS, AnthropicModel
from tether.models.openai_compat import OpenAICompatModel
from tether.providers import ANTHROPIC, OPENAI

REDACTED = "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP"


claude = loopback_model(
    lambda server: AnthropicModel(
        ANTHROPIC.resolve(server.url, "sk-ant-test", environ={}), retry=FAST
    )
)
"""An Anthropic model on the loopback server."""

deepseek = loopback_model(
    lambda server: OpenAICompatModel(
        OPENAI.resolve(server.url + "/v1", "sk-test", environ={}),
        model="deepseek-reasoner",
        retry=FAST,
    )
)
"""A chat-completions model on the loopback server."""


def _next_step(reply: AssistantMessage) -> ModelRequest:
    """The turn's next request: the reply that called `read`, and the call's result."""
    result = ToolResultMessage("toolu_01Think", "read", (TextContent(text="1: bug()"),))
    return ModelRequest(system="", messages=(ASK, reply, result), tools=(READ,), thinking="high")


async def test_anthropic_thinking_streams_apart_and_keeps_its_signature(
    server: SSEServer, claude: AnthropicModel
) -> None:
    server.queue(sse_reply("anthropic_thinking_tools.sse"))
    request = ModelRequest(system="", messages=(ASK,), tools=(READ,), thinking="high")
    events = await collect(claude, request)

    assert events[:-1] == [
        ThinkingDelta("The bug is in a.py; "),
        ThinkingDelta("read it first."),
        TextDelta("Reading a.py."),
    ]
    done = events[-1]
    assert isinstance(done, Completed)
    assert done.message.thinking == (
        Thinking("The bug is in a.py; read it first.", signature=SIGNATURE, source=claude.name),
        Thinking("", redacted=REDACTED, source=claude.name),
    )
    assert done.message.tool_calls == (ToolCall("toolu_01Think", "read", '{"path": "a.py"}'),)
    sent = server.requests[0].json()
    # The default model is of the adaptive generation: `ultrathink` is its highest effort,
    # with the usual room for the answer beside the thought.
    assert sent["thinking"] == {"type": "adaptive", "display": "summarized"}
    assert sent["output_config"] == {"effort": "high"}
    assert sent["max_tokens"] == DEFAULT_MAX_TOKENS + 31_999


async def test_anthropic_sends_the_signed_blocks_back_within_the_turn(
    server: SSEServer, claude: AnthropicModel
) -> None:
    server.queue(sse_reply("anthropic_thinking_tools.sse"), sse_reply("anthropic_text.sse"))
    first = await collect(claude, ModelRequest("", (ASK,), (READ,), thinking="high"))
    reply = first[-1]
    assert isinstance(reply, Completed)
    await collect(claude, _next_step(reply.message))

    body = server.requests[1].json()
    assistant = body["messages"][1]["content"]
    # Verbatim and first, as the API requires of a tool-use turn while thinking is on.
    assert assistant[:2] == [
        {
            "type": "thinking",
            "thinking": "The bug is in a.py; read it first.",
            "signature": SIGNATURE,
        },
        {"type": "redacted_thinking", "data": REDACTED},
    ]
    pinned("anthropic_thinking_step.json", body)


async def test_anthropic_leaves_out_other_models_and_unsigned_thinking(server: SSEServer) -> None:
    server.queue(sse_reply("anthropic_text.sse"), sse_reply("anthropic_text.sse"))
    # A model of the budget generation: off, it thinks not at all (see test_anthropic_thinking
    # for the adaptive one, which may think unasked).
    provider = ANTHROPIC.resolve(server.url, "sk-ant-test", environ={})
    claude = AnthropicModel(provider, model="claude-opus-4-5", retry=FAST)
    reply = AssistantMessage(
        text="Reading.",
        tool_calls=(ToolCall("toolu_01Think", "read", "{}"),),
        stop_reason="tool_use",
        thinking=(
            Thinking("theirs", signature="sig-of-another", source="anthropic:claude-opus-5-5"),
            Thinking("cut short", source=claude.name),
            Thinking("mine", signature="sig", source=claude.name),
        ),
    )
    await collect(claude, _next_step(reply))
    off = ModelRequest("", _next_step(reply).messages, (READ,), thinking="off")
    await collect(claude, off)

    on, without = (r.json() for r in server.requests)
    assert on["messages"][1]["content"][0] == {
        "type": "thinking",
        "thinking": "mine",
        "signature": "sig",
    }
    assert [b["type"] for b in on["messages"][1]["content"]] == ["thinking", "text", "tool_use"]
    # With thinking off, no block goes back and none is asked for.
    assert [b["type"] for b in without["messages"][1]["content"]] == ["text", "tool_use"]
    assert "thinking" not in without
    assert without["max_tokens"] == DEFAULT_MAX_TOKENS
    await claude.aclose()


async def test_reasoning_content_streams_apart_and_counts_its_tokens(
    server: SSEServer, deepseek: OpenAICompatModel
) -> None:
    server.queue(sse_reply("openai_reasoning_tools.sse"))
    request = ModelRequest("", (ASK,), (READ,), thinking="medium")
    events = await collect(deepseek, request)

    assert events[:-1] == [
        ThinkingDelta("The bug is in a.py; "),
        ThinkingDelta("read it first."),
        TextDelta("Reading a.py."),
    ]
    done = events[-1]
    assert isinstance(done, Completed)
    assert done.message.thinking == (
        Thinking("The bug is in a.py; read it first.", source="openai:deepseek-reasoner"),
    )
    assert done.usage == Usage(600, 180, cached_read_tokens=512, reasoning_tokens=150)
    assert server.requests[0].json()["reasoning_effort"] == "medium"


async def test_reasoning_content_goes_back_on_tool_calling_replies_only(
    server: SSEServer, deepseek: OpenAICompatModel
) -> None:
    server.queue(sse_reply("openai_reasoning_tools.sse"), sse_reply("openai_text.sse"))
    first = await collect(deepseek, ModelRequest("", (ASK,), (READ,)))
    reply = first[-1]
    assert isinstance(reply, Completed)
    answered = AssistantMessage(
        text="Fixed.", thinking=(Thinking("done now", source=deepseek.name),)
    )
    result = ToolResultMessage("call_0_think", "read", (TextContent(text="1: bug()"),))
    again = UserMessage((TextContent(text="and the test?"),))
    request = ModelRequest("", (ASK, reply.message, result, answered, again), (READ,))
    await collect(deepseek, request)

    body = server.requests[1].json()
    called, final = body["messages"][1], body["messages"][3]
    assert called["reasoning_content"] == "The bug is in a.py; read it first."
    assert "reasoning_content" not in final
    # `off` asks for no effort: the model reasons as it always does.
    assert "reasoning_effort" not in body
    pinned("openai_reasoning_step.json", body)


async def test_the_reasoning_field_of_other_servers_is_read(
    server: SSEServer, deepseek: OpenAICompatModel
) -> None:
    server.queue(sse_reply("openai_reasoning_field.sse"))
    events = await collect(deepseek, ModelRequest("", (ASK,), ()))

    assert events[:-1] == [
        ThinkingDelta("Two plus two "),
        ThinkingDelta("is four."),
        TextDelta("4"),
    ]
    done = events[-1]
    assert isinstance(done, Completed)
    assert done.message.text == "4"
    assert [part.text for part in done.message.thinking] == ["Two plus two is four."]
