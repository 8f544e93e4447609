"""Chunk assembly and history conversion quirks of OpenAI-compatible servers."""

from __future__ import annotations

from typing import Any

import pytest

from tether.content import TextContent
from tether.models import AssistantMessage, ToolCall, ToolResultMessage, Usage, UserMessage
from tether.models.messages import ToolSpec
from tether.models.openai_convert import ChunkAssembler, to_openai_messages, to_openai_tools


def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    """A chunk as the server sends it."""
    return {
        "id": "c",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def call(index: int, **fields: Any) -> dict[str, Any]:
    """A delta carrying one tool-call piece."""
    return {"tool_calls": [{"index": index, **fields}]}


@pytest.mark.parametrize(
    ("finish", "expected"),
    [("stop", "end_turn"), ("length", "max_tokens"), ("content_filter", "refusal")],
)
def test_finish_reasons(finish: str, expected: str) -> None:
    assembler = ChunkAssembler()
    assembler.feed(chunk({"content": "x"}))
    assembler.feed(chunk({}, finish))
    assert assembler.message() == AssistantMessage(text="x", stop_reason=expected)  # type: ignore[arg-type]


def test_tool_calls_with_finish_reason_stop_are_tool_use() -> None:
    assembler = ChunkAssembler()
    assembler.feed(chunk(call(0, id="a", function={"name": "read", "arguments": '{"path":"x"}'})))
    assembler.feed(chunk({}, "stop"))
    assert assembler.message().stop_reason == "tool_use"


def test_calls_that_all_claim_index_zero_stay_apart() -> None:
    assembler = ChunkAssembler()
    assembler.feed(chunk(call(0, id="a", function={"name": "read", "arguments": "{}"})))
    assembler.feed(chunk(call(0, id="b", function={"name": "bash", "arguments": '{"c":1}'})))
    assembler.feed(chunk({}, "tool_calls"))
    assert assembler.message().tool_calls == (
        ToolCall(id="a", name="read", arguments="{}"),
        ToolCall(id="b", name="bash", arguments='{"c":1}'),
    )


def test_index_zero_calls_keep_their_argument_pieces_apart() -> None:
    # A server that numbers every call 0 still streams each call's arguments in pieces
    # after its first delta; those pieces belong to the latest call, not the first.
    assembler = ChunkAssembler()
    assembler.feed(chunk(call(0, id="a", function={"name": "read", "arguments": ""})))
    assembler.feed(chunk(call(0, function={"arguments": '{"path":'})))
    assembler.feed(chunk(call(0, function={"arguments": '"x"}'})))
    assembler.feed(chunk(call(0, id="b", function={"name": "bash", "arguments": ""})))
    assembler.feed(chunk(call(0, function={"arguments": '{"c":'})))
    assembler.feed(chunk(call(0, function={"arguments": "1}"})))
    assembler.feed(chunk({}, "tool_calls"))
    assert assembler.message().tool_calls == (
        ToolCall(id="a", name="read", arguments='{"path":"x"}'),
        ToolCall(id="b", name="bash", arguments='{"c":1}'),
    )


def test_missing_ids_and_arguments_are_filled_in() -> None:
    assembler = ChunkAssembler()
    assembler.feed(chunk(call(0, function={"name": "list"})))
    assembler.feed(chunk({}, "tool_calls"))
    assert assembler.message().tool_calls == (ToolCall(id="call_0", name="list", arguments="{}"),)


def test_without_finish_reason_the_message_is_incomplete() -> None:
    assembler = ChunkAssembler()
    assembler.feed(chunk({"content": "half"}))
    assert not assembler.complete


def test_plain_history_and_empty_schema() -> None:
    history = (
        UserMessage((TextContent(text="a"), TextContent(text="b"))),
        AssistantMessage(text="sure"),
        AssistantMessage(tool_calls=(ToolCall(id="c1", name="list", arguments=""),)),
        ToolResultMessage(tool_call_id="c1", name="list", content=(), is_error=True),
    )
    assert to_openai_messages("", history) == [
        {"role": "user", "content": "a\n\nb"},
        {"role": "assistant", "content": "sure"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "list", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "Error"},
    ]
    assert to_openai_tools([ToolSpec(name="list", description="List.")]) == [
        {
            "type": "function",
            "function": {
                "name": "list",
                "description": "List.",
                "parameters": {"type": "object", "properties": {}},
            },
        }
    ]


def test_error_results_say_so_once() -> None:
    def sent(text: str) -> object:
        result = ToolResultMessage("c", "read", (TextContent(text=text),), is_error=True)
        return to_openai_messages("", (result,))[0]["content"]

    assert sent("no such file: a.py") == "Error: no such file: a.py"
    assert sent("Error: offset past the end") == "Error: offset past the end"


def test_fields_sent_as_null_or_of_the_wrong_kind_are_read_as_absent() -> None:
    assembler = ChunkAssembler()
    assembler.feed({"choices": None, "usage": None})
    assembler.feed({"choices": [None, {"index": 0, "delta": None}]})
    assembler.feed({"choices": [{"index": 0, "delta": {"content": None, "tool_calls": "x"}}]})
    assembler.feed(chunk({"content": "ok", "reasoning_content": 7}))
    assembler.feed(chunk({}, "stop"))
    usage = {"prompt_tokens": 5, "completion_tokens": 2, "prompt_tokens_details": None}
    assembler.feed({"choices": [], "usage": usage})
    assert assembler.message() == AssistantMessage(text="ok")
    assert assembler.usage == Usage(input_tokens=5, output_tokens=2)
