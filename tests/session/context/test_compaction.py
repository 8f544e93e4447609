"""Compaction: prune and summary change what the model sees, never the log or the cards."""

from __future__ import annotations

import itertools
import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest

from tests.models.sse_server import Received, Reply, SSEServer, json_reply
from tests.session.helpers import Recorder, Sessions, call, log_lines, script, text
from tether.content import TextContent
from tether.models.messages import ToolResultMessage, UserMessage
from tether.models.openai_compat import OpenAICompatModel
from tether.models.retry import RetryPolicy
from tether.providers import OPENAI
from tether.session import ContextCompacted, SessionConfig, UsageChanged
from tether.session.context.budget import tokens
from tether.session.context.compaction import SUMMARY_INTRO, SUMMARY_PROMPT, compact_command
from tether.tools.defaults import default_tools

OVERFLOW = {
    "error": {
        "message": "This model's maximum context length is 8192 tokens. However, you requested "
        "9120 tokens. Please reduce the length of the messages.",
        "type": "invalid_request_error",
        "param": "messages",
        "code": "context_length_exceeded",
    }
}


def _config(model: Any, **kwargs: Any) -> SessionConfig:
    return SessionConfig(model=model, tools=default_tools(), mode="auto", **kwargs)


def _file(ws: Path, name: str, lines: int = 60) -> None:
    (ws / name).write_text(
        "".join(f"value_{i} = {i} * 1000  # a line of {name}\n" for i in range(lines))
    )


def test_compact_command_takes_an_optional_focus() -> None:
    assert compact_command([TextContent(text="/compact")]) == ""
    assert compact_command([TextContent(text="  /compact  the parser work ")]) == "the parser work"
    assert compact_command([TextContent(text="/compact\nkeep the tests")]) == "keep the tests"
    assert compact_command([TextContent(text="/compaction")]) is None
    assert compact_command([TextContent(text="please /compact")]) is None
    assert compact_command([TextContent(text="/compact"), TextContent(text="more")]) is None


async def test_prune_stubs_old_results_for_the_model_only(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    # With the prompt and the tools (about 3-4.5k tokens), seven reads of about 1,800 tokens
    # each pass 80% of 18k; the oldest are pruned, and pruning is enough.
    for n in range(7):
        _file(ws, f"m{n}.py", lines=200)
    turns = [{"toolCalls": [call(f"r{n}", "read", {"path": f"m{n}.py"})]} for n in range(7)]
    model = script(*turns, {"text": "done"})
    session = sessions.create(ws, _config(model, context_window=18_000))
    live = Recorder()
    assert await session.prompt(text("read them"), live) == "end_turn"

    [prune, *_] = [e for e in log_lines(session, home) if e["type"] == "context/compaction"]
    assert prune["method"] == "prune"
    assert prune["afterTokens"] < prune["beforeTokens"]
    last = model.requests[-1].messages
    results = [m for m in last if isinstance(m, ToolResultMessage)]
    stubbed = [m.content[0].text for m in results if "pruned" in m.content[0].text]  # type: ignore[union-attr]
    assert stubbed[0] == (
        "[read m0.py lines 1-200 of 200: pruned to save context; read it again if needed]"
    )
    # The last three turns keep their results.
    assert all("value_0 = 0" in m.content[0].text for m in results[-3:])  # type: ignore[union-attr]
    # The cards are those of the log, live and replayed alike.
    assert session.replay() == live.without_progress()
    notices = [u for u in live.updates if isinstance(u, ContextCompacted)]
    assert notices and notices[0].text.startswith("context compacted by prune: ")
    session.close()

    # A loaded session rebuilds the same view from the compaction events.
    again = script({"text": "still here"})
    loaded = sessions.load(session.id, _config(again, context_window=18_000))
    await loaded.prompt(text("go on"), Recorder())
    assert list(again.requests[0].messages[: len(last)]) == list(last)


async def test_compact_command_summarises_now_and_focus_reaches_the_model(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    _file(ws, "a.py")
    model = script(
        {
            "toolCalls": [call("r1", "read", {"path": "a.py"})],
            "usage": {"inputTokens": 900, "outputTokens": 20},
        },
        {"text": "a.py holds values.", "usage": {"inputTokens": 1900, "outputTokens": 10}},
        {
            "text": "The user read a.py; it holds 60 values.",
            "usage": {"inputTokens": 2000, "outputTokens": 15},
        },
        {"text": "Yes: 60 values."},
    )
    session = sessions.create(ws, _config(model, context_window=32_000))
    live = Recorder()
    await session.prompt(text("what is in a.py?"), live)
    used = [u for u in live.updates if isinstance(u, UsageChanged)]
    assert [(u.used, u.size) for u in used] == [(920, 32_000), (1910, 32_000)]
    assert used[-1].text == "1.9k / 32k tokens"

    assert await session.prompt(text("/compact the values"), live) == "end_turn"
    ask = model.requests[2]
    prompt_text = ask.messages[-1].content[-1].text  # type: ignore[union-attr]
    assert prompt_text.startswith(SUMMARY_PROMPT) and prompt_text.endswith("focus on: the values")
    assert "/compact" not in json.dumps([str(m) for m in ask.messages])
    [compaction] = [e for e in log_lines(session, home) if e["type"] == "context/compaction"]
    assert compaction["method"] == "summary"
    assert compaction["summary"] == "The user read a.py; it holds 60 values."
    notice = [u for u in live.updates if isinstance(u, ContextCompacted)][-1]
    assert notice.text == (
        f"context compacted by summary: {_short(compaction['beforeTokens'])} → "
        f"{_short(compaction['afterTokens'])} tokens"
    )

    await session.prompt(text("how many?"), live)
    [first, *rest] = model.requests[3].messages
    assert isinstance(first, UserMessage) and not rest
    assert first.content[0].text.startswith(SUMMARY_INTRO)  # type: ignore[union-attr]
    assert "holds 60 values" in first.content[0].text  # type: ignore[union-attr]
    assert first.content[-1] == TextContent(text="how many?")
    assert session.replay() == live.without_progress()


async def test_compact_on_an_empty_session_is_a_clear_error(ws: Path, sessions: Sessions) -> None:
    session = sessions.create(ws, _config(script()))
    live = Recorder()
    try:
        await session.prompt(text("/compact"), live)
    except Exception as exc:
        assert type(exc).__name__ == "PromptFailed"
        assert "nothing to compact yet" in str(exc)
    else:
        raise AssertionError("expected a failure")


def _sse(
    body: dict[str, Any], text_reply: str = "", calls: list[dict[str, Any]] | None = None
) -> Reply:
    """An OpenAI-compatible stream answering `body`, reporting its size as usage."""
    base = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "m"}
    delta: dict[str, Any] = {"role": "assistant", "content": text_reply}
    if calls:
        delta["tool_calls"] = [
            {
                "index": i,
                "id": c["id"],
                "type": "function",
                "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])},
            }
            for i, c in enumerate(calls)
        ]
    finish = "tool_calls" if calls else "stop"
    # The server counts every byte of the request it was sent, framing included, as
    # tokens at 4 bytes each: a count made apart from the session's own estimate.
    prompt_tokens = tokens(
        len(json.dumps(body["messages"])) + len(json.dumps(body.get("tools", [])))
    )
    chunks = [
        {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
        {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]},
        {
            **base,
            "choices": [],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": 12,
                "total_tokens": prompt_tokens + 12,
            },
        },
    ]
    events = (*(f"data: {json.dumps(c)}\n\n".encode() for c in chunks), b"data: [DONE]\n\n")
    return Reply(headers={"content-type": "text/event-stream"}, chunks=events)


