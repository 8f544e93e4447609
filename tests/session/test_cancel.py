"""Cancel stops the model stream and the tools at once; the log stays a valid history."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.polling import eventually
from tests.processes import processes_with
from tests.session.helpers import (
    Recorder,
    Sessions,
    SleepTool,
    SlowModel,
    call,
    log_lines,
    script,
    text,
)
from tether.content import TextContent
from tether.models.messages import UserMessage
from tether.session import CANCELLED, ToolCallFinished, ToolCallPartial, TurnEnded
from tether.session.context.history import derive_history
from tether.tools.bash.tool import BashTool
from tether.views import TerminalResultView


async def test_cancel_during_the_model_stream(home: Path, ws: Path, sessions: Sessions) -> None:
    model = SlowModel()
    session = sessions.new(ws, model)
    recorder = Recorder()
    task = asyncio.create_task(session.prompt(text("think"), recorder))
    await asyncio.wait_for(model.streaming.wait(), 5)
    session.cancel()
    # The model would stream for an hour: ending at all means the cancel stopped it.
    assert await asyncio.wait_for(task, 10) == "cancelled"
    assert model.closed.is_set()  # the stream was closed, not left hanging
    assert recorder.updates[-1] == TurnEnded(stop_reason="cancelled")
    types = [e["type"] for e in log_lines(session, home)[1:]]
    assert types == [
        "turn/start",
        "user/message",
        "session/title",
        "assistant/chunk",
        "checkpoint",  # the workspace before the prompt, saved whatever happens
        "turn/end",
    ]
    assert session.replay() == recorder.updates
    # The next prompt works and the model sees a valid history.
    session.model = script({"text": "ok"})
    assert await session.prompt(text("again"), Recorder()) == "end_turn"


async def test_cancel_during_a_long_bash_command(home: Path, ws: Path, sessions: Sessions) -> None:
    marker = ws / "finished"
    model = script(
        {
            "toolCalls": [
                call("long", "bash", {"command": f"echo started; sleep 30; touch {marker}"}),
                call("nap", "sleep", {"key": "k", "seconds": 30}),
                call("quick", "sleep", {"key": "q", "seconds": 0}),
            ]
        }
    )
    session = sessions.new(ws, model, [BashTool(), SleepTool()])
    recorder = Recorder()
    task = asyncio.create_task(session.prompt(text("run"), recorder))

    def started() -> bool:
        # The quick call is done and bash has printed, so its process is running.
        finished = any(u.kind == "tool_call_finished" for u in recorder.updates)
        return finished and any(
            isinstance(u, ToolCallPartial) and "started" in (getattr(u.view, "output", None) or "")
            for u in recorder.updates
        )

    await eventually(started, "the calls started")
    session.cancel()
    # Both calls would run for 30 s: ending well before means the cancel stopped them.
    assert await asyncio.wait_for(task, 10) == "cancelled"
    finished = recorder.finished()
    assert finished["quick"].status == "completed"
    assert finished["nap"].status == "failed"
    assert finished["nap"].result.text() == CANCELLED
    # The command stays a terminal card, and failed: it was stopped, as a timed-out one is.
    assert finished["long"].status == "failed"
    assert isinstance(finished["long"].view, TerminalResultView)
    assert (
        finished["long"]
        .result.text()
        .endswith("Command was cancelled.\nTerminated by signal SIGTERM")
    )
    assert log_lines(session, home)[-1]["stopReason"] == "cancelled"
    assert session.replay() == recorder.without_progress()
    # Every call has a result, so the history is valid for the next request.
    history = derive_history(session.events)
    assert [getattr(m, "tool_call_id", None) for m in history[-3:]] == ["long", "nap", "quick"]
    # The shell was stopped, not just its `sleep`: it ends without going on to the `touch`.
    await eventually(lambda: not processes_with(str(marker)), "the command's processes ended")
    assert not marker.exists()
    # The next prompt is told, in one line before it, where the last one stopped.
    session.model = script({"text": "ok"})
    assert await session.prompt(text("go on"), Recorder()) == "end_turn"
    said = derive_history(session.events)[-2]
    assert isinstance(said, UserMessage)
    assert [block.text for block in said.content if isinstance(block, TextContent)] == [
        "[Request interrupted by user for tool use]",
        "go on",
    ]


async def test_a_cancelled_command_keeps_its_terminal_card_and_output(
    ws: Path, sessions: Sessions
) -> None:
    model = script(
        {"toolCalls": [call("c1", "bash", {"command": "echo one; echo two; sleep 30"})]},
        {"text": "never asked"},
    )
    session = sessions.new(ws, model, [BashTool()])
    recorder = Recorder()
    task = asyncio.create_task(session.prompt(text("run"), recorder))
    await eventually(
        lambda: any(
            isinstance(u, ToolCallPartial) and "two" in (getattr(u.view, "output", None) or "")
            for u in recorder.updates
        ),
        "the command's output was reported",
    )
    session.cancel()
    assert await asyncio.wait_for(task, 10) == "cancelled"
    [done] = [u for u in recorder.updates if isinstance(u, ToolCallFinished)]
    card = TerminalResultView(
        title="echo one; echo two; sleep 30", output="one\ntwo\n", signal="SIGTERM"
    )
    assert done.view == card
    assert done.result.text() == "one\ntwo\nCommand was cancelled.\nTerminated by signal SIGTERM"
    assert session.replay() == recorder.without_progress()
    # The model is told, in the result it sees next.
    history = derive_history(session.events)
    assert "Command was cancelled." in str(history[-1])


async def test_cancel_without_a_running_prompt_does_nothing(ws: Path, sessions: Sessions) -> None:
    session = sessions.new(ws, script({"text": "hi"}))
    session.cancel()
    assert await session.prompt(text("hello"), Recorder()) == "end_turn"


async def test_cancelling_the_caller_records_the_cancel_and_propagates(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    model = SlowModel()
    session = sessions.new(ws, model)
    task = asyncio.create_task(session.prompt(text("think"), Recorder()))
    await asyncio.wait_for(model.streaming.wait(), 5)
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
    else:
        raise AssertionError("the caller's cancellation was swallowed")
    assert log_lines(session, home)[-1]["stopReason"] == "cancelled"


async def test_cancel_right_after_the_prompt_begins_ends_it_cancelled(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    # A client may send session/cancel right behind session/prompt, before the turn first runs.
    session = sessions.new(ws, script({"text": "never"}))
    recorder = Recorder()
    task = asyncio.create_task(session.prompt(text("stop"), recorder))
    await asyncio.sleep(0)
    session.cancel()
    assert await asyncio.wait_for(task, 5) == "cancelled"
    assert recorder.updates[-1] == TurnEnded(stop_reason="cancelled")
    types = [e["type"] for e in log_lines(session, home)[1:]]
    assert types == ["turn/start", "user/message", "session/title", "checkpoint", "turn/end"]
    assert log_lines(session, home)[-1]["stopReason"] == "cancelled"
