"""The loop: tool calls, error results, concurrency, the step cap, model failures, continuing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.polling import eventually
from tests.session.helpers import (
    EchoTool,
    Recorder,
    Sessions,
    SleepTool,
    call,
    log_lines,
    script,
    text,
)
from tether.content import TextContent
from tether.errors import PromptFailed, SessionBusy
from tether.models.messages import AssistantMessage, ToolCall, ToolResultMessage, UserMessage
from tether.session import (
    Session,
    SessionConfig,
    ToolCallFinished,
    ToolCallPartial,
    ToolCallStarted,
    TurnEnded,
    TurnFailed,
)
from tether.session.context.history import derive_history
from tether.session.loop import INTERRUPTED
from tether.tools import ToolRegistry


def _results(session: Session) -> dict[str, str]:
    return {
        e.tool_call_id: "\n".join(b.text for b in e.content if isinstance(b, TextContent))
        for e in session.events
        if e.type == "tool/result"
    }


async def test_unknown_tools_bad_json_and_invalid_arguments_become_error_results(
    ws: Path, sessions: Sessions
) -> None:
    model = script(
        {
            "toolCalls": [
                call("c1", "grep", {"pattern": "x"}),
                call("c2", "echo", '{"text": '),
                call("c3", "echo", {"text": 3}),
                call("c4", "echo", "[1]"),
                call("c5", "echo", {"text": "fine"}),
            ]
        },
        {"text": "done"},
    )
    session = sessions.new(ws, model, [EchoTool(), SleepTool()])
    recorder = Recorder()
    assert await session.prompt(text("go"), recorder) == "end_turn"
    results = _results(session)
    assert results["c1"] == "Unknown tool: grep. Available tools: echo, sleep"
    assert results["c2"].startswith("Arguments for echo are not valid JSON: ")
    assert results["c3"] == "Invalid arguments for echo:\n- text: Input should be a valid string"
    assert results["c4"] == "Arguments for echo must be a JSON object"
    assert results["c5"] == "fine"
    statuses = {
        u.tool_call_id: u.status for u in recorder.updates if isinstance(u, ToolCallFinished)
    }
    assert statuses == {
        "c1": "failed",
        "c2": "failed",
        "c3": "failed",
        "c4": "failed",
        "c5": "completed",
    }
    # The model saw every error as a result of its call, in its own order.
    seen = model.requests[1].messages
    assert [m.tool_call_id for m in seen if isinstance(m, ToolResultMessage)] == [
        "c1",
        "c2",
        "c3",
        "c4",
        "c5",
    ]
    assert [m.is_error for m in seen if isinstance(m, ToolResultMessage)] == [
        True,
        True,
        True,
        True,
        False,
    ]


async def test_calls_run_concurrently_and_results_land_as_they_finish(
    ws: Path, sessions: Sessions
) -> None:
    sleep = SleepTool()
    model = script(
        {
            "toolCalls": [
                call("slow", "sleep", {"key": "a", "seconds": 0.4}),
                call("fast", "sleep", {"key": "b", "seconds": 0.05}),
            ]
        },
        {"text": "done"},
    )
    session = sessions.new(ws, model, [sleep])
    await session.prompt(text("go"), Recorder())
    # Concurrent: the fast call started, and ended, while the slow one was still running.
    assert sleep.trace == ["start slow", "start fast", "end fast", "end slow"]
    types = [(e.type, getattr(e, "tool_call_id", None)) for e in session.events]
    calls_and_results = [t for t in types if t[0] in ("tool/call", "tool/result")]
    assert calls_and_results == [
        ("tool/call", "slow"),
        ("tool/call", "fast"),
        ("tool/result", "fast"),
        ("tool/result", "slow"),
    ]
    # The next request lists the results in the model's order, not the finishing order.
    seen = model.requests[1].messages
    assert [m.tool_call_id for m in seen if isinstance(m, ToolResultMessage)] == ["slow", "fast"]


async def test_calls_with_the_same_key_run_one_after_another_in_order(
    ws: Path, sessions: Sessions
) -> None:
    sleep = SleepTool()
    model = script(
        {
            "toolCalls": [
                call("a1", "sleep", {"key": "same", "seconds": 0.2}),
                call("b", "sleep", {"key": "other", "seconds": 0.05}),
                call("a2", "sleep", {"key": "same", "seconds": 0.01}),
                call("a3", "sleep", {"key": "same", "seconds": 0.01}),
            ]
        },
    )
    session = sessions.new(ws, model, [sleep])
    await session.prompt(text("go"), Recorder())
    same = [step for step in sleep.trace if step.split()[1].startswith("a")]
    assert same == ["start a1", "end a1", "start a2", "end a2", "start a3", "end a3"]
    assert sleep.trace.index("end b") < sleep.trace.index("end a1")


async def test_progress_is_live_only_and_carries_the_call_id(ws: Path, sessions: Sessions) -> None:
    model = script({"toolCalls": [call("s", "sleep", {"key": "k", "seconds": 0})]})
    session = sessions.new(ws, model, [SleepTool()])
    recorder = Recorder()
    await session.prompt(text("go"), recorder)
    progress = [u for u in recorder.updates if isinstance(u, ToolCallPartial)]
    assert [(p.tool_call_id, p.view.content) for p in progress] == [("s", "sleeping 0.0s")]
    assert session.replay() == recorder.without_progress()


async def test_steps_are_capped(home: Path, ws: Path, sessions: Sessions) -> None:
    turns = [{"toolCalls": [call(f"c{i}", "echo", {"text": str(i)})]} for i in range(10)]
    model = script(*turns)
    session = sessions.new(ws, model, [EchoTool()], max_steps=3)
    recorder = Recorder()
    assert await session.prompt(text("loop"), recorder) == "max_turn_requests"
    assert len(model.requests) == 3
    assert recorder.updates[-1] == TurnEnded(stop_reason="max_turn_requests")
    assert log_lines(session, home)[-1]["stopReason"] == "max_turn_requests"
    # Every call of the last step still got its result.
    assert set(_results(session)) == {"c0", "c1", "c2"}


async def test_the_model_stop_reason_is_the_prompt_stop_reason(
    ws: Path, sessions: Sessions
) -> None:
    session = sessions.new(ws, script({"text": "no", "stopReason": "refusal"}))
    assert await session.prompt(text("x"), Recorder()) == "refusal"


async def test_a_model_error_is_recorded_then_raised(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    model = script({"error": "429 rate limited: try again in a minute"}, {"text": "back"})
    session = sessions.new(ws, model)
    recorder = Recorder()
    with pytest.raises(PromptFailed, match="429 rate limited"):
        await session.prompt(text("hi"), recorder)
    assert recorder.updates[-1] == TurnFailed(message="429 rate limited: try again in a minute")
    end = log_lines(session, home)[-1]
    assert (end["type"], end["stopReason"], end["error"]) == (
        "turn/end",
        "error",
        "429 rate limited: try again in a minute",
    )
    assert session.replay() == recorder.updates
    # The session is still usable.
    assert await session.prompt(text("again"), Recorder()) == "end_turn"


async def test_a_second_prompt_while_one_runs_is_refused(ws: Path, sessions: Sessions) -> None:
    model = script({"toolCalls": [call("s", "sleep", {"key": "k", "seconds": 0.2})]})
    session = sessions.new(ws, model, [SleepTool()])
    first = asyncio.create_task(session.prompt(text("one"), Recorder()))
    await eventually(lambda: session.running, "the first prompt started")
    with pytest.raises(SessionBusy):
        await session.prompt(text("two"), Recorder())
    assert await first == "end_turn"


async def test_the_title_is_the_first_prompt_line_set_once(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    session = sessions.new(ws, script({"text": "a"}, {"text": "b"}))
    long = "  Refactor the parser so that every error names its line and column please  \nmore"
    await session.prompt(text(long), Recorder())
    await session.prompt(text("second prompt"), Recorder())
    titles = [e for e in log_lines(session, home) if e["type"] == "session/title"]
    assert len(titles) == 1
    assert session.title == "Refactor the parser so that every error names its line and…"
    assert len(session.title) <= 60


async def test_a_loaded_session_continues_with_the_same_history(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    first_model = script(
        {"text": "looking", "toolCalls": [call("c1", "echo", {"text": "one"})]}, {"text": "done"}
    )
    session = sessions.new(ws, first_model, [EchoTool()])
    await session.prompt(text("first"), Recorder())
    before = derive_history(session.events)
    session.close()

    second_model = script({"text": "continued"})
    config = SessionConfig(model=second_model, tools=ToolRegistry([EchoTool()]), mode="auto")
    loaded = sessions.load(session.id, config)
    assert derive_history(loaded.events) == before
    assert loaded.title == "first"
    await loaded.prompt(text("second"), Recorder())
    assert list(second_model.requests[0].messages) == [
        *before,
        UserMessage((TextContent(text="second"),)),
    ]
    assert before == [
        UserMessage((TextContent(text="first"),)),
        AssistantMessage("looking", (ToolCall("c1", "echo", '{"text": "one"}'),), "tool_use"),
        ToolResultMessage("c1", "echo", (TextContent(text="one"),)),
        AssistantMessage("done"),
    ]
    assert [e["seq"] for e in log_lines(loaded, home)[1:]] == list(range(1, len(loaded.events) + 1))


async def test_an_interrupted_turn_is_closed_when_the_session_is_loaded(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    model = script({"toolCalls": [call("c1", "sleep", {"key": "k", "seconds": 30})]})
    session = sessions.new(ws, model, [SleepTool()])
    task = asyncio.create_task(session.prompt(text("go"), Recorder()))
    await eventually(
        lambda: any(e.type == "tool/call" for e in session.events), "the call was logged"
    )
    # Simulate a crash: the log stops mid-turn (the writer goes away without a turn end).
    path = home / "sessions" / f"{session.id}.jsonl"
    crashed = path.read_bytes()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    session.close()
    path.write_bytes(crashed)

    config = SessionConfig(model=script(), tools=ToolRegistry([SleepTool()]), mode="auto")
    loaded = sessions.load(session.id, config)
    tail = log_lines(loaded, home)[-2:]
    assert tail[0]["type"] == "tool/result"
    assert tail[0]["content"] == [{"type": "text", "text": INTERRUPTED}]
    assert tail[0]["isError"] is True
    assert tail[1]["stopReason"] == "cancelled"
    # The next prompt (`tether -c` after the crash) is told where the last one stopped.
    assert await loaded.prompt(text("again"), Recorder()) == "end_turn"
    said = derive_history(loaded.events)[-2]
    assert said == UserMessage(
        (TextContent(text="[Request interrupted by user for tool use]"), TextContent(text="again"))
    )


async def test_a_failing_update_handler_does_not_break_the_turn(
    ws: Path, sessions: Sessions, caplog: pytest.LogCaptureFixture
) -> None:
    session = sessions.new(ws, script({"toolCalls": [call("c", "echo", {"text": "x"})]}))

    def broken(update: object) -> None:
        raise RuntimeError("renderer bug")

    assert await session.prompt(text("go"), broken) == "end_turn"
    assert "an update handler failed" in caplog.text


async def test_started_updates_follow_the_model_order(ws: Path, sessions: Sessions) -> None:
    model = script(
        {"toolCalls": [call("z", "echo", {"text": "1"}), call("a", "echo", {"text": "2"})]}
    )
    session = sessions.new(ws, model, [EchoTool()])
    recorder = Recorder()
    await session.prompt(text("go"), recorder)
    started = [u for u in recorder.updates if isinstance(u, ToolCallStarted)]
    assert [(s.tool_call_id, s.raw_input) for s in started] == [
        ("z", {"text": "1"}),
        ("a", {"text": "2"}),
    ]


async def test_a_repeated_call_id_gets_a_fresh_one_and_both_calls_run(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    # Some servers number calls per message ("call_0" every time) or repeat an id outright.
    model = script(
        {"toolCalls": [call("c1", "echo", {"text": "a"}), call("c1", "echo", {"text": "b"})]},
        {"toolCalls": [call("c1", "echo", {"text": "c"})]},
        {"text": "done"},
    )
    session = sessions.new(ws, model, [EchoTool()])
    assert await session.prompt(text("go"), Recorder()) == "end_turn"
    calls = [e for e in log_lines(session, home) if e["type"] == "tool/call"]
    ids = [c["toolCallId"] for c in calls]
    assert ids[0] == "c1" and len(set(ids)) == 3
    assert _results(session) == dict(zip(ids, ["a", "b", "c"], strict=True))
    # The model sees its message with the same ids its results answer.
    last = model.requests[-1].messages
    sent = [c.id for m in last if isinstance(m, AssistantMessage) for c in m.tool_calls]
    assert sent == ids
    assert [m.tool_call_id for m in last if isinstance(m, ToolResultMessage)] == ids