async def test_a_context_overflow_is_compacted_and_retried_once(
    home: Path, ws: Path, sessions: Sessions, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="tether.session.context.window")
    _file(ws, "big.py", lines=120)
    served: list[str] = []

    def answer(request: Received) -> Reply:
        body = request.json()
        last = json.dumps(body["messages"][-1])
        if len(served) == 2:
            served.append("overflow")
            return json_reply(400, OVERFLOW)
        if SUMMARY_PROMPT.split(":")[0] in last:
            served.append("summary")
            return _sse(body, "The user asked about big.py, which was read: 120 value lines.")
        if len(served) == 0:
            served.append("read")
            return _sse(
                body, "Reading.", [{"id": "c1", "name": "read", "arguments": {"path": "big.py"}}]
            )
        served.append("text")
        return _sse(body, f"Answer {len(served)}.")

    async with SSEServer() as server:
        server.answer = answer
        model = OpenAICompatModel(
            OPENAI.resolve(server.url, "sk-test"),
            model="deepseek-chat",
            retry=RetryPolicy(attempts=1),
        )
        config = _config(model, context_window=32_000)
        session = sessions.create(ws, config)
        live = Recorder()
        assert await session.prompt(text("what is in big.py?"), live) == "end_turn"
        assert await session.prompt(text("and now?"), live) == "end_turn"
        await model.aclose()
    assert served == ["read", "text", "overflow", "summary", "text"]

    events = log_lines(session, home)
    [compaction] = [e for e in events if e["type"] == "context/compaction"]
    assert compaction["method"] == "summary"
    retried = server.requests[4].json()["messages"]
    assert SUMMARY_INTRO in json.dumps(retried[1])
    assert [e["type"] for e in events].count("turn/end") == 2
    assert all(e.get("stopReason") == "end_turn" for e in events if e["type"] == "turn/end")

    # The estimate before each request against what the server counted for it.
    estimates = [int(m[1]) for m in re.finditer(r"request estimate: (\d+)", caplog.text)]
    answered = [
        e["inputTokens"]
        for previous, e in itertools.pairwise(events)
        if e["type"] == "model/usage" and previous["type"] == "assistant/message"
    ]
    # The overflowed request has no usage; the retry's estimate follows it.
    del estimates[2]
    errors = [abs(a - b) / b for a, b in zip(estimates, answered, strict=True)]
    print("estimate error against reported usage:", [f"{e:.1%}" for e in errors])
    assert max(errors) < 0.2

    # Replay gives every card and the notice exactly as they were shown live.
    assert session.replay() == live.without_progress()
    assert any(isinstance(u, ContextCompacted) for u in session.replay())


def _short(count: int) -> str:
    from tether.figures import short_tokens

    return short_tokens(count)
