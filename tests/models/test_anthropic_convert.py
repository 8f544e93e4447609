"""History conversion and event assembly for the messages API."""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING, Any

import pytest
from pydantic import TypeAdapter

from tether.content import TextContent
from tether.models import AssistantMessage, ToolCall, ToolResultMessage, UserMessage
from tether.models.anthropic_convert import EventAssembler, to_anthropic_messages

if TYPE_CHECKING:
    from anthropic.types import RawMessageStreamEvent


@cache
def _events() -> TypeAdapter[RawMessageStreamEvent]:
    """The SDK's stream events, loaded by the first test that makes one (about 1 s of CPU):
    at module level every worker's collection paid it, for the one that runs these tests."""
    from anthropic.types import RawMessageStreamEvent

    return TypeAdapter(RawMessageStreamEvent)


def event(data: dict[str, Any]) -> dict[str, Any]:
    """An event as the server sends it (checked against the SDK's types: a real event)."""
    _events().validate_python(data)
    return data


def test_empty_assistant_turns_and_empty_text_are_left_out() -> None:
    history = (
        UserMessage((TextContent(text="go"), TextContent(text=""))),
        AssistantMessage(tool_calls=(ToolCall(id="t1", name="list", arguments="[1]"),)),
        ToolResultMessage(tool_call_id="t1", name="list", content=()),
        AssistantMessage(),
        UserMessage((TextContent(text="again"),)),
    )
    assert to_anthropic_messages(history) == [
        {"role": "user", "content": [{"type": "text", "text": "go"}]},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": "list", "input": {}}],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "t1"},
                {"type": "text", "text": "again"},
            ],
        },
    ]


def test_arguments_nested_too_deeply_are_sent_as_an_empty_input() -> None:
    deep = "[" * 100_000
    history = (AssistantMessage(tool_calls=(ToolCall(id="t1", name="read", arguments=deep),)),)
    [message] = to_anthropic_messages(history)
    assert message["content"] == [{"type": "tool_use", "id": "t1", "name": "read", "input": {}}]


@pytest.mark.parametrize(
    ("reason", "expected"),
    [
        ("end_turn", "end_turn"),
        ("stop_sequence", "end_turn"),
        ("tool_use", "tool_use"),
        ("max_tokens", "max_tokens"),
        ("model_context_window_exceeded", "max_tokens"),
        ("refusal", "refusal"),
    ],
)
def test_stop_reasons(reason: str, expected: str) -> None:
    assembler = EventAssembler()
    assembler.feed(
        event(
            {
                "type": "message_delta",
                "delta": {"stop_reason": reason, "stop_sequence": None},
                "usage": {"output_tokens": 1},
            }
        )
    )
    assembler.feed(event({"type": "message_stop"}))
    assert assembler.complete
    assert assembler.message().stop_reason == expected


def test_tool_input_given_whole_at_block_start_is_kept() -> None:
    assembler = EventAssembler()
    start = {
        "type": "content_block_start",
        "index": 0,
        "content_block": {"type": "tool_use", "id": "t", "name": "read", "input": {"path": "a"}},
    }
    assembler.feed(event(start))
    assert assembler.message().tool_calls == (
        ToolCall(id="t", name="read", arguments='{"path": "a"}'),
    )


def test_cache_marks_go_on_the_last_two_user_turns_and_leave_the_input_alone() -> None:
    from tether.models.anthropic_cache import cached_messages, cached_system, cached_tools

    mark = {"type": "ephemeral"}
    turns: list[Any] = [
        {"role": "user", "content": [{"type": "text", "text": "one"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "a"}]},
        {"role": "user", "content": [{"type": "text", "text": "two"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "b"}]},
        {"role": "user", "content": [{"type": "text", "text": "x"}, {"type": "text", "text": "y"}]},
    ]
    before = json.dumps(turns)
    marked = cached_messages(turns)
    assert json.dumps(turns) == before
    assert [[block.get("cache_control") for block in message["content"]] for message in marked] == [
        [None],
        [None],
        [mark],
        [None],
        [None, mark],
    ]
    assert cached_tools([]) == []
    assert cached_system("s") == [{"type": "text", "text": "s", "cache_control": mark}]
