"""What only Anthropic's messages API does, through the real `anthropic` SDK and a loopback server.

The cases both providers share are in `test_streaming.py`.
"""

from __future__ import annotations

from tests.models.sse_server import SSEServer, sse_reply
from tests.models.support import FAST, PIXEL, READ, collect, hello, loopback_model
from tether.content import ImageContent, TextContent
from tether.models import (
    AssistantMessage,
    Completed,
    ModelRequest,
    TextDelta,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from tether.models.anthropic_model import ANTHROPIC_VERSION, DEFAULT_MODEL, AnthropicModel
from tether.providers import ANTHROPIC

EPHEMERAL = {"type": "ephemeral"}


model = loopback_model(
    lambda server: AnthropicModel(
        ANTHROPIC.resolve(server.url, "sk-ant-test", environ={}), retry=FAST
    )
)
"""A model pointed at the loopback server with a key and fast retries."""


async def test_full_turn_with_text_and_two_parallel_tool_calls(
    server: SSEServer, model: AnthropicModel
) -> None:
    server.queue(sse_reply("anthropic_text_and_tools.sse"))
    history = (
        UserMessage(
            (TextContent(text="Look at these"), ImageContent(data=PIXEL, mime_type="image/png"))
        ),
        AssistantMessage(
            text="Reading.",
            tool_calls=(
                ToolCall(id="toolu_x", name="read", arguments='{"path": "c.png"}'),
                ToolCall(id="toolu_y", name="read", arguments='{"path": '),
            ),
            stop_reason="tool_use",
        ),
        ToolResultMessage(
            tool_call_id="toolu_x",
            name="read",
            content=(
                TextContent(text="c.png, 1x1"),
                ImageContent(data=PIXEL, mime_type="image/png"),
            ),
        ),
        ToolResultMessage(
            tool_call_id="toolu_y",
            name="read",
            content=(TextContent(text="arguments are not JSON"),),
            is_error=True,
        ),
        UserMessage((TextContent(text="now read a.py and b.py"),)),
    )
    request = ModelRequest(system="Be brief.", messages=history, tools=(READ,))
    events = await collect(model, request)

    assert events[:-1] == [TextDelta("I'll read"), TextDelta(" both files.")]
    assert events[-1] == Completed(
        AssistantMessage(
            text="I'll read both files.",
            tool_calls=(
                ToolCall(
                    id="toolu_01A09q90qw90lq917835lq9", name="read", arguments='{"path": "a.py"}'
                ),
                ToolCall(
                    id="toolu_01B7ydRBAW3Vx7b5Ga8pkS5J",
                    name="read",
                    arguments='{"path": "b.py", "offset": 10}',
                ),
            ),
            stop_reason="tool_use",
        ),
        usage=Usage(input_tokens=472, output_tokens=89),
    )
    [sent] = server.requests
    assert (sent.method, sent.path) == ("POST", "/v1/messages")
    # As the SDK of this release sends them: the key as a bearer token, and its version.
    assert sent.headers["authorization"] == "Bearer sk-ant-test"
    assert sent.headers["anthropic-version"] == ANTHROPIC_VERSION
    # Sent over httpx, not through the SDK: its request path is what loaded.
    assert sent.headers["user-agent"].startswith("tether/")
    assert sent.headers["accept"] == "text/event-stream"
    assert model.sdk_loaded()
    image = {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": PIXEL},
    }
    assert sent.json() == {
        "model": DEFAULT_MODEL,
        "max_tokens": 8192,
        "stream": True,
        # Cache breakpoints: the system prompt, the last tool, and the last block of each of
        # the last two user turns.
        "system": [{"type": "text", "text": "Be brief.", "cache_control": EPHEMERAL}],
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Look at these"},
                    image | {"cache_control": EPHEMERAL},
                ],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Reading."},
                    {
                        "type": "tool_use",
                        "id": "toolu_x",
                        "name": "read",
                        "input": {"path": "c.png"},
                    },
                    {"type": "tool_use", "id": "toolu_y", "name": "read", "input": {}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_x",
                        "content": [{"type": "text", "text": "c.png, 1x1"}, image],
                    },
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_y",
                        "content": [{"type": "text", "text": "arguments are not JSON"}],
                        "is_error": True,
                    },
                    {
                        "type": "text",
                        "text": "now read a.py and b.py",
                        "cache_control": EPHEMERAL,
                    },
                ],
            },
        ],
        "tools": [
            {
                "name": "read",
                "description": "Read a file.",
                "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}},
                "cache_control": EPHEMERAL,
            }
        ],
    }


async def test_tool_call_without_input_gets_empty_object(
    server: SSEServer, model: AnthropicModel
) -> None:
    server.queue(sse_reply("anthropic_tool_without_input.sse"))
    events = await collect(model, hello())
    assert events == [
        Completed(
            AssistantMessage(
                tool_calls=(ToolCall(id="toolu_01C", name="list", arguments="{}"),),
                stop_reason="tool_use",
            ),
            usage=Usage(input_tokens=472, output_tokens=5),
        )
    ]


async def test_refusal_stop_reason(server: SSEServer, model: AnthropicModel) -> None:
    server.queue(sse_reply("anthropic_refusal.sse"))
    events = await collect(model, hello())
    assert events[-1] == Completed(
        AssistantMessage(text="I can't help with that.", stop_reason="refusal"),
        usage=Usage(input_tokens=472, output_tokens=7),
    )


async def test_overloaded_error_event_before_any_text_is_retried(
    server: SSEServer, model: AnthropicModel
) -> None:
    server.queue(sse_reply("anthropic_overloaded.sse"), sse_reply("anthropic_text.sse"))
    events = await collect(model, hello())
    assert isinstance(events[-1], Completed)
    assert len(server.requests) == 2
